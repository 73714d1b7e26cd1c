package proofbook

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// Book.Verify stores the verdict and says what it added: the replies are
// exactly the moves out of the position that were not stored before, the
// positions the new ones, the statuses the book's before and after; a
// second run adds nothing. A verdict the store refuses is a *StoreError.
func TestVerifyReportsWhatItAdded(t *testing.T) {
	ctx := t.Context()
	bk, id, opts, _ := verdictFixture(t)
	moves := func() []int64 {
		kids, err := bk.Children(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, k := range kids {
			out = append(out, packMove(k.Move))
		}
		slices.Sort(out)
		return out
	}
	count := func() int {
		var n int
		if err := bk.r.QueryRowContext(ctx, "SELECT count(*) FROM position").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before, n0 := moves(), count()
	p0, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bk.Verify(ctx, id, verify.LocalVerifier{}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := moves()
	var want []int64
	for _, m := range after {
		if _, had := slices.BinarySearch(before, m); !had {
			want = append(want, m)
		}
	}
	var got []int64
	for _, m := range res.Replies {
		got = append(got, packMove(m))
	}
	if !slices.Equal(got, want) || len(got) == 0 {
		t.Errorf("replies added %v, the book's new moves %v", got, want)
	}
	if n := count() - n0; res.Positions != n {
		t.Errorf("%d positions added, the book has %d more", res.Positions, n)
	}
	p1, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Verdict.Attacker
	if res.Before != p0.Proof(a).Status || res.After != p1.Proof(a).Status {
		t.Errorf("status %s -> %s, the book's %s -> %s", res.Before, res.After, p0.Proof(a).Status, p1.Proof(a).Status)
	}
	if p1.Verdict == nil || p1.Verdict.Calls != res.Verdict.Calls || p1.Verdict.Status != res.Verdict.Status {
		t.Errorf("stored verdict %+v, Verify's %+v", p1.Verdict, res.Verdict)
	}
	again, err := bk.Verify(ctx, id, verify.LocalVerifier{}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Replies) != 0 || again.Positions != 0 || again.Before != res.After {
		t.Errorf("a second Verify: %+v, want nothing added", again.Stored)
	}

	// A verifier whose certificate does not check: refused by the store.
	_, err = bk.Verify(ctx, id, forgingVerifier{}, opts, nil)
	var se *StoreError
	if !errors.As(err, &se) || se.ID != id {
		t.Errorf("a forged verdict: %v, want a *StoreError", err)
	}
}

// forgingVerifier verifies and then drops the last unsolved move from the
// verdict: its certificate no longer covers every defender move.
type forgingVerifier struct{}

func (forgingVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v, err := verify.Verify(ctx, b, opts, progress)
	if err == nil && len(v.Unsolved) > 0 {
		v.Unsolved = v.Unsolved[:len(v.Unsolved)-1]
	}
	return v, err
}

// verdictFixture is a new book with the line e5 a1a2 e4d4 (9×9 connect-5)
// whose end, id (the defender to move), gets a certified open verdict
// with two or more items under opts (the verifier's own node budget: no
// clock decides), and the first item, kept, stored beforehand by hand (as
// a game would), so that the verdict's items include one stored already.
func verdictFixture(t *testing.T) (bk *Book, id PosID, opts verify.VerifyOptions, kept game.Move) {
	t.Helper()
	ctx := t.Context()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk, err := Create(ctx, filepath.Join(t.TempDir(), "v.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	b, err := board.ReplayText(r, "e5 a1a2 e4d4")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bk.AddLine(ctx, b.History())
	if err != nil {
		t.Fatal(err)
	}
	id = line.IDs[len(line.IDs)-1]
	opts = verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 40}}
	probe, err := c6book.VerifyBoard(ctx, mustBoard(t, bk, id), nil, 0, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	items := probe.Items()
	if len(items) < 2 || probe.Cert == nil {
		t.Fatalf("the verdict leaves %d items (certificate %v): the test needs two or more, certified (budget too large?)", len(items), probe.Cert != nil)
	}
	if _, err := bk.PlayFrom(ctx, mustBoard(t, bk, id), items[0]); err != nil {
		t.Fatal(err)
	}
	return bk, id, opts, items[0]
}

func mustBoard(t *testing.T, bk *Book, id PosID) *board.Board {
	t.Helper()
	b, err := bk.Board(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
