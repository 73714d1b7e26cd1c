package proofbook

import (
	"context"
	"path/filepath"
	"testing"

	"c6book/engine/game"
)

func newBook(t testing.TB, r game.Rules) *Book {
	t.Helper()
	bk, err := Create(context.Background(), filepath.Join(t.TempDir(), "test.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

func turns(t testing.TB, r game.Rules, s string) []game.Move {
	t.Helper()
	ms, err := game.ParseTurns(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func mustCheck(t testing.TB, bk *Book) CheckReport {
	t.Helper()
	rep, err := bk.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("check: %v", rep.Problems)
	}
	return rep
}

func TestCreateReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "b.c6book")
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	line, err := bk.AddLine(ctx, turns(t, bk.Rules(), "j10 j11k10 l11m9"))
	if err != nil {
		t.Fatal(err)
	}
	if len(line.IDs) != 4 {
		t.Fatalf("line ids %v", line.IDs)
	}
	if err := bk.SetComment(ctx, line.IDs[2], "a classic start"); err != nil {
		t.Fatal(err)
	}
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, path, game.Connect6()); err == nil {
		t.Fatal("Create over an existing book succeeded")
	}
	bk, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	p, err := bk.Position(ctx, line.IDs[2])
	if err != nil {
		t.Fatal(err)
	}
	if p.Comment != "a classic start" || len(p.Black) != 1 || len(p.White) != 2 || p.ToMove != game.Black {
		t.Fatalf("position after reopen: %+v", p)
	}
	hits, err := bk.Search(ctx, "class", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != line.IDs[2] {
		t.Fatalf("search: %+v", hits)
	}
	mustCheck(t, bk)
}
