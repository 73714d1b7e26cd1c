package player

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// bruteLinked: s and t (stones of c) share a k-window of the board
// without an opponent stone, and lie on one line at most linkDist apart;
// the windows are found by walking every line of the board from every
// square, not through the board's window tables or lineStep.
func bruteLinked(b *board.Board, c game.Color, s, t game.Square) bool {
	r := b.Rules()
	sx, sy := r.XY(s)
	tx, ty := r.XY(t)
	if max(abs(sx-tx), abs(sy-ty)) > linkDist || s == t {
		return false
	}
	for y := 0; y < r.N; y++ {
		for x := 0; x < r.M; x++ {
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				ex, ey := x+(r.K-1)*d[0], y+(r.K-1)*d[1]
				if !r.OnBoard(ex, ey) {
					continue
				}
				hasS, hasT, blocked := false, false, false
				for i := 0; i < r.K; i++ {
					q := r.Sq(x+i*d[0], y+i*d[1])
					hasS = hasS || q == s
					hasT = hasT || q == t
					blocked = blocked || b.At(q) == c.Opp()
				}
				if hasS && hasT && !blocked {
					return true
				}
			}
		}
	}
	return false
}

// bruteTriangleMove: with m's stones placed, every stone of m is in three
// stones of c, pairwise linked, not on one line (all triples of c's
// stones tried).
func bruteTriangleMove(b *board.Board, c game.Color, m game.Move) bool {
	r := b.Rules()
	st := b.StoneList(c)
	in := map[game.Square]bool{}
	for i := 0; i < len(st); i++ {
		for j := i + 1; j < len(st); j++ {
			for k := j + 1; k < len(st); k++ {
				x, y, z := st[i], st[j], st[k]
				if collinear(r, []game.Square{x, y, z}) || !bruteLinked(b, c, x, y) || !bruteLinked(b, c, y, z) || !bruteLinked(b, c, x, z) {
					continue
				}
				in[x], in[y], in[z] = true, true, true
			}
		}
	}
	for i := 0; i < m.Len(); i++ {
		if !in[m.At(i)] {
			return false
		}
	}
	return true
}

// The shape generator finds every move that builds a triangle: on random
// small-board positions (fixed seeds), the moves shapeMoves marks as
// triangle moves are exactly the ones a brute force over every pair of
// empty squares and every triple of stones finds.
func TestShapeMovesTrianglesBruteForce(t *testing.T) {
	rules := []game.Rules{{M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 6, P: 2, Q: 1}, {M: 7, N: 9, K: 4, P: 2, Q: 1}}
	rng := rand.New(rand.NewPCG(33, 1))
	total := 0
	for n := 0; n < 60; n++ {
		r := rules[n%len(rules)]
		b := board.MustNewBoard(r)
		// A few stones of each colour, anywhere.
		nb, nw := 1+rng.IntN(4), rng.IntN(5)
		for placed := 0; placed < nb+nw; {
			s := game.Square(rng.IntN(r.Squares()))
			if b.At(s) != game.Empty {
				continue
			}
			c := game.Black
			if placed >= nb {
				c = game.White
			}
			b.Place(s, c)
			placed++
		}
		got := map[game.Move]bool{}
		for _, sm := range shapeMoves(b, game.Black, 2) {
			if sm.Triangle {
				got[sm.Move] = true
			}
		}
		want := map[game.Move]bool{}
		for s := game.Square(0); int(s) < r.Squares(); s++ {
			for u := s + 1; int(u) < r.Squares(); u++ {
				if b.At(s) != game.Empty || b.At(u) != game.Empty {
					continue
				}
				m := game.NewMove(s, u)
				b.Place(s, game.Black)
				b.Place(u, game.Black)
				if bruteTriangleMove(b, game.Black, m) {
					want[m] = true
				}
				b.Remove(u)
				b.Remove(s)
			}
		}
		for m := range want {
			if !got[m] {
				t.Fatalf("position %d (%v): brute force finds triangle move %s, the generator does not", n, r, game.MoveName(r, m))
			}
		}
		for m := range got {
			if !want[m] {
				t.Fatalf("position %d (%v): the generator calls %s a triangle move, brute force does not", n, r, game.MoveName(r, m))
			}
		}
		total += len(want)
	}
	if total == 0 {
		t.Fatal("no triangle move in any position: the test checks nothing")
	}
	t.Logf("%d triangle moves, all found", total)
}

// With one stone of its own (White's two far away: Black owns a free
// start), the shape moves start with the triangles of Connect(6,2,3) that
// one verifier call proves (two stones two apart on a row or column, the
// third beside their midpoint, e.g. j10 k11 l10), one per shape class,
// and every listed triangle move builds a triangle by brute force.
func TestShapeCandidatesConnect623Triangle(t *testing.T) {
	r := game.Connect6()
	b, err := board.ReplayText(r, "j10 a1s19")
	if err != nil {
		t.Fatal(err)
	}
	cs := ShapeCandidates(b, 12)
	if len(cs) == 0 {
		t.Fatal("no shape move")
	}
	first := cs[0]
	if !first.Triangle || first.Mirror == 0 {
		t.Fatalf("first shape move %s: triangle %v, mirror triangles %d; want a mirror triangle", game.MoveName(r, first.Move), first.Triangle, first.Mirror)
	}
	j10, _ := game.ParseSquare(r, "j10")
	tri := [3]game.Square{j10, first.Move.At(0), first.Move.At(1)}
	if !mirrorTriangle(r, sort3(tri[0], tri[1], tri[2])) {
		t.Fatalf("%s with j10 is no mirror triangle", game.MoveName(r, first.Move))
	}
	classes := map[string]bool{}
	for _, sm := range cs {
		if !sm.Triangle {
			continue
		}
		nb := b.Clone()
		nb.Place(sm.Move.At(0), game.Black)
		nb.Place(sm.Move.At(1), game.Black)
		if !bruteTriangleMove(nb, game.Black, sm.Move) {
			t.Fatalf("%s: listed as a triangle move, brute force disagrees", game.MoveName(r, sm.Move))
		}
		k := shapeClass(b, game.Black, sm.Move)
		if classes[k] {
			t.Fatalf("%s: a triangle class listed twice before the other classes", game.MoveName(r, sm.Move))
		}
		classes[k] = true
	}
	// k11l10 is in the first move's class.
	kl, err := game.ParseMove(r, "k11l10")
	if err != nil {
		t.Fatal(err)
	}
	if shapeClass(b, game.Black, kl) != shapeClass(b, game.Black, first.Move) {
		t.Fatalf("k11l10 is not in the class of the first shape move %s", game.MoveName(r, first.Move))
	}
}
