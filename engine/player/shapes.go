package player

import (
	"sort"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Strong shapes (issue 33): the attacker's moves that build compact
// three- and four-stone shapes with its stones. Connect(6,2,3) says the
// side that owns a compact three-stone triangle with the move wins, so a
// move that builds one is worth a verifier call whatever the game player
// thinks of it (ALGORITHMS.md, "What a proof wants at an OR node").
//
// Two stones of a colour are linked when they lie on one line at most
// two squares apart and some k-window of that line holds both and no
// opponent stone (they can still become part of one k in a row). A
// triangle is three stones, pairwise linked, not on one line (the
// Connect(6,2,3) family: j10 k11 l10, j10 k10 j11, j10 l10 k12, ...). A
// move builds a triangle when each of its stones belongs to a triangle of
// the mover's stones after the move. Four-stone shapes (a square, a
// diamond, two triangles sharing an edge) are rewarded through the count
// of triangles and links they make.

// linkDist is how far apart (Chebyshev, along a line) linked stones are.
const linkDist = 2

// ShapeMove is a move with the shape it builds for its mover.
type ShapeMove struct {
	Move game.Move
	// Triangle: every stone of the move is in a triangle of the mover's
	// stones after it.
	Triangle bool
	// Triangles and Links count the triangles and linked pairs of the
	// mover's stones that contain a stone of the move; Mirror the
	// triangles among them that a mirror through a row or a column maps
	// onto themselves (two stones two apart on a row or column, the third
	// beside their midpoint: i9 k9 j10, the Connect(6,2,3) triangle that
	// one verifier call proves, where the L-shaped j9 i9 j10 is left
	// open).
	Triangles, Links, Mirror int
	// Threats is the mover's threat count after the move.
	Threats int
	// Score orders the moves: best first.
	Score float64
}

// lineStep returns the unit step from s to t and their distance along it
// when they lie on one line (row, column or diagonal), else ok false.
func lineStep(r game.Rules, s, t game.Square) (dx, dy, dist int, ok bool) {
	sx, sy := r.XY(s)
	tx, ty := r.XY(t)
	ddx, ddy := tx-sx, ty-sy
	switch {
	case ddx == 0 && ddy == 0:
		return 0, 0, 0, false
	case ddx == 0 || ddy == 0 || abs(ddx) == abs(ddy):
	default:
		return 0, 0, 0, false
	}
	dist = max(abs(ddx), abs(ddy))
	return sign(ddx), sign(ddy), dist, true
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// linked reports whether squares s and t (stones of c, or squares about
// to be) are linked for c on b: on one line at most linkDist apart, with a
// k-window of that line holding both and no stone of c's opponent.
func linked(b *board.Board, c game.Color, s, t game.Square) bool {
	r := b.Rules()
	dx, dy, dist, ok := lineStep(r, s, t)
	if !ok || dist > linkDist || dist >= r.K {
		return false
	}
	o := c.Opp()
	sx, sy := r.XY(s)
	// Windows of K squares starting at s - i*step, i = 0 .. K-1-dist.
	for i := 0; i <= r.K-1-dist; i++ {
		x0, y0 := sx-i*dx, sy-i*dy
		x1, y1 := x0+(r.K-1)*dx, y0+(r.K-1)*dy
		if !r.OnBoard(x0, y0) || !r.OnBoard(x1, y1) {
			continue
		}
		clear := true
		for j := 0; j < r.K; j++ {
			if b.At(r.Sq(x0+j*dx, y0+j*dy)) == o {
				clear = false
				break
			}
		}
		if clear {
			return true
		}
	}
	return false
}

// linkSquares lists the empty squares that could be linked to one of c's
// stones: on a line through it, at most linkDist away.
func linkSquares(b *board.Board, c game.Color) []game.Square {
	r := b.Rules()
	seen := make(map[game.Square]bool)
	var out []game.Square
	for _, s := range b.StoneList(c) {
		x, y := r.XY(s)
		for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
			for k := 1; k <= linkDist; k++ {
				nx, ny := x+k*d[0], y+k*d[1]
				if !r.OnBoard(nx, ny) {
					break
				}
				t := r.Sq(nx, ny)
				if b.At(t) == game.Empty && !seen[t] {
					seen[t] = true
					out = append(out, t)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// shapeOf measures the shape move m (its squares placed for c on b
// already) builds: the triangles and links of c's stones that contain a
// stone of m, and whether every stone of m is in a triangle. near lists
// c's stones that can matter (within 2·linkDist of m).
func shapeOf(b *board.Board, c game.Color, m game.Move, near []game.Square) (tri bool, triangles, links, mirror int) {
	inMove := func(s game.Square) bool { return m.Contains(s) }
	// Links: pairs with at least one stone of m (each pair once).
	var nb [][]game.Square // nb[i]: the stones linked to m.At(i)
	for i := 0; i < m.Len(); i++ {
		s := m.At(i)
		var l []game.Square
		for _, t := range near {
			if t != s && linked(b, c, s, t) {
				l = append(l, t)
				if !inMove(t) || t > s { // a pair inside m once
					links++
				}
			}
		}
		nb = append(nb, l)
	}
	// Triangles containing a stone of m: for stone s of m and two stones
	// t < u linked to s and to each other, not on one line with s.
	type tri3 [3]game.Square
	seen := map[tri3]bool{}
	inTri := make([]bool, m.Len())
	for i := 0; i < m.Len(); i++ {
		s := m.At(i)
		l := nb[i]
		for a := 0; a < len(l); a++ {
			for bb := a + 1; bb < len(l); bb++ {
				t, u := l[a], l[bb]
				if collinear(b.Rules(), []game.Square{s, t, u}) || !linked(b, c, t, u) {
					continue
				}
				inTri[i] = true
				k := sort3(s, t, u)
				if !seen[k] {
					seen[k] = true
					triangles++
					if mirrorTriangle(b.Rules(), k) {
						mirror++
					}
				}
			}
		}
	}
	tri = m.Len() > 0
	for _, ok := range inTri {
		tri = tri && ok
	}
	return tri, triangles, links, mirror
}

// mirrorTriangle reports whether a mirror through a row or a column (the
// middle of the three squares' box) maps the three squares onto
// themselves.
func mirrorTriangle(r game.Rules, t [3]game.Square) bool {
	var xs, ys [3]int
	for i, s := range t {
		xs[i], ys[i] = r.XY(s)
	}
	same := func(f func(x, y int) (int, int)) bool {
		for i := range t {
			x, y := f(xs[i], ys[i])
			found := false
			for j := range t {
				found = found || xs[j] == x && ys[j] == y
			}
			if !found {
				return false
			}
		}
		return true
	}
	sx := min(xs[0], xs[1], xs[2]) + max(xs[0], xs[1], xs[2])
	sy := min(ys[0], ys[1], ys[2]) + max(ys[0], ys[1], ys[2])
	return same(func(x, y int) (int, int) { return sx - x, y }) || same(func(x, y int) (int, int) { return x, sy - y })
}

func sort3(a, b, c game.Square) [3]game.Square {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return [3]game.Square{a, b, c}
}

// shapeMoves lists every move of p stones for c at b (c's stones on the
// board; the squares empty) whose stones are all linkable to c's stones
// (linkSquares), with its shape. Every move that builds a triangle is
// among them: a stone of a triangle is linked to the two others, at most
// p-1 of which are the move's, so for p ≤ 2 it is linked to a stone on
// the board. (For p > 2 only moves of linkable squares are listed.)
func shapeMoves(b *board.Board, c game.Color, p int) []ShapeMove {
	if p < 1 || p > game.MaxPerTurn {
		return nil
	}
	cand := linkSquares(b, c)
	stones := b.StoneList(c)
	var out []ShapeMove
	idx := make([]int, p)
	var rec func(depth, from int)
	rec = func(depth, from int) {
		if depth == p {
			sq := make([]game.Square, p)
			for i, j := range idx {
				sq[i] = cand[j]
			}
			m := game.NewMove(sq...)
			near := nearStones(b.Rules(), stones, m)
			for _, s := range sq {
				b.Place(s, c)
			}
			near = append(near, sq...)
			tri, tris, links, mir := shapeOf(b, c, m, near)
			th := b.Threats(c)
			for i := len(sq) - 1; i >= 0; i-- {
				b.Remove(sq[i])
			}
			out = append(out, ShapeMove{Move: m, Triangle: tri, Triangles: tris, Links: links, Mirror: mir, Threats: th})
			return
		}
		for j := from; j < len(cand); j++ {
			idx[depth] = j
			rec(depth+1, j+1)
		}
	}
	if len(cand) >= p {
		rec(0, 0)
	}
	return out
}

// nearStones lists the stones among stones within 2·linkDist of a square
// of m (the only ones a triangle through m can use).
func nearStones(r game.Rules, stones []game.Square, m game.Move) []game.Square {
	var out []game.Square
	for _, s := range stones {
		sx, sy := r.XY(s)
		for i := 0; i < m.Len(); i++ {
			x, y := r.XY(m.At(i))
			if abs(x-sx) <= 2*linkDist && abs(y-sy) <= 2*linkDist {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// ShapeCandidates ranks up to n moves of the side to move at b by the
// shape they build with its stones: moves that build a triangle first,
// then by triangles, links and threats made, the static evaluation
// breaking ties. Only moves after which the opponent has no threat are
// listed (the move keeps the tempo), and none when the mover can win at
// once (PlayerCandidates has that move) or nobody has a stone.
func ShapeCandidates(b *board.Board, n int) []ShapeMove {
	a := b.ToMove()
	d := a.Opp()
	r := b.Rules()
	if n <= 0 || b.Stones(a) == 0 {
		return nil
	}
	if _, ok := b.WinningMove(a); ok {
		return nil
	}
	p := turnStones(b)
	if p != r.P {
		return nil
	}
	b = b.Clone()
	all := shapeMoves(b, a, p)
	var out []ShapeMove
	for _, sm := range all {
		if sm.Links == 0 {
			continue
		}
		m := sm.Move
		for i := 0; i < m.Len(); i++ {
			b.Place(m.At(i), a)
		}
		ok := !b.HasThreat(d)
		static := evalFor(b, a) / 1000
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
		if !ok {
			continue
		}
		sm.Score = shapeScore(sm) + static/100
		out = append(out, sm)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return game.MoveLess(out[i].Move, out[j].Move)
	})
	// The best move of each shape class first (best first), then the
	// others: a batch of n tries n different shapes before it tries one
	// shape in two places.
	var first, rest []ShapeMove
	seen := map[string]bool{}
	for _, sm := range out {
		k := shapeClass(b, a, sm.Move)
		if seen[k] {
			rest = append(rest, sm)
			continue
		}
		seen[k] = true
		first = append(first, sm)
	}
	out = append(first, rest...)
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// shapeClass names the local shape move m makes for c at b (m not
// placed): m's squares and c's stones linked to one of them, up to
// translation and the eight symmetries of the square, the move's stones
// told from the others. Board edges are not part of it.
func shapeClass(b *board.Board, c game.Color, m game.Move) string {
	r := b.Rules()
	type pt struct{ x, y, new int }
	var pts []pt
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), c)
	}
	for i := 0; i < m.Len(); i++ {
		x, y := r.XY(m.At(i))
		pts = append(pts, pt{x, y, 1})
	}
	for _, s := range nearStones(r, b.StoneList(c), m) {
		if m.Contains(s) {
			continue
		}
		for i := 0; i < m.Len(); i++ {
			if linked(b, c, s, m.At(i)) {
				x, y := r.XY(s)
				pts = append(pts, pt{x, y, 0})
				break
			}
		}
	}
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	best := ""
	for sym := 0; sym < 8; sym++ {
		q := make([]pt, len(pts))
		mx, my := 1<<30, 1<<30
		for i, p := range pts {
			x, y := p.x, p.y
			if sym&4 != 0 {
				x, y = y, x
			}
			if sym&1 != 0 {
				x = -x
			}
			if sym&2 != 0 {
				y = -y
			}
			q[i] = pt{x, y, p.new}
			mx, my = min(mx, x), min(my, y)
		}
		for i := range q {
			q[i].x -= mx
			q[i].y -= my
		}
		sort.Slice(q, func(i, j int) bool {
			if q[i].y != q[j].y {
				return q[i].y < q[j].y
			}
			if q[i].x != q[j].x {
				return q[i].x < q[j].x
			}
			return q[i].new < q[j].new
		})
		key := make([]byte, 0, 3*len(q))
		for _, p := range q {
			key = append(key, byte(p.x), byte(p.y), byte(p.new))
		}
		if sym == 0 || string(key) < best {
			best = string(key)
		}
	}
	return best
}

// shapeScore is a shape's worth: a triangle move first, then triangles
// (a mirror triangle more), links and threats.
func shapeScore(sm ShapeMove) float64 {
	s := 4*float64(sm.Triangles) + 3*float64(sm.Mirror) + float64(sm.Links) + 3*float64(min(sm.Threats, 2))
	if sm.Triangle {
		s += 10
	}
	return s
}
