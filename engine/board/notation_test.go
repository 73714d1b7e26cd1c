package board

import (
	"strings"
	"testing"

	"c6book/engine/game"
)

func TestTurnsRoundTrip(t *testing.T) {
	r := game.Connect6()
	text := "j10 j11k10 l9k11 i9l11 j9i12 m9m10 - a1"
	turns, err := game.ParseTurns(r, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 8 || turns[6].Len() != 0 {
		t.Fatalf("ParseTurns: %d turns", len(turns))
	}
	again, err := game.ParseTurns(r, game.FormatTurns(r, turns))
	if err != nil {
		t.Fatal(err)
	}
	for i := range turns {
		if again[i] != turns[i] {
			t.Fatalf("turn %d: %s vs %s", i+1, game.MoveName(r, again[i]), game.MoveName(r, turns[i]))
		}
	}
	// Separators: spaces, tabs, newlines, commas.
	sep, err := game.ParseTurns(r, "j10,\tJ11K10\n l9k11\r\n")
	if err != nil || len(sep) != 3 || sep[1] != turns[1] {
		t.Fatalf("separators: %v %v", sep, err)
	}
	if _, err := game.ParseTurns(r, "j10 j11k10 zz"); err == nil || !strings.Contains(err.Error(), "turn 3") {
		t.Fatalf("bad third turn: %v", err)
	}
	if ts, err := game.ParseTurns(r, "  "); err != nil || len(ts) != 0 {
		t.Fatalf("blank text: %v %v", ts, err)
	}
	b, err := ReplayText(r, "j10 j11k10 l9k11")
	if err != nil || b.Turn() != 3 || b.ToMove() != game.White || b.Stones(game.Black) != 3 || b.Stones(game.White) != 2 {
		t.Fatalf("ReplayText: %v", err)
	}
}

func TestDiagram(t *testing.T) {
	r := game.Rules{M: 5, N: 4, K: 3, P: 1, Q: 1}
	b, err := ReplayText(r, "a1 e4 c2")
	if err != nil {
		t.Fatal(err)
	}
	want := "to move W\n....W\n.....\n..B..\nB....\n"
	if got := b.Diagram(); got != want {
		t.Fatalf("Diagram:\n%s\nwant:\n%s", got, want)
	}
}
