package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"c6book/engine/game"
	"c6book/proofbook"
)

// c6 book show names a position's twins (the position less one defender
// stone) with their statuses and a line to them; a position proved by its
// twin says so, and --proof sends the reader to the twin.
func TestBookShowTwins(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "t.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	// N: White's seminull a3, Black to move one White stone short.
	runBook(t, false, "prove", "--book", book, "--turns", "e5 a1a2 e4d4 a3", "--partial", "--attacker", "B", "--max-calls", "10")
	ctx := context.Background()
	bk, err := proofbook.Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	turns, err := game.ParseTurns(bk.Rules(), "e5 a1a2 e4d4 a3i9")
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddProofLine(ctx, turns)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := bk.LinkTwins(ctx, l.IDs[len(l.IDs)-1:]); err != nil || n != 1 {
		t.Fatalf("LinkTwins: %d %v", n, err)
	}
	bk.Close()
	out, _ := runBook(t, false, "show", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9")
	for _, want := range []string{"Black attacker: proved (order", ", twin)", "twin without i9: position", `--partial --turns "`} {
		if !strings.Contains(out, want) {
			t.Fatalf("show: no %q in\n%s", want, out)
		}
	}
	_, errs := runBook(t, true, "show", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9", "--attacker", "B", "--proof")
	if !strings.Contains(errs, "proved by its twin") {
		t.Fatalf("--proof: %s", errs)
	}
	runBook(t, false, "check", "--book", book)
}
