package player

import (
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// The first-turn shapes of Connect(6,2,3): one per symmetry class, and the
// straight ones (all three stones on one line, found here by brute force
// over the lines of the board) after every other shape.
func TestOpeningCandidatesLinesLast(t *testing.T) {
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	b := board.MustNewBoard(r)
	cs := openingCandidates(b, game.Black, 1000)
	onLine := func(m game.Move) bool {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					in := 0
					for i := 0; i < r.M; i++ {
						if px, py := x+i*d[0], y+i*d[1]; r.OnBoard(px, py) && m.Contains(r.Sq(px, py)) {
							in++
						}
					}
					if in == m.Len() {
						return true
					}
				}
			}
		}
		return false
	}
	keys := map[uint64]bool{}
	lines, seenLine := 0, false
	for _, m := range cs {
		nb := b.Clone()
		for i := 0; i < m.Len(); i++ {
			nb.Place(m.At(i), game.Black)
		}
		k, _ := nb.CanonicalKey()
		if keys[k] {
			t.Fatalf("%s: a symmetry class twice", game.MoveName(r, m))
		}
		keys[k] = true
		l := onLine(m)
		if l != collinear(r, []game.Square{m.At(0), m.At(1), m.At(2)}) {
			t.Fatalf("%s: collinear says %v", game.MoveName(r, m), !l)
		}
		if seenLine && !l {
			t.Fatalf("%s comes after a straight shape", game.MoveName(r, m))
		}
		if l {
			lines++
			seenLine = true
		}
	}
	if len(cs) != 16 || lines != 3 {
		t.Fatalf("%d shapes, %d straight; want 16 and 3 (the 3×3 box up to symmetry)", len(cs), lines)
	}
}

// Among the shapes not on one line, the ones a mirror through the centre's
// row or column maps onto themselves come first (checked square by square
// against the mirror images), led by the two triangles of Connect(6,2,3)
// that one verifier call proves (`make bench-c623`, docs/BENCHMARKS.md).
func TestOpeningCandidatesMirrorShapesFirst(t *testing.T) {
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	b := board.MustNewBoard(r)
	cs := openingCandidates(b, game.Black, 1000)
	cx, cy := r.M/2, r.N/2
	mirrored := func(m game.Move) bool {
		for _, flip := range []func(x, y int) (int, int){
			func(x, y int) (int, int) { return 2*cx - x, y },
			func(x, y int) (int, int) { return x, 2*cy - y },
		} {
			same := true
			for i := 0; i < m.Len(); i++ {
				x, y := r.XY(m.At(i))
				fx, fy := flip(x, y)
				same = same && m.Contains(r.Sq(fx, fy))
			}
			if same {
				return true
			}
		}
		return false
	}
	classOf := func(turn string) uint64 {
		nb, err := board.ReplayText(r, turn)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := nb.CanonicalKey()
		return k
	}
	mirrors, seenPlain := 0, false
	for i, m := range cs {
		if collinear(r, []game.Square{m.At(0), m.At(1), m.At(2)}) {
			continue
		}
		// The shapes are listed in the frame they were drawn in; a mirror
		// class may be drawn off its axis: test every image.
		nb := b.Clone()
		for j := 0; j < m.Len(); j++ {
			nb.Place(m.At(j), game.Black)
		}
		mir := false
		for sym := 0; sym < r.SymmetryCount(); sym++ {
			mir = mir || mirrored(r.TransformMove(sym, m))
		}
		if mir && seenPlain {
			t.Fatalf("%s (a mirror shape) comes after a shape without a mirror", game.MoveName(r, m))
		}
		if !mir {
			seenPlain = true
		} else {
			mirrors++
		}
		if i < 2 {
			nb.SetToMove(game.White)
			k, _ := nb.CanonicalKey()
			if k != classOf("i9k9j10") && k != classOf("j9i10k10") {
				t.Fatalf("shape %d is %s, want the triangles i9k9j10 and j9i10k10 first", i, game.MoveName(r, m))
			}
		}
	}
	if mirrors != 3 {
		t.Fatalf("%d mirror shapes off a line, want 3 (the two triangles and i9k9j11)", mirrors)
	}
}
