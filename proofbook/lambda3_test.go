package proofbook

import (
	"context"
	"math/rand/v2"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/lambda3moves"
	"c6book/proofcheck"
)

// proveBelow answers position id (attacker to move) with the engine's win
// or, failing that, with quiet λ3 candidates, verifies the result and,
// depth permitting, answers its items in turn; it reports whether id ends
// proved.
func proveBelow(t *testing.T, bk *Book, rng *rand.Rand, id PosID, a game.Color, depth int) bool {
	t.Helper()
	ctx := context.Background()
	cb, err := bk.Board(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tol, ok := cb.DefenderDeficit(a)
	if !ok {
		t.Fatal("no deficit")
	}
	var cands []game.Move
	if m, ok := lambda3moves.AttackerMove(ctx, cb, tol); ok {
		cands = append(cands, m)
	}
	for i := 0; i < 2; i++ {
		cands = append(cands, lambda3moves.QuietMove(ctx, rng, cb, tol))
	}
	for _, m := range cands {
		next, err := bk.Play(ctx, id, m)
		if err != nil {
			t.Fatal(err)
		}
		if p := proofOf(t, bk, next, a); p.Status == c6book.StatusDisproved {
			continue
		}
		nb, err := bk.Board(ctx, next)
		if err != nil {
			t.Fatal(err)
		}
		v, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 3, Tolerance: tol, Workers: 1, Limits: threat.Limits{MaxNodes: 5000}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bk.StoreVerdict(ctx, next, c6book.FromEngine(bk.rules, 0, v, 3)); err != nil {
			t.Fatal(err)
		}
		for round := 0; depth > 0 && round < 4; round++ {
			items, err := bk.Items(ctx, next, a)
			if err != nil {
				t.Fatal(err)
			}
			if len(items) == 0 || len(items) > 12 {
				break
			}
			for _, it := range items {
				if !proveBelow(t, bk, rng, it.ID, a, depth-1) {
					break
				}
			}
		}
		if proofOf(t, bk, id, a).Status == c6book.StatusProved {
			return true
		}
	}
	return false
}

// The seminull closure of RZOP, on Connect6. In D Black has one threat (a
// four on row 10 that White blocks at g10 or h10) and three in a row on
// rows 4 and 7; a λ3 verdict leaves the seminull moves g10 and h10 open. The
// seminull position D+g10 is proved (f4f7 makes four threats); that does
// not prove D: the full moves (g10, x) with x in its zone become items, and
// D is proved only once every one of them is, after which the independent
// checker accepts the book.
func TestSeminullClosure(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	B := game.Black
	const dLine = "j10 a19e19 c10d10 b10i19 c4d4 m19q19 e4c7 a16e16 d7e7 i16m16 e10f10"
	D := add(t, bk, dLine)
	b, err := board.ReplayText(r, dLine)
	if err != nil {
		t.Fatal(err)
	}
	if th := b.Threats(B); th != 1 {
		t.Fatalf("D: Black has %d threats, want 1", th)
	}
	_, sym, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	// The λ3 verdict: every move that blocks the four holds g10 or h10.
	v := c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Order: 3, Lambda: 3, Engine: "test", Cert: &proofcheck.Cert{Attacker: B}}
	for _, s := range []string{"g10", "h10"} {
		sq := ToCanonical(r, sym, mv(t, r, s))
		v.OpenSeminull = append(v.OpenSeminull, c6book.Unsolved{Move: sq, Reason: "budget"})
		v.Cert.OpenSeminull = append(v.Cert.OpenSeminull, sq.At(0))
	}
	store(t, bk, D, v)
	wantProof(t, bk, "D (two open seminull items)", D, B, c6book.StatusOpen, 2, 1)

	// answer plays f4f7 (or the engine's win when f4/f7 is taken) in
	// position id and verifies the result.
	answer := func(it Item) {
		t.Helper()
		id := it.ID
		cb, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tol, _ := cb.DefenderDeficit(B)
		// f4f7 in the frame of the line, mapped into the item's frame.
		ub := b.Clone()
		dm := FromCanonical(r, sym, it.Move)
		for i := 0; i < dm.Len(); i++ {
			ub.Place(dm.At(i), game.White)
		}
		_, isym := ub.CanonicalKey()
		cands := []game.Move{ToCanonical(r, isym, mv(t, r, "f4f7"))}
		if m, ok := lambda3moves.AttackerMove(ctx, cb, tol); ok {
			cands = append(cands, m)
		}
		for _, m := range cands {
			if cb.At(m.At(0)) != game.Empty || cb.At(m.At(1)) != game.Empty {
				continue
			}
			next, err := bk.Play(ctx, id, m)
			if err != nil {
				t.Fatal(err)
			}
			nb, err := bk.Board(ctx, next)
			if err != nil {
				t.Fatal(err)
			}
			vd, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 2, Tolerance: tol, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bk.StoreVerdict(ctx, next, c6book.FromEngine(r, 0, vd, 2)); err != nil {
				t.Fatal(err)
			}
			if proofOf(t, bk, id, B).Status == c6book.StatusProved {
				return
			}
		}
	}
	items, err := bk.Items(ctx, D, B)
	if err != nil || len(items) != 2 {
		t.Fatalf("items: %v %v", items, err)
	}
	g10 := items[0]
	answer(g10)
	sp := proofOf(t, bk, g10.ID, B)
	if sp.Status != c6book.StatusProved || len(sp.Zone) == 0 {
		t.Fatalf("the seminull position is not proved with a zone: %+v", sp)
	}
	// The seminull position alone proves nothing: its zone's full moves
	// are items now, stored as children.
	if st := proofOf(t, bk, D, B).Status; st == c6book.StatusProved {
		t.Fatal("D proved by a seminull position without the full moves inside its zone")
	}
	items, err = bk.Items(ctx, D, B)
	if err != nil {
		t.Fatal(err)
	}
	s := g10.Move.At(0)
	full := 0
	for _, it := range items {
		if it.Move.Len() == 2 {
			if !it.Move.Contains(s) || it.ID == 0 {
				t.Fatalf("item %s: want a stored full move through %s", game.MoveName(r, it.Move), game.SquareName(r, s))
			}
			full++
		}
	}
	if full == 0 {
		t.Fatal("no full move of the seminull zone became an item")
	}
	mustCheck(t, bk)
	// Answer everything; D is proved only at the end.
	for round := 0; round < 4; round++ {
		items, err := bk.Items(ctx, D, B)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) == 0 {
			break
		}
		if proofOf(t, bk, D, B).Status == c6book.StatusProved {
			t.Fatalf("D proved with %d items open", len(items))
		}
		for _, it := range items {
			answer(it)
		}
	}
	if p := proofOf(t, bk, D, B); p.Status != c6book.StatusProved || p.Order != 3 || len(p.Zone) == 0 {
		left, _ := bk.Items(ctx, D, B)
		var names []string
		for _, it := range left {
			names = append(names, game.MoveName(r, FromCanonical(r, sym, it.Move)))
		}
		t.Fatalf("D after every item: %+v; items left %d: %v", p, len(left), names)
	}
	rep := mustCheck(t, bk)
	t.Logf("seminull items closed: %d full moves inside the zones were proved; %d proofs re-checked", full, rep.Proofs)
	// Dropping one (g10, x) child's proof breaks the check with its line.
	for _, it := range items {
		if it.Move.Len() == 2 {
			if _, err := bk.w.ExecContext(ctx, "UPDATE status SET status = 1, zone = NULL WHERE pos = ? AND attacker = 1", int64(it.ID)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if rep, err := bk.Check(ctx); err != nil || rep.OK() {
		t.Fatalf("check accepted a closure with an item unproved: %v %v", rep.Problems, err)
	}
}
