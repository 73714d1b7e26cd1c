package game

import (
	"testing"
)

// Every symmetry is a bijection of the squares that maps lines to lines, is
// undone by InverseSymmetry, and the 8 (or 4) of them are distinct.
func TestSymmetriesAreBoardSymmetries(t *testing.T) {
	for _, r := range []Rules{Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 2, Q: 1}, {M: 25, N: 25, K: 6, P: 2, Q: 1}} {
		n := r.SymmetryCount()
		if want := map[bool]int{true: 8, false: 4}[r.M == r.N]; n != want {
			t.Fatalf("%s: %d symmetries", r, n)
		}
		images := map[string]int{}
		for id := 0; id < n; id++ {
			seen := make([]bool, r.Squares())
			var sig []byte
			for s := Square(0); int(s) < r.Squares(); s++ {
				ts := r.Transform(id, s)
				if ts < 0 || int(ts) >= r.Squares() || seen[ts] {
					t.Fatalf("%s sym %d: not a bijection at %s", r, id, SquareName(r, s))
				}
				seen[ts] = true
				if back := r.Transform(InverseSymmetry(id), ts); back != s {
					t.Fatalf("%s sym %d: inverse %d maps %s back to %s", r, id, InverseSymmetry(id), SquareName(r, s), SquareName(r, back))
				}
				sig = append(sig, byte(ts), byte(ts>>8))
			}
			if prev, dup := images[string(sig)]; dup {
				t.Fatalf("%s: symmetries %d and %d are the same map", r, prev, id)
			}
			images[string(sig)] = id
			// Adjacent squares stay adjacent (so lines map to lines).
			for y := 0; y < r.N; y++ {
				for x := 0; x+1 < r.M; x++ {
					ax, ay := r.XY(r.Transform(id, r.Sq(x, y)))
					bx, by := r.XY(r.Transform(id, r.Sq(x+1, y)))
					if d := absInt(ax-bx) + absInt(ay-by); d != 1 {
						t.Fatalf("%s sym %d: neighbours %s, %s land %d apart", r, id, SquareName(r, r.Sq(x, y)), SquareName(r, r.Sq(x+1, y)), d)
					}
				}
			}
		}
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
