package proofbook

import (
	"context"
	"testing"

	"c6book/engine"
)

func mv(t *testing.T, r engine.Rules, s string) engine.Move {
	t.Helper()
	m, err := engine.ParseMove(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func proofOf(t *testing.T, bk *Book, id PosID, a engine.Color) Proof {
	t.Helper()
	p, err := bk.Position(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Proof(a)
}

func wantProof(t *testing.T, bk *Book, name string, id PosID, a engine.Color, st Status, pn, dn int64) {
	t.Helper()
	p := proofOf(t, bk, id, a)
	if p.Status != st || pn >= 0 && p.PN != pn || dn >= 0 && p.DN != dn {
		t.Fatalf("%s (%d): %s pn %d dn %d (%s), want %s pn %d dn %d", name, id, p.Status, p.PN, p.DN, p.How, st, pn, dn)
	}
}

// verdict builds a hand-made verdict on position id (canonical frame of a
// position reached by the line: the book's root frame is the identity
// only at the root, so moves are mapped through Locate's symmetry).
func verdict(t *testing.T, bk *Book, line string, status string, order int, unsolved ...string) (PosID, Verdict) {
	t.Helper()
	r := bk.Rules()
	b, err := engine.ReplayText(r, line)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	v := Verdict{Attacker: b.ToMove().Opp(), Status: status, Order: order, Lambda: 2, Engine: "test"}
	for _, u := range unsolved {
		v.Unsolved = append(v.Unsolved, Unsolved{Move: ToCanonical(r, sym, mv(t, r, u)), Reason: "budget"})
	}
	return id, v
}

func store(t *testing.T, bk *Book, id PosID, v Verdict) {
	t.Helper()
	if err := bk.StoreVerdict(context.Background(), id, v); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
}

func add(t *testing.T, bk *Book, line string) PosID {
	t.Helper()
	l, err := bk.AddLine(context.Background(), turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}

func TestPropagationAndOr(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, engine.Connect6())
	B := engine.Black
	const p2 = "j10 j11k10"
	P2 := add(t, bk, p2)
	A := add(t, bk, p2+" l11m9")
	A2 := add(t, bk, p2+" h8h9")
	wantProof(t, bk, "P2 before any verdict", P2, B, StatusUnknown, 1, 1)

	// An open verdict on A leaves two replies; they become children.
	id, v := verdict(t, bk, p2+" l11m9", engine.StatusOpen, 0, "k12l12", "i9i10")
	if id != A {
		t.Fatal("verdict on the wrong position")
	}
	store(t, bk, A, v)
	C1, _ := locate(t, bk, p2+" l11m9 k12l12")
	C2, _ := locate(t, bk, p2+" l11m9 i9i10")
	wantProof(t, bk, "A (AND, two open replies)", A, B, StatusOpen, 2, 1)
	wantProof(t, bk, "P2 (OR: A pn 2, A2 unverified 1)", P2, B, StatusOpen, 1, 2)

	// The most-proving position is the unverified A2.
	line, err := bk.Next(ctx, P2, B)
	if err != nil {
		t.Fatal(err)
	}
	if last := line.IDs[len(line.IDs)-1]; last != A2 {
		t.Fatalf("next: %d, want A2 %d", last, A2)
	}
	// A verdict that bounds nothing keeps A2 a leaf that is not proved.
	_, v2 := verdict(t, bk, p2+" h8h9", engine.StatusOpen, 0)
	v2.AllUnsolved = true
	store(t, bk, A2, v2)
	wantProof(t, bk, "A2 (all open)", A2, B, StatusOpen, 1, 1)
	// The expert gives A2 up: next goes through A to its first reply.
	if err := bk.SetDisproved(ctx, A2, B, true); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "A2 disproved", A2, B, StatusDisproved, Infinite, 0)
	wantProof(t, bk, "P2 (only A left)", P2, B, StatusOpen, 2, 1)
	line, err = bk.Next(ctx, P2, B)
	if err != nil {
		t.Fatal(err)
	}
	if last := line.IDs[len(line.IDs)-1]; last != C1 && last != C2 || len(line.IDs) != 3 {
		t.Fatalf("next: %v, want a reply of A", line.IDs)
	}

	// C1: the attacker's move D1 is proved outright: C1 proved, A still open.
	D1 := add(t, bk, p2+" l11m9 k12l12 n7o7")
	_, vd1 := verdict(t, bk, p2+" l11m9 k12l12 n7o7", engine.StatusProved, 2)
	store(t, bk, D1, vd1)
	wantProof(t, bk, "D1", D1, B, StatusProved, 0, Infinite)
	wantProof(t, bk, "C1", C1, B, StatusProved, 0, Infinite)
	wantProof(t, bk, "A (one reply left)", A, B, StatusOpen, 1, 1)
	wantProof(t, bk, "P2", P2, B, StatusOpen, 1, 1)

	// C2: D2 is open with one reply E3; E3's move F is proved (order 1).
	const d2 = p2 + " l11m9 i9i10 n9o9"
	D2 := add(t, bk, d2)
	_, vd2 := verdict(t, bk, d2, engine.StatusOpen, 0, "a1b1")
	store(t, bk, D2, vd2)
	E3, _ := locate(t, bk, d2+" a1b1")
	wantProof(t, bk, "A (through D2)", A, B, StatusOpen, 1, 1)
	F := add(t, bk, d2+" a1b1 n10o10")
	_, vf := verdict(t, bk, d2+" a1b1 n10o10", engine.StatusProved, 1)
	store(t, bk, F, vf)
	for _, c := range []struct {
		name string
		id   PosID
	}{{"F", F}, {"E3", E3}, {"D2", D2}, {"C2", C2}, {"A", A}, {"P2", P2}} {
		wantProof(t, bk, c.name+" proved", c.id, B, StatusProved, 0, Infinite)
	}
	if o := proofOf(t, bk, A, B).Order; o != 2 {
		t.Fatalf("A proved with order %d, want 2", o)
	}
	// The position before P2 has White to move and no verdict: not proved.
	j10, _ := locate(t, bk, "j10")
	if p := proofOf(t, bk, j10, B); p.Status == StatusProved {
		t.Fatal("an AND node without a verdict was proved")
	}
	if _, err := bk.Next(ctx, P2, B); err == nil {
		t.Fatal("next on a proved position: no error")
	}
	proved, err := bk.Proved(ctx, B, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	// With a least order, exactly the proofs of that order or more.
	for _, min := range []int{1, 2, 3} {
		got, err := bk.Proved(ctx, B, min, 100)
		if err != nil {
			t.Fatal(err)
		}
		var want []PosID
		for _, p := range proved {
			if p.Proof.Order >= min {
				want = append(want, p.ID)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("proved with order >= %d: %d positions, want %d", min, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i] || got[i].Proof.Order < min {
				t.Fatalf("proved with order >= %d: %+v, want ids %v", min, got, want)
			}
		}
	}
	if len(proved) != 9 { // P2 A C1 C2 D1 D2 E3 F + j10? no: P2 A C1 D1 C2 D2 E3 F
		t.Logf("proved: %+v", proved)
	}
	seen := map[PosID]bool{}
	for _, p := range proved {
		seen[p.ID] = true
	}
	for _, id := range []PosID{P2, A, C1, C2, D1, D2, E3, F} {
		if !seen[id] {
			t.Fatalf("position %d missing from the proved list", id)
		}
	}

	// The expert refutes E3: D2 falls (a stored defender reply is
	// disproved), C2 needs a new move, A and P2 are open again.
	if err := bk.SetDisproved(ctx, E3, B, true); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "E3 (expert)", E3, B, StatusDisproved, -1, -1)
	wantProof(t, bk, "D2 (refuted reply)", D2, B, StatusDisproved, -1, -1)
	wantProof(t, bk, "C2 (needs a new move)", C2, B, StatusUnknown, 1, 1)
	if p := proofOf(t, bk, A, B); p.Status == StatusProved {
		t.Fatal("A still proved after its reply lost its proof")
	}
	if p := proofOf(t, bk, P2, B); p.Status == StatusProved {
		t.Fatal("P2 still proved")
	}
	if err := bk.SetDisproved(ctx, E3, B, false); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "P2 proved again", P2, B, StatusProved, 0, Infinite)

	// Tampering is found by Check.
	if _, err := bk.w.ExecContext(ctx, "UPDATE status SET status = 2, pn = 0 WHERE pos = ? AND attacker = 1", int64(A2)); err != nil {
		t.Fatal(err)
	}
	rep, err := bk.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("check accepted a forged proof")
	}
}

func TestPropagationWinAndSeminull(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, engine.Connect6())
	B, W := engine.Black, engine.White
	const pre = "j10 a1b1 j11j12 a2b2 j13j14 a3b3"
	T := add(t, bk, pre+" j15j16")
	P := add(t, bk, pre)
	wantProof(t, bk, "terminal", T, B, StatusProved, 0, Infinite)
	wantProof(t, bk, "terminal for White", T, W, StatusDisproved, Infinite, 0)
	wantProof(t, bk, "winning move stored", P, B, StatusProved, 0, Infinite)
	wantProof(t, bk, "White defends nothing", P, W, StatusDisproved, Infinite, 0)

	// λ3: an open seminull item (one defender stone) must be proved too.
	const d = "j10 j11k10 l11m9"
	D := add(t, bk, d)
	id, v := verdict(t, bk, d, engine.StatusOpen, 0)
	_, sym := locate(t, bk, d)
	v.Lambda = 3
	v.OpenSeminull = []Unsolved{{Move: ToCanonical(bk.Rules(), sym, mv(t, bk.Rules(), "k12"))}}
	store(t, bk, id, v)
	b, _ := engine.ReplayText(bk.Rules(), d)
	if err := b.PlayPartial(mv(t, bk.Rules(), "k12")); err != nil {
		t.Fatal(err)
	}
	S, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatalf("seminull child not stored: %v", err)
	}
	wantProof(t, bk, "D (seminull open)", D, B, StatusOpen, 1, 1)
	// The expert's attacker move in the seminull position, proved.
	next, err := bk.PlayFrom(ctx, b, mv(t, bk.Rules(), "n7o7"))
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.StoreVerdict(ctx, next, Verdict{Attacker: B, Status: engine.StatusProved, Order: 2, Lambda: 2}); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "seminull position", S, B, StatusProved, 0, Infinite)
	wantProof(t, bk, "D (λ3)", D, B, StatusProved, 0, Infinite)
	if o := proofOf(t, bk, D, B).Order; o != 3 {
		t.Fatalf("λ3 assembled proof has order %d, want 3", o)
	}
	// A verdict for the wrong side is refused.
	if err := bk.StoreVerdict(ctx, D, Verdict{Attacker: W, Status: engine.StatusProved}); err == nil {
		t.Fatal("verdict with the attacker to move accepted")
	}
}

func TestNamedProofs(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, engine.Connect6())
	P := add(t, bk, "j10 j11k10")
	A := add(t, bk, "j10 j11k10 l11m9")
	id, err := bk.AddProof(ctx, "Black after j11k10", P, engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bk.AddProof(ctx, "again", P, engine.Black); err == nil {
		t.Fatal("two proofs for one position and attacker")
	}
	if _, err := bk.AddProof(ctx, "White too", P, engine.White); err != nil {
		t.Fatal(err)
	}
	if err := bk.StoreVerdict(ctx, A, Verdict{Attacker: engine.Black, Status: engine.StatusProved, Order: 2}); err != nil {
		t.Fatal(err)
	}
	ps, err := bk.Proofs(ctx)
	if err != nil || len(ps) != 2 {
		t.Fatalf("proofs %v %v", ps, err)
	}
	if ps[0].ID != id || ps[0].Proof.Status != StatusProved || ps[1].Proof.Status == StatusProved {
		t.Fatalf("proof statuses: %+v", ps)
	}
	if err := bk.DeleteProof(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := bk.DeleteProof(ctx, id); err == nil {
		t.Fatal("deleted twice")
	}
}
