package proofbook

import (
	"context"
	"errors"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

func locate(t *testing.T, bk *Book, s string) (PosID, int) {
	t.Helper()
	b, err := board.ReplayText(bk.Rules(), s)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatalf("locate %q: %v", s, err)
	}
	return id, sym
}

func TestTranspositionsShareANode(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	// Black's stones j10, l11m9 and White's j11k10, k12l12 in two orders.
	a, err := bk.AddLine(ctx, turns(t, r, "j10 j11k10 l11m9 k12l12"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bk.AddLine(ctx, turns(t, r, "j10 k12l12 l11m9 j11k10"))
	if err != nil {
		t.Fatal(err)
	}
	if a.IDs[4] != b.IDs[4] {
		t.Fatalf("transposed lines end in %d and %d", a.IDs[4], b.IDs[4])
	}
	if a.IDs[2] == b.IDs[2] {
		t.Fatal("different positions after turn 2 share a node")
	}
	st, err := bk.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// root, j10, two white replies, two third positions? No: after l11m9
	// the two lines differ (White's stones differ), so 1+1+2+2+1.
	if st.Positions != 7 || st.Edges != 7 {
		t.Fatalf("positions %d edges %d, want 7 and 7", st.Positions, st.Edges)
	}
	paths, err := bk.PathsFromRoot(ctx, a.IDs[4], 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("%d paths to the transposed position, want 2", len(paths))
	}
	for _, p := range paths {
		bd, err := board.Replay(r, p.Turns)
		if err != nil {
			t.Fatalf("path %s: %v", game.FormatTurns(r, p.Turns), err)
		}
		id, _, err := bk.Locate(ctx, bd)
		if err != nil || id != a.IDs[4] {
			t.Fatalf("path %s leads to %d (%v), want %d", game.FormatTurns(r, p.Turns), id, err, a.IDs[4])
		}
	}
	mustCheck(t, bk)
}

func TestSymmetricLinesShareNodes(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	line := turns(t, r, "j10 j11k10 l11m9 k12l12 h8h9")
	first, err := bk.AddLine(ctx, line)
	if err != nil {
		t.Fatal(err)
	}
	for sym := 1; sym < r.SymmetryCount(); sym++ {
		img := make([]game.Move, len(line))
		for i, m := range line {
			img[i] = r.TransformMove(sym, m)
		}
		l, err := bk.AddLine(ctx, img)
		if err != nil {
			t.Fatalf("symmetry %d: %v", sym, err)
		}
		for i := range l.IDs {
			if l.IDs[i] != first.IDs[i] {
				t.Fatalf("symmetry %d: turn %d reaches %d, the original %d", sym, i, l.IDs[i], first.IDs[i])
			}
		}
	}
	st, err := bk.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != 6 || st.Edges != 5 {
		t.Fatalf("8 images of one line: %d positions, %d moves; want 6 and 5", st.Positions, st.Edges)
	}
	// After j10 (symmetric), White's mirrored replies are one stored move.
	root, _ := bk.Root(ctx)
	kids, err := bk.Children(ctx, root)
	if err != nil || len(kids) != 1 {
		t.Fatalf("root children %v %v", kids, err)
	}
	j10 := kids[0].ID
	for _, mv := range []string{"j11k10", "k9j10", "h10i9"} {
		_ = mv
	}
	m1, _ := game.ParseMove(r, "k10k11")
	m2, _ := game.ParseMove(r, "i10i11") // mirror left-right of k10k11
	c1, err := bk.Play(ctx, j10, m1)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := bk.Play(ctx, j10, m2)
	if err != nil {
		t.Fatal(err)
	}
	if c1 != c2 {
		t.Fatalf("mirrored replies to j10 reach %d and %d", c1, c2)
	}
	kids, err = bk.Children(ctx, j10)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range kids {
		if k.ID == c1 {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("mirrored replies stored as %d moves, want 1", n)
	}
	// The children come back in the frame of any board asking for them.
	mirror, err := board.ReplayText(r, game.FormatTurns(r, []game.Move{r.TransformMove(3, line[0])}))
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(ctx, mirror)
	if err != nil || id != j10 {
		t.Fatalf("locate mirrored j10: %d %v", id, err)
	}
	for _, k := range kids {
		m := FromCanonical(r, sym, k.Move)
		nb := mirror.Clone()
		if err := nb.Play(m); err != nil {
			t.Fatalf("child move %s in the caller's frame: %v", game.MoveName(r, m), err)
		}
		cid, _, err := bk.Locate(ctx, nb)
		if err != nil || cid != k.ID {
			t.Fatalf("child %s leads to %d (%v), stored %d", game.MoveName(r, m), cid, err, k.ID)
		}
	}
	mustCheck(t, bk)
}

func TestPlayErrorsLeaveNoTrace(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	line, err := bk.AddLine(ctx, turns(t, r, "j10 j11k10"))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := bk.Stats(ctx)
	occupied, _ := game.ParseMove(r, "j10a1")
	if _, err := bk.Play(ctx, line.IDs[2], occupied); !errors.Is(err, board.ErrOccupied) {
		t.Fatalf("play on an occupied square: %v", err)
	}
	three := game.NewMove(r.Sq(0, 0), r.Sq(1, 0), r.Sq(2, 0))
	if _, err := bk.Play(ctx, line.IDs[2], three); !errors.Is(err, board.ErrStoneCount) {
		t.Fatalf("three stones: %v", err)
	}
	if _, err := bk.AddLine(ctx, turns(t, r, "j10 j11k10 a1b1 a1c1")); err == nil {
		t.Fatal("illegal line stored")
	}
	if _, err := bk.Play(ctx, 9999, occupied); !errors.Is(err, ErrNotFound) {
		t.Fatalf("play from a missing position: %v", err)
	}
	after, _ := bk.Stats(ctx)
	if before.Positions != after.Positions || before.Edges != after.Edges {
		t.Fatalf("failed plays changed the book: %+v -> %+v", before, after)
	}
	// Null move and its reverse: the second would close a cycle.
	null, err := bk.Play(ctx, line.IDs[2], game.Move{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Play(ctx, null, game.Move{}); err == nil {
		t.Fatal("null move back stored: a cycle")
	}
	// RemoveMove undoes Play and drops the orphaned position.
	m, _ := game.ParseMove(r, "a1b1")
	c, err := bk.Play(ctx, line.IDs[2], m)
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.RemoveMove(ctx, line.IDs[2], m); err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Position(ctx, c); !errors.Is(err, ErrNotFound) {
		t.Fatalf("orphan after RemoveMove: %v", err)
	}
	if err := bk.RemoveMove(ctx, line.IDs[2], m); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second RemoveMove: %v", err)
	}
	mustCheck(t, bk)
}

// A position whose key is already taken by other stones (a forged
// collision) is refused with ErrCollision and nothing is written.
func TestKeyCollisionDetected(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	b, _ := board.ReplayText(r, "j10 j11k10")
	key, _ := b.CanonicalKey()
	if _, err := bk.w.ExecContext(ctx, "INSERT INTO position(key, stones, to_move, nstones, winner, created_at) VALUES (?, X'0000', 1, 1, 0, 0)", int64(key)); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	if _, err := bk.AddLine(ctx, turns(t, r, "j10 j11k10 l11m9")); !errors.Is(err, ErrCollision) {
		t.Fatalf("collision: %v", err)
	}
	if bookState(t, bk) != before {
		t.Fatal("a refused line was partly written")
	}
	if _, _, err := bk.Locate(ctx, b); !errors.Is(err, ErrNotFound) {
		t.Fatalf("locate of the shadowed position: %v", err)
	}
}
