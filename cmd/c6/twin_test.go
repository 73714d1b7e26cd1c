package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// c6 book show names a position's twins (the position less one defender
// stone) with their statuses and a line to them; a position added by hand
// is linked to its twins, a position proved by its twin says so, and
// --proof sends the reader to the twin.
func TestBookShowTwins(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "t.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	// N: White's seminull a3, Black to move one White stone short.
	runBook(t, false, "prove", "--book", book, "--turns", "e5 a1a2 e4d4 a3", "--partial", "--attacker", "B", "--max-calls", "10")
	// N+i9, added by hand: linked to its twin N as it is stored.
	runBook(t, false, "annotate", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9", "--label", "by hand")
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
