package board

import (
	"testing"

	"c6book/engine/game"
)

func TestDefenderDeficit(t *testing.T) {
	c6 := game.Connect6()
	c623 := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	cases := []struct {
		r           game.Rules
		line        string
		partial     bool
		attacker    game.Color
		want        int
		ok          bool
		description string
	}{
		{c6, "", false, game.Black, 0, true, "empty board, Black"},
		{c6, "", false, game.White, 0, true, "empty board, White"},
		{c6, "j10", false, game.Black, 0, true, "after Black's first stone"},
		{c6, "j10", false, game.White, 0, true, "White to move, attacker White"},
		{c6, "j10 j11k10", false, game.Black, 0, true, "full turns"},
		{c6, "j10 j11k10 l11m9", false, game.Black, 0, true, "Black just moved"},
		{c6, "j10 j11k10 l11m9 k12", true, game.Black, 1, true, "seminull"},
		{c6, "j10 j11k10 l11m9 -", true, game.Black, 2, true, "null"},
		{c6, "j10 j11 l11m9", true, game.White, 0, false, "White's own short turn"},
		{c6, "j10 j11k10 l11m9 k12 n7o7", true, game.Black, 1, true, "below a seminull"},
		{c6, "j10 j11k10 l11m9 k12 n7o7 a1", true, game.Black, 2, true, "two seminulls"},
		{c623, "i9k9j10", false, game.Black, 0, true, "three-stone first turn"},
		{c623, "i9k9j10 -", true, game.Black, 2, true, "null after the first turn"},
		{c623, "i9k9j10 a1b1", false, game.White, 0, true, "White attacker, full turns"},
		{c623, "i9k9j10 a1b1 c1", true, game.White, 1, true, "White attacker, Black seminull"},
	}
	for _, c := range cases {
		b, err := replay(c.r, mustTurns(t, c.r, c.line), c.partial)
		if err != nil {
			t.Fatalf("%s: %v", c.description, err)
		}
		got, ok := b.DefenderDeficit(c.attacker)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s (%q, attacker %s): deficit %d ok %v, want %d ok %v", c.description, c.line, c.attacker, got, ok, c.want, c.ok)
		}
	}
}

func mustTurns(t *testing.T, r game.Rules, s string) []game.Move {
	t.Helper()
	if s == "" {
		return nil
	}
	m, err := game.ParseTurns(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
