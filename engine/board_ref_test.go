package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refBoard is a frozen copy of the window bookkeeping of Place and Remove
// as it was at main bdf5bac, before the count words: one byte slice of
// counts per colour and a branch on the counts per window. The move
// generators read the hot and threat lists in list order, so the new
// board must make the same adds and removes in the same order, not just
// reach the same sets (TestBoardMatchesReference).
type refBoard struct {
	g      *geometry
	cells  []Color
	cnt    [3][]uint8
	full   [3]int
	thr    [3]winSet
	hot    [3]winSet
	tl, hl uint8
}

func newRefBoard(g *geometry) *refBoard {
	r := g.rules
	b := &refBoard{g: g, cells: make([]Color, r.Squares())}
	for c := Black; c <= White; c++ {
		b.cnt[c] = make([]uint8, g.nwin)
		b.thr[c] = newWinSet(g.nwin)
		b.hot[c] = newWinSet(g.nwin)
	}
	b.tl = uint8(r.K - r.P)
	b.hl = uint8(max(r.K-2*r.P, 1))
	return b
}

func (b *refBoard) place(s Square, c Color) {
	b.cells[s] = c
	own, opp := b.cnt[c], b.cnt[c.Opp()]
	for _, w := range b.g.sqWins[s] {
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

func (b *refBoard) remove(s Square) {
	c := b.cells[s]
	b.cells[s] = Empty
	own, opp := b.cnt[c], b.cnt[c.Opp()]
	for _, w := range b.g.sqWins[s] {
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
	for c := Black; c <= White; c++ {
		for w := int32(0); w < int32(b.g.nwin); w++ {
			if got, want := b.wcnt(c, w), ref.cnt[c][w]; got != want {
				return fmt.Sprintf("%s window %d: count %d, reference %d", c, w, got, want)
			}
		}
		if !slices.Equal(b.hot[c].list, ref.hot[c].list) {
			return fmt.Sprintf("%s hot list %v, reference %v", c, b.hot[c].list, ref.hot[c].list)
		}
		if !slices.Equal(b.thr[c].list, ref.thr[c].list) {
			return fmt.Sprintf("%s threat list %v, reference %v", c, b.thr[c].list, ref.thr[c].list)
		}
	}
	return ""
}

// Random Place/Remove walks (fixed seeds) on Connect6, small boards, p = 1
// and k = 2..26: after every step the board's counts, winners and window
// lists, in list order, equal the frozen reference's. Some walks lay
// stones along one line so that windows fill up to k stones.
func TestBoardMatchesReference(t *testing.T) {
	rules := []Rules{
		Connect6(), {7, 7, 4, 2, 1}, {9, 9, 5, 2, 1}, {8, 8, 4, 1, 1}, {6, 6, 6, 1, 1},
		{11, 11, 6, 2, 1}, {9, 6, 5, 3, 2}, {5, 5, 2, 1, 1}, {6, 6, 5, 4, 1},
		{10, 4, 4, 3, 3}, {26, 26, 26, 4, 1}, {26, 3, 25, 2, 2},
	}
	for ri, r := range rules {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ri), 27))
			b := MustNewBoard(r)
			ref := newRefBoard(b.g)
			var placed []Square
			steps := 3000
			for step := 0; step < steps; step++ {
				if len(placed) > 0 && (rng.IntN(3) == 0 || b.Empties() == 0) {
					i := rng.IntN(len(placed))
					s := placed[i]
					placed = slices.Delete(placed, i, i+1)
					b.Remove(s)
					ref.remove(s)
				} else {
					s := refWalkSquare(rng, b, placed)
					c := Color(1 + rng.IntN(2))
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

// refWalkSquare picks an empty square: often the next square along a line
// from the last stone (so windows fill up), often near a stone, else
// anywhere.
func refWalkSquare(rng *rand.Rand, b *Board, placed []Square) Square {
	r := b.rules
	for {
		s := Square(rng.IntN(r.Squares()))
		if len(placed) > 0 && rng.IntN(4) > 0 {
			x, y := r.XY(placed[len(placed)-1])
			if rng.IntN(2) == 0 {
				d := dirs[rng.IntN(4)]
				x, y = x+d[0], y+d[1]
			} else {
				x, y = r.XY(placed[rng.IntN(len(placed))])
				x, y = x+rng.IntN(5)-2, y+rng.IntN(5)-2
			}
			if !r.OnBoard(x, y) {
				continue
			}
			s = r.Sq(x, y)
		}
		if b.At(s) == Empty {
			return s
		}
	}
}
