package session

import (
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
)

func TestScoreText(t *testing.T) {
	for sc, want := range map[float64]string{0.4: "+0.40", -1.25: "-1.25", player.WinScore - 3: "wins in 3 turns", -player.WinScore + 2: "loses in 2 turns", -player.WinScore + 1: "loses in 1 turn"} {
		if got := scoreText(sc); got != want {
			t.Errorf("scoreText(%v) = %q, want %q", sc, got, want)
		}
	}
}

// NoMove says exactly why there is no move: a win, or a full board.
func TestNoMove(t *testing.T) {
	r := game.Rules{M: 3, N: 3, K: 3, P: 1, Q: 1}
	for line, want := range map[string]string{
		"a3 b3 c3 b2":                "",
		"a1 a2 b1 b2 c1":             "the game is over: Black has won",
		"a3 b3 c3 b2 a2 c2 b1 a1 c1": "the board is full: there is no legal move",
		"a3 b3 c3 b2 a2 c2 b1 a1":    "",
	} {
		b, err := board.ReplayText(r, line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := NoMove(b); got != want {
			t.Errorf("NoMove after %s = %q, want %q", line, got, want)
		}
	}
}
