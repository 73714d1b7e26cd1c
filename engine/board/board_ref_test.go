package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"c6book/engine/game"
)

// refBoard is a frozen copy of the window bookkeeping of Place and Remove
// as it was at main bdf5bac, before the count words: one byte slice of
// counts per colour and a branch on the counts per window. The move
// generators read the hot and threat lists in list order, so the new
// board must make the same adds and removes in the same order, not just
// reach the same sets (TestBoardMatchesReference).
//
// The reference also keeps the window numbering of bdf5bac (refWindows):
// one pass in direction, row, column order of the windows' first squares.
// The board numbers its windows line by line; sameAsRef compares the two
// through the windows' direction and first square.
type refBoard struct {
	g      *geometry
	rw     refWindows
	cells  []game.Color
	cnt    [3][]uint8
	full   [3]int
	thr    [3]winSet
	hot    [3]winSet
	tl, hl uint8
}

// refWindows is the frozen window numbering: sqWins holds the windows
// through each square in increasing order, and fromBoard maps the board's
// window numbers to these.
type refWindows struct {
	nwin      int
	sqWins    [][]int32
	fromBoard []int32
}

func newRefWindows(g *geometry) refWindows {
	r := g.rules
	rw := refWindows{sqWins: make([][]int32, r.Squares())}
	number := map[[2]int]int32{} // direction, first square
	for d, dv := range dirs {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				if !r.OnBoard(x+dv[0]*(r.K-1), y+dv[1]*(r.K-1)) {
					continue
				}
				w := int32(rw.nwin)
				rw.nwin++
				number[[2]int{d, int(r.Sq(x, y))}] = w
				for i := 0; i < r.K; i++ {
					s := r.Sq(x+dv[0]*i, y+dv[1]*i)
					rw.sqWins[s] = append(rw.sqWins[s], w)
				}
			}
		}
	}
	rw.fromBoard = make([]int32, g.nwin)
	for w := range rw.fromBoard {
		n, ok := number[[2]int{int(g.winDir[w]), int(g.winSq[w*r.K])}]
		if !ok {
			panic("board window not in the reference numbering")
		}
		rw.fromBoard[w] = n
	}
	return rw
}

// mapped is list in the reference numbering.
func (rw *refWindows) mapped(list []int32) []int32 {
	out := make([]int32, len(list))
	for i, w := range list {
		out[i] = rw.fromBoard[w]
	}
	return out
}

func newRefBoard(g *geometry) *refBoard {
	r := g.rules
	b := &refBoard{g: g, rw: newRefWindows(g), cells: make([]game.Color, r.Squares())}
	for c := game.Black; c <= game.White; c++ {
		b.cnt[c] = make([]uint8, b.rw.nwin)
		b.thr[c] = newWinSet(b.rw.nwin)
		b.hot[c] = newWinSet(b.rw.nwin)
	}
	b.tl = uint8(r.K - r.P)
	b.hl = uint8(max(r.K-2*r.P, 1))
	return b
}

func (b *refBoard) place(s game.Square, c game.Color) {
	b.cells[s] = c
	own, opp := b.cnt[c], b.cnt[c.Opp()]
	for _, w := range b.rw.sqWins[s] {
		n := own[w] + 1
		own[w] = n
		m := opp[w]
		if m == 0 {
			if n == b.hl {
				b.hot[c].add(w)
			}
			if n == b.tl {
				b.thr[c].add(w)
			}
			if int(n) == b.g.rules.K {
				b.full[c]++
			}
			continue
		}
		if n == 1 {
			o := c.Opp()
			if m >= b.hl {
				b.hot[o].remove(w)
			}
			if m >= b.tl {
				b.thr[o].remove(w)
			}
		}
	}
}

func (b *refBoard) remove(s game.Square) {
	c := b.cells[s]
	b.cells[s] = game.Empty
	own, opp := b.cnt[c], b.cnt[c.Opp()]
	for _, w := range b.rw.sqWins[s] {
		n := own[w]
		own[w] = n - 1
		m := opp[w]
		if m == 0 {
			if n == b.hl {
				b.hot[c].remove(w)
			}
			if n == b.tl {
				b.thr[c].remove(w)
			}
			if int(n) == b.g.rules.K {
				b.full[c]--
			}
			continue
		}
		if n == 1 {
			o := c.Opp()
			if m >= b.hl {
				b.hot[o].add(w)
			}
			if m >= b.tl {
				b.thr[o].add(w)
			}
		}
	}
}

// sameAsRef reports the first difference between b and the reference: the
// counts of every window, the winners, and the hot and threat lists in
// list order.
func sameAsRef(b *Board, ref *refBoard) string {
	if !slices.Equal(b.cells, ref.cells) {
		return "cells differ"
	}
	if b.full != ref.full {
		return fmt.Sprintf("full windows %v, reference %v", b.full, ref.full)
	}
	if b.g.nwin != ref.rw.nwin {
		return fmt.Sprintf("%d windows, reference %d", b.g.nwin, ref.rw.nwin)
	}
	for c := game.Black; c <= game.White; c++ {
		for w := int32(0); w < int32(b.g.nwin); w++ {
			if got, want := b.WindowStones(c, w), ref.cnt[c][ref.rw.fromBoard[w]]; got != want {
				return fmt.Sprintf("%s window %d: count %d, reference %d", c, w, got, want)
			}
		}
		if got := ref.rw.mapped(b.hot[c].list); !slices.Equal(got, ref.hot[c].list) {
			return fmt.Sprintf("%s hot list %v, reference %v", c, got, ref.hot[c].list)
		}
		if got := ref.rw.mapped(b.thr[c].list); !slices.Equal(got, ref.thr[c].list) {
			return fmt.Sprintf("%s threat list %v, reference %v", c, got, ref.thr[c].list)
		}
	}
	return ""
}

// refRules is the rule sets of the reference tests: Connect6, small
// boards, p = 1 and k = 2..26.
func refRules() []game.Rules {
	return []game.Rules{
		game.Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 6, N: 6, K: 6, P: 1, Q: 1},
		{M: 11, N: 11, K: 6, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 3, Q: 2}, {M: 5, N: 5, K: 2, P: 1, Q: 1}, {M: 6, N: 6, K: 5, P: 4, Q: 1},
		{M: 10, N: 4, K: 4, P: 3, Q: 3}, {M: 26, N: 26, K: 26, P: 4, Q: 1}, {M: 26, N: 3, K: 25, P: 2, Q: 2},
	}
}

// Random Place/Remove walks (fixed seeds) on Connect6, small boards, p = 1
// and k = 2..26: after every step the board's counts, winners and window
// lists, in list order, equal the frozen reference's. Some walks lay
// stones along one line so that windows fill up to k stones.
func TestBoardMatchesReference(t *testing.T) {
	for ri, r := range refRules() {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ri), 27))
			b := MustNewBoard(r)
			ref := newRefBoard(b.g)
			var placed []game.Square
			steps := 3000
			for step := 0; step < steps; step++ {
				if len(placed) > 0 && (rng.IntN(3) == 0 || b.Empties() == 0) {
					i := rng.IntN(len(placed))
					s := placed[i]
					placed = slices.Delete(placed, i, i+1)
					b.Remove(s)
					ref.remove(s)
				} else {
					s := RefWalkSquare(rng, b, placed)
					c := game.Color(1 + rng.IntN(2))
					if rng.IntN(2) == 0 && len(placed) > 0 {
						c = b.At(placed[len(placed)-1]) // runs of one colour
					}
					b.Place(s, c)
					ref.place(s, c)
					placed = append(placed, s)
				}
				if d := sameAsRef(b, ref); d != "" {
					t.Fatalf("step %d: %s", step, d)
				}
			}
			for len(placed) > 0 {
				i := rng.IntN(len(placed))
				s := placed[i]
				placed = slices.Delete(placed, i, i+1)
				b.Remove(s)
				ref.remove(s)
				if d := sameAsRef(b, ref); d != "" {
					t.Fatalf("clearing: %s", d)
				}
			}
		})
	}
}

// The runs of every square are its windows of sqWins, in the same order:
// run d holds the windows of direction d through the square, which are
// consecutive window numbers.
func TestWindowRuns(t *testing.T) {
	for _, r := range refRules() {
		g := newGeometry(r)
		for s := game.Square(0); int(s) < r.Squares(); s++ {
			var got []int32
			for d, run := range g.runs(s) {
				for w := run.first; w < run.end; w++ {
					if int(g.winDir[w]) != d || !slices.Contains(g.win(int32(w)), s) {
						t.Fatalf("%s: square %d, run %d holds window %d (direction %d, squares %v)", r, s, d, w, g.winDir[w], g.win(int32(w)))
					}
					got = append(got, int32(w))
				}
			}
			if !slices.Equal(got, g.sqWins[s]) {
				t.Fatalf("%s: square %d: runs %v, windows %v", r, s, got, g.sqWins[s])
			}
		}
	}
}
