package c6book

import "testing"

// Black's rate is over the decided games only, and Decided says how many.
func TestGameStatsDecided(t *testing.T) {
	g := GameStats{Games: 1551, BlackWins: 176, WhiteWins: 148, Unfinished: 1227}
	if d := g.Decided(); d != 324 {
		t.Fatalf("decided %d, want 324", d)
	}
	if r, ok := g.BlackRate(); !ok || r != 176.0/324 {
		t.Fatalf("rate %v %v, want 176/324", r, ok)
	}
	if _, ok := (GameStats{Games: 3, Unfinished: 3}).BlackRate(); ok {
		t.Fatal("a rate with no decided game")
	}
}
