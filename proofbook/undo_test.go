package proofbook

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/verify"
)

// undoState is what undoing a verify must give back: every position with
// its moves, proofs and verdict (the verdict's JSON as stored).
func undoState(t *testing.T, bk *Book) map[PosID]string {
	t.Helper()
	ctx := t.Context()
	rows, err := bk.r.QueryContext(ctx, "SELECT id FROM position ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var ids []PosID
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, PosID(id))
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	out := map[PosID]string{}
	for _, id := range ids {
		kids, err := bk.Children(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		for _, k := range kids {
			moves = append(moves, game.MoveName(bk.rules, k.Move))
		}
		slices.Sort(moves)
		s := fmt.Sprint(moves)
		for a := game.Black; a <= game.White; a++ {
			p, _, err := readProof(ctx, bk.r, bk.rules, id, a)
			if err != nil {
				t.Fatal(err)
			}
			s += fmt.Sprintf(" %s:%s/%d/%s/%d/%d", a, p.Status, p.Order, p.How, p.PN, p.DN)
		}
		var data string
		if err := bk.r.QueryRowContext(ctx, "SELECT COALESCE((SELECT data FROM verdict WHERE pos = ?), '')", int64(id)).Scan(&data); err != nil {
			t.Fatal(err)
		}
		out[id] = s + " verdict " + data
	}
	return out
}

func sameState(t *testing.T, what string, got, want map[PosID]string) {
	t.Helper()
	for id, w := range want {
		if g, ok := got[id]; !ok {
			t.Errorf("%s: position %d is gone (was %s)", what, id, w)
		} else if g != w {
			t.Errorf("%s: position %d is\n  %s\nwant\n  %s", what, id, g, w)
		}
	}
	for id, g := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("%s: position %d is new: %s", what, id, g)
		}
	}
}

// UndoVerdict gives the book back as it was before StoreVerdict: the
// replies it added are gone (a reply stored before stays), the verdict it
// replaced is back (none: no verdict), the statuses are as before, and
// the proof rows still check. A reply of a stored certified verdict cannot
// be removed by hand (c6book.ErrVerdictItem), and a verdict replaced since cannot
// be undone (c6book.ErrVerdictChanged); neither changes anything.
func TestUndoVerdict(t *testing.T) {
	ctx := t.Context()
	bk, id, small, kept := verdictFixture(t)
	s0 := undoState(t, bk)

	first, err := bk.Verify(ctx, id, verify.LocalVerifier{}, small, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Replies) == 0 || first.After != c6book.StatusOpen {
		t.Fatalf("the first verify: %d replies, %s; want new replies, open", len(first.Replies), first.After)
	}
	if slices.Contains(first.Replies, kept) {
		t.Fatalf("the reply stored before is listed as new: %v", first.Replies)
	}
	s1 := undoState(t, bk)

	// By hand, a reply the verdict leaves to prove cannot be removed.
	err = bk.RemoveMove(ctx, id, first.Replies[0])
	if !errors.Is(err, c6book.ErrVerdictItem) {
		t.Errorf("RemoveMove of a verdict's reply: %v, want c6book.ErrVerdictItem", err)
	}
	sameState(t, "after the refused RemoveMove", undoState(t, bk), s1)

	// A second verify with another budget replaces the verdict.
	large := small
	large.Limits.MaxNodes = 400
	second, err := bk.Verify(ctx, id, verify.LocalVerifier{}, large, nil)
	if err != nil {
		t.Fatal(err)
	}
	s2 := undoState(t, bk)
	if s2[id] == s1[id] {
		t.Fatalf("the second verify stored the same verdict (%s): the test needs another", s2[id])
	}
	if err := bk.UndoVerdict(ctx, id, first.Stored); !errors.Is(err, c6book.ErrVerdictChanged) {
		t.Errorf("undo of a verdict replaced since: %v, want c6book.ErrVerdictChanged", err)
	}
	sameState(t, "after the refused undo", undoState(t, bk), s2)

	// Undo the second: the first verdict is back, with its replies.
	if err := bk.UndoVerdict(ctx, id, second.Stored); err != nil {
		t.Fatal(err)
	}
	sameState(t, "after undoing the second verify", undoState(t, bk), s1)
	// Undo the first: no verdict, only the reply stored before.
	if err := bk.UndoVerdict(ctx, id, first.Stored); err != nil {
		t.Fatal(err)
	}
	sameState(t, "after undoing both verifies", undoState(t, bk), s0)
	p, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Verdict != nil {
		t.Errorf("a verdict is left: %+v", p.Verdict)
	}
	if ok, err := bk.ProofsChecked(ctx); err != nil || !ok {
		t.Errorf("the proof digest after the undos: %v, %v; want the rows the program wrote", ok, err)
	}
	rep, err := bk.Check(ctx)
	if err != nil || !rep.OK() {
		t.Errorf("Check after the undos: %v, %v", rep.Problems, err)
	}
	// Now the kept reply is an ordinary move: it can be removed.
	if err := bk.RemoveMove(ctx, id, kept); err != nil {
		t.Errorf("RemoveMove of a move no verdict needs: %v", err)
	}
}

// A removed move's child that is a game's last position stays (the games
// are looked up once for all the moves removed).
func TestRemoveMoveKeepsGameLeaf(t *testing.T) {
	ctx := t.Context()
	bk, id, _, kept := verdictFixture(t)
	child, err := bk.Play(ctx, id, kept)
	if err != nil {
		t.Fatal(err)
	}
	// A game ending there, without its positions (as a game stored before
	// schema version 6 whose line could not be rebuilt).
	if _, err := bk.w.ExecContext(ctx, "INSERT INTO game(source, ext_id, leaf, nturns) VALUES ('test', '1', ?, 0)", int64(child)); err != nil {
		t.Fatal(err)
	}
	if err := bk.RemoveMove(ctx, id, kept); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := bk.r.QueryRowContext(ctx, "SELECT count(*) FROM position WHERE id = ?", int64(child)).Scan(&n); err != nil || n != 1 {
		t.Errorf("the game's last position: %d rows, %v; want kept", n, err)
	}
}
