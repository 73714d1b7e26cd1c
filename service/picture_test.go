package service

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/session"
)

// The board export's data from the book: the stones only without the
// overlay; with it the verdict's items and zone, the replies and the
// marks, in the orientation of the board asked for (a mirror image of the
// stored line gets the mirrored squares).
func TestStorePicture(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk, err := Create(ctx, filepath.Join(t.TempDir(), "b.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	s := bk.Store(StoreOptions{})
	// Black (to move before e10f10) has a live four on row 10: White must
	// block, and a tiny budget leaves the blocks unsolved.
	line, err := game.ParseTurns(r, "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19 e10f10")
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.AddLine(ctx, append(slices.Clone(line), game.NewMove(r.Sq(6, 9), r.Sq(11, 9)))); err != nil {
		t.Fatal(err)
	}
	b, err := board.Replay(r, line)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMarks(ctx, b, map[game.Square]string{r.Sq(0, 0): "A"}); err != nil {
		t.Fatal(err)
	}
	// An open verdict (a small budget leaves defender moves unsolved).
	opts := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 1}}
	if _, err := bk.VerifyAndStore(ctx, verify.LocalVerifier{}, b, opts, nil); err != nil {
		t.Fatal(err)
	}
	for _, sym := range []int{0, 4} {
		var seen []game.Move
		for _, m := range line {
			seen = append(seen, r.TransformMove(sym, m))
		}
		bs, err := board.Replay(r, seen)
		if err != nil {
			t.Fatal(err)
		}
		bare, err := s.Picture(ctx, bs, game.Black, false)
		if err != nil || bare.Overlay || bare.Pos.Key() != bs.Key() || bare.Children != nil || bare.Marks != nil || bare.Unsolved != nil || bare.Zone != nil {
			t.Fatalf("symmetry %d: picture without overlay %+v %v", sym, bare, err)
		}
		pic, err := s.Picture(ctx, bs, game.Black, true)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := s.Position(ctx, bs, game.Black)
		kids, _ := s.Children(ctx, bs, game.Black)
		if info.Verdict == nil || len(info.Verdict.Items()) == 0 {
			t.Fatalf("symmetry %d: no open verdict with items: %+v", sym, info.Verdict)
		}
		sameKids := slices.EqualFunc(pic.Children, kids, func(a, b session.Child) bool { return a.Move == b.Move && a.Status == b.Status })
		if !pic.Overlay || len(kids) != 4 || !sameKids || pic.Marks[r.Transform(sym, r.Sq(0, 0))] != "A" ||
			!slices.EqualFunc(pic.Unsolved, info.Verdict.Items(), func(a, b game.Move) bool { return a == b }) {
			t.Fatalf("symmetry %d: picture %+v, want the replies %v, the mark at %s and the items %v", sym, pic, kids, game.SquareName(r, r.Transform(sym, r.Sq(0, 0))), info.Verdict.Items())
		}
		// The stored reply (and the three blocks the verdict added) in the
		// board's orientation.
		if !slices.ContainsFunc(pic.Children, func(c session.Child) bool {
			return c.Move == r.TransformMove(sym, game.NewMove(r.Sq(6, 9), r.Sq(11, 9)))
		}) {
			t.Fatalf("symmetry %d: replies %v lack the stored one in the board's orientation", sym, pic.Children)
		}
	}
}
