package proofcheck

import (
	"math/rand/v2"
	"slices"
	"testing"

	"c6book/engine/game"
)

// TestOpenSetsMatchCounts places and removes random stones (fixed seed) on
// several rule sets and checks, after every change, the open sets against
// the window counts, threatWindows and addDefWin against a scan of every
// window, and makesRow against placing the move. It fails if place or
// remove leaves a set wrong or makesRow misses a row.
func TestOpenSetsMatchCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 33))
	for _, r := range []game.Rules{{M: 19, N: 19, K: 6, P: 2, Q: 1}, {M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 7, N: 6, K: 4, P: 1, Q: 1}, {M: 8, N: 8, K: 3, P: 2, Q: 1}} {
		b := newBoard(r)
		var placed []game.Square
		for step := 0; step < 3000; step++ {
			if len(placed) > 0 && (rng.IntN(3) == 0 || b.empties == 0) {
				i := rng.IntN(len(placed))
				b.remove(placed[i])
				placed = slices.Delete(placed, i, i+1)
			} else {
				s := game.Square(rng.IntN(len(b.cells)))
				if b.cells[s] != 0 {
					continue
				}
				b.place(s, int8(1+rng.IntN(2)))
				placed = append(placed, s)
			}
			if step%7 != 0 {
				continue
			}
			// makesRow agrees with placing the move and looking.
			for c := int8(1); c <= 2 && !b.hasRow(1) && !b.hasRow(2); c++ {
				for try := 0; try < 20; try++ {
					var sq []game.Square
					for len(sq) < 1+rng.IntN(2) {
						s := game.Square(rng.IntN(len(b.cells)))
						if b.cells[s] == 0 && !slices.Contains(sq, s) {
							sq = append(sq, s)
						}
					}
					m := game.NewMove(sq...)
					for _, s := range sq {
						b.place(s, c)
					}
					want := b.hasRow(c)
					for i := len(sq) - 1; i >= 0; i-- {
						b.remove(sq[i])
					}
					if got := b.makesRow(m, c); got != want {
						t.Fatalf("%v step %d: makesRow(%v, %d) = %v, placing it says %v", r, step, m, c, got, want)
					}
				}
			}
			for c := int8(1); c <= 2; c++ {
				for m := 0; m <= b.k; m++ {
					for w := 0; w < b.g.nwin; w++ {
						want := b.cnt[3-c][w] == 0 && int(b.cnt[c][w]) >= m
						if b.open[c][m].has(game.Square(w)) != want {
							t.Fatalf("%v step %d: window %d in open[%d][%d] is %v, counts say %v", r, step, w, c, m, !want, want)
						}
					}
				}
				var wins []zone
				for w := 0; w < b.g.nwin; w++ {
					if b.isThreat(c, int32(w)) {
						z := newZone(len(b.cells))
						b.addWindowEmpties(z, w)
						wins = append(wins, z)
					}
				}
				if b.hasThreat(c) != (len(wins) > 0) {
					t.Fatalf("%v step %d: hasThreat(%d) = %v with %d threat windows", r, step, c, b.hasThreat(c), len(wins))
				}
				got := b.threatWindows(c)
				if len(got) != len(wins) {
					t.Fatalf("%v step %d: %d threat windows of %d, want %d", r, step, len(got), c, len(wins))
				}
				for i := range wins {
					if !slices.Equal(got[i], wins[i]) {
						t.Fatalf("%v step %d: threat window %d of %d differs", r, step, i, c)
					}
				}
				for e := 0; e <= b.k+1; e++ {
					want := newZone(len(b.cells))
					for w := 0; w < b.g.nwin; w++ {
						if b.cnt[3-c][w] == 0 && int(b.cnt[c][w]) >= b.k-e {
							b.addWindowEmpties(want, w)
						}
					}
					got := newZone(len(b.cells))
					b.addDefWin(got, c, e)
					if !slices.Equal(got, want) {
						t.Fatalf("%v step %d: addDefWin(%d, %d) differs from the scan", r, step, c, e)
					}
				}
			}
		}
	}
}

// isThreat reports whether window w is a threat window of colour c: no
// stone of c's opponent and at most p empties (the definition the open
// sets are tested against).
func (b *board) isThreat(c int8, w int32) bool {
	return b.cnt[3-c][w] == 0 && int(b.cnt[c][w]) >= b.k-b.p
}
