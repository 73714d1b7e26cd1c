package board

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
)

// threatsWith agrees with placing the stones and counting also when the
// player already has threat windows (the defender's reply check in pns.go
// asks it so), which the solver positions of TestThreatsWithMatchesBoard
// never have: the empties of those windows are read from the count words.
func TestThreatsWithExistingThreats(t *testing.T) {
	for ri, tc := range oracleRules {
		rng := rand.New(rand.NewPCG(uint64(ri)+500, 3))
		b := MustNewBoard(tc.r)
		g := NewMoveGen(tc.r)
		withThreats := 0
		for i := 0; i < min(tc.positions, 300); i++ {
			randomThreatBoard(rng, b)
			empt := b.StoneList(game.Empty)
			if len(empt) < 2 {
				continue
			}
			for _, c := range []game.Color{game.Black, game.White} {
				if b.HasThreat(c) {
					withThreats++
				}
				for j := 0; j < 10; j++ {
					s1, s2 := empt[rng.IntN(len(empt))], game.NoSquare
					if tc.r.P >= 2 && rng.IntN(2) == 0 {
						if s2 = empt[rng.IntN(len(empt))]; s2 == s1 {
							s2 = game.NoSquare
						}
					}
					got := g.ThreatsWith(b, c, s1, s2)
					b.Place(s1, c)
					if s2 != game.NoSquare {
						b.Place(s2, c)
					}
					want := b.Threats(c)
					if s2 != game.NoSquare {
						b.Remove(s2)
					}
					b.Remove(s1)
					if got != want {
						t.Fatalf("%v: %s threatsWith(%s,%s) = %d, board says %d\n%s", tc.r, c, game.SquareName(tc.r, s1), game.SquareName(tc.r, s2), got, want, b.Diagram())
					}
				}
			}
		}
		if withThreats == 0 {
			t.Errorf("%v: no position with a threat window", tc.r)
		}
	}
}
