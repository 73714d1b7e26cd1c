package session

import (
	"strings"
	"testing"

	"c6book/engine/game"
)

// A line in a summary is named from the root: whole when short, its first
// and last turns with "…" between when long; never cut at the start.
func TestLineEndFromTheRoot(t *testing.T) {
	r := game.Connect6()
	name := func(m game.Move) string { return game.MoveName(r, m) }
	short, err := game.ParseTurns(r, "j10 i9k9 i7j9 f2g7")
	if err != nil {
		t.Fatal(err)
	}
	if got := lineEnd(name, short); got != "1. j10 2. i9k9 3. i7j9 4. f2g7" {
		t.Fatalf("short line: %q", got)
	}
	long, err := game.ParseTurns(r, "j10 i9k9 i7j9 f2g7 a1a2 b1b2 c1c2 d1d2 e1e2 f1f2 g1g2 h1h2")
	if err != nil {
		t.Fatal(err)
	}
	got := lineEnd(name, long)
	if !strings.HasPrefix(got, "1. j10 2. i9k9 3. i7j9 … ") || !strings.HasSuffix(got, "12. h1h2") || strings.Count(got, "…") != 1 {
		t.Fatalf("long line: %q", got)
	}
}
