package proofcheck

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"c6book/engine/game"
)

// The checker's own board: the cells, every window (k consecutive squares
// on a row, column, diagonal or anti-diagonal) and, per window and colour,
// the number of stones, updated on every place and remove. Nothing here is
// shared with the engine's board or threat code.

// geom is the immutable window table of a rules set.
type geom struct {
	r      game.Rules
	nwin   int
	winSq  []int32   // window w: winSq[w*k : w*k+k]
	sqWins [][]int32 // windows through each square
}

var geoms sync.Map // game.Rules -> *geom

func geometryOf(r game.Rules) *geom {
	if g, ok := geoms.Load(r); ok {
		return g.(*geom)
	}
	g := &geom{r: r, sqWins: make([][]int32, r.Squares())}
	dirs := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	for y := 0; y < r.N; y++ {
		for x := 0; x < r.M; x++ {
			for _, d := range dirs {
				ex, ey := x+(r.K-1)*d[0], y+(r.K-1)*d[1]
				if ex < 0 || ey < 0 || ex >= r.M || ey >= r.N {
					continue
				}
				w := int32(g.nwin)
				g.nwin++
				for i := 0; i < r.K; i++ {
					s := r.Sq(x+i*d[0], y+i*d[1])
					g.winSq = append(g.winSq, int32(s))
					g.sqWins[s] = append(g.sqWins[s], w)
				}
			}
		}
	}
	v, _ := geoms.LoadOrStore(r, g)
	return v.(*geom)
}

func (g *geom) win(w int) []int32 { k := g.r.K; return g.winSq[w*k : w*k+k] }

// board is a position: cells hold 0 (empty), 1 (Black) or 2 (White).
type board struct {
	g       *geom
	k, p    int
	cells   []int8
	cnt     [3][]int16 // stones of each colour per window (index 0 unused)
	full    [3]int     // windows filled by each colour
	empties int
	free    zone // the empty squares
	// open[c][m] is the set of windows (a bit a window) with no stone of
	// c's opponent and at least m stones of c, m = 0..k, kept on every
	// place and remove: c's threat windows (no opponent stone, at most p
	// empties) are open[c][k-p], and addDefWin reads its windows off one
	// set instead of testing every window of the board (twice at each
	// node of a strategy).
	open [3][]zone
}

func newBoard(r game.Rules) *board {
	g := geometryOf(r)
	b := &board{g: g, k: r.K, p: r.P, cells: make([]int8, r.Squares()), empties: r.Squares()}
	b.cnt[1] = make([]int16, g.nwin)
	b.cnt[2] = make([]int16, g.nwin)
	b.free = newZone(r.Squares())
	for s := 0; s < r.Squares(); s++ {
		b.free.add(game.Square(s))
	}
	for c := 1; c <= 2; c++ {
		b.open[c] = make([]zone, r.K+1)
		for m := range b.open[c] {
			b.open[c][m] = newZone(g.nwin)
		}
		for w := 0; w < g.nwin; w++ {
			b.open[c][0].add(game.Square(w))
		}
	}
	return b
}

// setUp returns a board holding the stones, checking that every square is
// on the board and that no two stones share a square.
func setUp(r game.Rules, black, white []game.Square) (*board, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	b := newBoard(r)
	for i, list := range [2][]game.Square{black, white} {
		c := int8(i + 1)
		for _, s := range list {
			if !b.onBoard(s) {
				return nil, fmt.Errorf("square %d is off the board", s)
			}
			if b.cells[s] != 0 {
				return nil, fmt.Errorf("two stones on %s", game.SquareName(r, s))
			}
			b.place(s, c)
		}
	}
	return b, nil
}

func (b *board) rules() game.Rules { return b.g.r }

// clone returns a copy of b that shares only the immutable geometry.
func (b *board) clone() *board {
	c := *b
	c.cells = slices.Clone(b.cells)
	c.cnt[1] = slices.Clone(b.cnt[1])
	c.cnt[2] = slices.Clone(b.cnt[2])
	c.free = slices.Clone(b.free)
	for col := 1; col <= 2; col++ {
		c.open[col] = make([]zone, len(b.open[col]))
		for m, z := range b.open[col] {
			c.open[col][m] = slices.Clone(z)
		}
	}
	return &c
}

func (b *board) onBoard(s game.Square) bool { return s >= 0 && int(s) < len(b.cells) }

func (b *board) place(s game.Square, c int8) {
	b.cells[s] = c
	b.empties--
	b.free.del(s)
	for _, w := range b.g.sqWins[s] {
		b.openPlace(c, w)
		b.cnt[c][w]++
		if int(b.cnt[c][w]) == b.k {
			b.full[c]++
		}
	}
}

func (b *board) remove(s game.Square) {
	c := b.cells[s]
	b.cells[s] = 0
	b.empties++
	b.free.add(s)
	for _, w := range b.g.sqWins[s] {
		if int(b.cnt[c][w]) == b.k {
			b.full[c]--
		}
		b.cnt[c][w]--
		b.openRemove(c, w)
	}
}

// openPlace updates the open sets for a stone of c put into window w
// (before its count changes).
func (b *board) openPlace(c int8, w int32) {
	cc, co := int(b.cnt[c][w]), int(b.cnt[3-c][w])
	if co == 0 {
		b.open[c][cc+1].add(game.Square(w))
	}
	if cc == 0 {
		for m := 0; m <= co; m++ {
			b.open[3-c][m].del(game.Square(w))
		}
	}
}

// openRemove updates the open sets for a stone of c taken out of window
// w (after its count changed).
func (b *board) openRemove(c int8, w int32) {
	cc, co := int(b.cnt[c][w]), int(b.cnt[3-c][w])
	if co == 0 {
		b.open[c][cc+1].del(game.Square(w))
	}
	if cc == 0 {
		for m := 0; m <= co; m++ {
			b.open[3-c][m].add(game.Square(w))
		}
	}
}

// hasThreat reports whether colour c has a threat window.
func (b *board) hasThreat(c int8) bool {
	for _, x := range b.open[c][max(b.k-b.p, 0)] {
		if x != 0 {
			return true
		}
	}
	return false
}

// addWindowEmpties adds the empties of window w to z.
func (b *board) addWindowEmpties(z zone, w int) {
	for _, s := range b.g.win(w) {
		if b.cells[s] == 0 {
			z.add(game.Square(s))
		}
	}
}

// addDefWin adds defwin(<= e) for defender d: the empties of every window
// with no stone of d's opponent and at most e empties.
func (b *board) addDefWin(z zone, d int8, e int) {
	minCount := b.k - e
	if minCount > b.k {
		return
	}
	b.open[d][max(minCount, 0)].each(func(w int) { b.addWindowEmpties(z, w) })
}

// threatWindows returns the empties of every threat window of c (in the
// order of the windows).
func (b *board) threatWindows(c int8) []zone {
	var out []zone
	b.open[c][max(b.k-b.p, 0)].each(func(w int) {
		z := newZone(len(b.cells))
		b.addWindowEmpties(z, w)
		out = append(out, z)
	})
	return out
}

// makesRow reports whether move m (distinct empty squares) makes k in a
// row of colour c on a board where c has none: whether a window through
// one of its stones then holds k stones of c. The board is not changed.
func (b *board) makesRow(m game.Move, c int8) bool {
	for i := 0; i < m.Len(); i++ {
		for _, w := range b.g.sqWins[m.At(i)] {
			n := int(b.cnt[c][w])
			if n+m.Len() < b.k {
				continue
			}
			for _, s := range b.g.win(int(w)) {
				for j := 0; j < m.Len(); j++ {
					if game.Square(s) == m.At(j) {
						n++
					}
				}
			}
			if n == b.k {
				return true
			}
		}
	}
	return false
}

// hasRow reports whether colour c has k in a row.
func (b *board) hasRow(c int8) bool { return b.full[c] > 0 }

// zone is a set of squares.
type zone []uint64

func newZone(n int) zone              { return make(zone, (n+63)/64) }
func (z zone) add(s game.Square)      { z[s>>6] |= 1 << (uint(s) & 63) }
func (z zone) has(s game.Square) bool { return z[s>>6]&(1<<(uint(s)&63)) != 0 }

func (z zone) del(s game.Square) { z[s>>6] &^= 1 << (uint(s) & 63) }

// each calls f with every member, in increasing order.
func (z zone) each(f func(int)) {
	for i, w := range z {
		for w != 0 {
			f(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

func (z zone) union(o zone) {
	for i := range z {
		z[i] |= o[i]
	}
}

func (z zone) addMove(m game.Move) {
	for i := 0; i < m.Len(); i++ {
		z.add(m.At(i))
	}
}

// squares lists the set in increasing order.
func (z zone) squares() []game.Square {
	var out []game.Square
	for i, w := range z {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			out = append(out, game.Square(i*64+t))
			w &= w - 1
		}
	}
	return out
}

// zoneOf makes a set from a list, ignoring squares off the board.
func zoneOf(n int, sq []game.Square) zone {
	z := newZone(n)
	for _, s := range sq {
		if s >= 0 && int(s) < n {
			z.add(s)
		}
	}
	return z
}

// firstMissing returns a square of z that is not in big, or false.
func (z zone) firstMissing(big zone) (game.Square, bool) {
	for i, w := range z {
		if m := w &^ big[i]; m != 0 {
			return game.Square(i*64 + bits.TrailingZeros64(m)), true
		}
	}
	return 0, false
}
