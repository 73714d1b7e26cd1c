package player

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
)

// evalFor and playEval sum floats over all windows, so their order matters
// to the last bit: frozen copies that visit the windows in the order of
// before the line numbering (refPassOrder) give the same sums, bit for bit.
func TestEvalOrderMatchesReference(t *testing.T) {
	refEvalFor := func(b *board.Board, order []int32, a game.Color) float64 {
		d := a.Opp()
		var v float64
		for _, w := range order {
			ca, cd := b.WindowStones(a, w), b.WindowStones(d, w)
			switch {
			case ca > 0 && cd == 0:
				v += float64(int(1) << (3 * ca))
			case cd > 0 && ca == 0:
				v -= 0.7 * float64(int(1)<<(3*cd))
			}
		}
		return v
	}
	refPlayEval := func(b *board.Board, order []int32, c game.Color) float64 {
		d := c.Opp()
		t3 := uint8(max(b.Rules().K-b.Rules().P-1, 0))
		var v float64
		for _, w := range order {
			ca, cd := b.WindowStones(c, w), b.WindowStones(d, w)
			switch {
			case ca > 0 && cd == 0:
				x := float64(int(1) << (3 * ca))
				switch ca {
				case t3 - 1:
					x *= tempo2
				case t3:
					x *= tempo3
				}
				v += x
			case cd > 0 && ca == 0:
				v -= oppWeight * float64(int(1)<<(3*cd))
			}
		}
		return v
	}
	// On 26x26 with k = 20, a column of 19 stones makes windows worth 8^19
	// = 2^57 > 2^53, and the small windows' terms round differently when
	// added in another order (playEval's weights are binary fractions, so
	// its sums are exact for small k in any order).
	for ri, r := range []game.Rules{game.Connect6(), {M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 11, N: 11, K: 6, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 3, Q: 2}, {M: 26, N: 26, K: 20, P: 2, Q: 1}} {
		rng := rand.New(rand.NewPCG(uint64(ri), 28))
		b := board.MustNewBoard(r)
		order := enginetest.RefPassOrder(b)
		var placed []game.Square
		if r.K == 20 {
			for y := 0; y < 19; y++ {
				b.Place(r.Sq(0, y), game.Black)
				placed = append(placed, r.Sq(0, y))
			}
		}
		for step := 0; step < 400 && b.Empties() > 0; step++ {
			s := enginetest.RefWalkSquare(rng, b, placed)
			c := game.Color(1 + rng.IntN(2))
			if rng.IntN(4) > 0 && len(placed) > 0 {
				c = b.At(placed[len(placed)-1]) // runs of one colour
			}
			b.Place(s, c)
			placed = append(placed, s)
			for _, c := range []game.Color{game.Black, game.White} {
				if got, want := evalFor(b, c), refEvalFor(b, order, c); got != want {
					t.Fatalf("%s step %d: evalFor(%s) = %v, reference %v", r, step, c, got, want)
				}
				if got, want := playEval(b, c), refPlayEval(b, order, c); got != want {
					t.Fatalf("%s step %d: playEval(%s) = %v, reference %v", r, step, c, got, want)
				}
			}
		}
	}
}
