package board

import (
	"slices"

	"c6book/engine/game"
)

// A threat window of player c is a window with no opponent stone and at
// least k-p stones of c. The number of threats is the least number of
// opponent stones that hit every threat window (a minimum hitting set of their
// empty squares), computed exactly up to p and reported as p+1 beyond.

// ThreatWindow describes one threat window.
type ThreatWindow struct {
	Dir     int           // 0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal
	Squares []game.Square // the k squares, in line order
	Empties []game.Square // its empty squares (sorted)
}

// empt holds the empty squares of one window (at most p of them).
type empt struct {
	n int8
	e [game.MaxPerTurn]game.Square
}

func (b *Board) windowEmpties(w int32) empt {
	var e empt
	for _, s := range b.g.win(w) {
		if b.cells[s] == game.Empty {
			if int(e.n) < game.MaxPerTurn {
				e.e[e.n] = s
			}
			e.n++
		}
	}
	return e
}

// threatEmpties appends the empties of c's threat windows to buf. A threat
// window holds no stone of the opponent, so its count word tells how many
// empty squares it has (at most p): the scan stops at the last one.
func (b *Board) threatEmpties(c game.Color, buf []empt) []empt {
	k, sc := b.rules.K, cntShift(c)
	winSq, cells := b.g.winSq, b.cells
	for _, w := range b.thr[c].list {
		var e empt
		left := int8(k) - int8(b.cw[w]>>sc&cntMask)
		e.n = left
		for i, q := 0, int(w)*k; left > 0; q++ {
			if cells[winSq[q]] == game.Empty {
				e.e[i] = winSq[q]
				i++
				left--
			}
		}
		buf = append(buf, e)
	}
	return buf
}

// Threats returns the number of threats of c: 0..p, or p+1 meaning "p+1 or
// more" (also when c already has k in a row). The common case, no threat
// window, is inlined in the caller.
func (b *Board) Threats(c game.Color) int {
	if len(b.thr[c].list) == 0 {
		return 0
	}
	return b.threatsOf(c)
}

// threatsOf is Threats when c has threat windows.
func (b *Board) threatsOf(c game.Color) int {
	switch list := b.thr[c].list; len(list) {
	case 0:
		return 0
	case 1:
		// One stone hits one window, unless it is full (k in a row).
		if int(b.WindowStones(c, list[0])) == b.rules.K {
			return b.rules.P + 1
		}
		return 1
	}
	var buf [32]empt
	ws := b.threatEmpties(c, buf[:0])
	return minHitting(ws, b.rules.P+1)
}

// minHitting returns the size of a minimum hitting set of ws, capped at limit.
func minHitting(ws []empt, limit int) int {
	if limit == 3 {
		return minHitting3(ws)
	}
	var chosen [game.MaxPerTurn + 1]game.Square
	return hitSearch(ws, chosen[:0], limit)
}

// has reports whether s is one of e's empty squares.
func (e *empt) has(s game.Square) bool {
	for i := 0; i < int(e.n); i++ {
		if e.e[i] == s {
			return true
		}
	}
	return false
}

// minHitting3 is hitSearch with limit 3 (p = 2), without the recursion: a
// window with no empty square is never hit (3); one square hits all when a
// square of the first window is in every window; two squares when, for a
// square c of the first window, a square d of the first window without c
// hits every window without c.
func minHitting3(ws []empt) int {
	if len(ws) == 0 {
		return 0
	}
	for i := range ws {
		if ws[i].n == 0 {
			return 3
		}
	}
	w0 := &ws[0]
	for j := 0; j < int(w0.n); j++ {
		c, all := w0.e[j], true
		for i := 1; i < len(ws) && all; i++ {
			all = ws[i].has(c)
		}
		if all {
			return 1
		}
	}
	for j := 0; j < int(w0.n); j++ {
		c := w0.e[j]
		f := 1
		for f < len(ws) && ws[f].has(c) {
			f++
		}
		// f < len(ws): c alone does not hit every window (above).
		for jj := 0; jj < int(ws[f].n); jj++ {
			d, all := ws[f].e[jj], true
			for i := f + 1; i < len(ws) && all; i++ {
				all = ws[i].has(c) || ws[i].has(d)
			}
			if all {
				return 2
			}
		}
	}
	return 3
}

func hits(e *empt, chosen []game.Square) bool {
	for i := 0; i < int(e.n); i++ {
		for _, c := range chosen {
			if e.e[i] == c {
				return true
			}
		}
	}
	return false
}

func hitSearch(ws []empt, chosen []game.Square, limit int) int {
	for i := range ws {
		if hits(&ws[i], chosen) {
			continue
		}
		if len(chosen)+1 >= limit || ws[i].n == 0 {
			return limit
		}
		best := limit
		for j := 0; j < int(ws[i].n); j++ {
			r := hitSearch(ws[i+1:], append(chosen, ws[i].e[j]), best)
			if r < best {
				best = r
			}
		}
		return best
	}
	return len(chosen)
}

// ThreatWindows lists c's threat windows, sorted by first square and direction.
func (b *Board) ThreatWindows(c game.Color) []ThreatWindow {
	out := make([]ThreatWindow, 0, len(b.thr[c].list))
	for _, w := range b.thr[c].list {
		tw := ThreatWindow{Dir: int(b.g.winDir[w]), Squares: append([]game.Square(nil), b.g.win(w)...)}
		for _, s := range tw.Squares {
			if b.cells[s] == game.Empty {
				tw.Empties = append(tw.Empties, s)
			}
		}
		slices.Sort(tw.Empties)
		out = append(out, tw)
	}
	slices.SortFunc(out, func(a, b ThreatWindow) int {
		if a.Squares[0] != b.Squares[0] {
			return int(a.Squares[0]) - int(b.Squares[0])
		}
		return a.Dir - b.Dir
	})
	return out
}

// HasThreat reports whether c has at least one threat window (so c, to
// move, wins at once).
func (b *Board) HasThreat(c game.Color) bool { return len(b.thr[c].list) > 0 }

// WinningMove returns a move that makes k in a row for c at once, if c has
// a threat window (it fills the emptiest such window).
func (b *Board) WinningMove(c game.Color) (game.Move, bool) {
	best, bestN := int32(-1), game.MaxPerTurn+1
	for _, w := range b.thr[c].list {
		e := b.windowEmpties(w)
		if int(e.n) < bestN {
			best, bestN = w, int(e.n)
		}
	}
	if best < 0 || bestN > b.rules.P {
		return game.Move{}, false
	}
	e := b.windowEmpties(best)
	return game.NewMove(e.e[:e.n]...), true
}

// CriticalDefences returns every minimal set of at most p squares that hits
// all of c's threat windows: normal ones (as many stones as threats) and
// relaxed ones (more stones than threats). With no threats, or more than p,
// both are empty. Sets are sorted moves, listed in increasing order.
func (b *Board) CriticalDefences(c game.Color) (normal, relaxed []game.Move) {
	return b.CriticalDefencesBuf(c, nil)
}

// DefenceBuf is scratch space for CriticalDefencesBuf, reused from call to
// call by a search: the moves it returns are valid until the next call.
type DefenceBuf struct {
	cand            []game.Square
	normal, relaxed []game.Move
}

// CriticalDefencesBuf is CriticalDefences into buf's space (nil: fresh slices).
func (b *Board) CriticalDefencesBuf(c game.Color, buf *DefenceBuf) (normal, relaxed []game.Move) {
	if len(b.thr[c].list) == 0 {
		return nil, nil
	}
	var wbuf [32]empt
	ws := b.threatEmpties(c, wbuf[:0])
	t := minHitting(ws, b.rules.P+1)
	if t > b.rules.P {
		return nil, nil
	}
	if buf == nil {
		buf = new(DefenceBuf)
	}
	buf.cand = candidates(ws, buf.cand[:0])
	buf.normal, buf.relaxed = criticalSets(ws, buf.cand, t, b.rules.P, buf.normal[:0], buf.relaxed[:0])
	return buf.normal, buf.relaxed
}

// candidates returns the distinct empties of ws, sorted, in out's space
// (out's contents are overwritten).
func candidates(ws []empt, out []game.Square) []game.Square {
	out = out[:0]
	for i := range ws {
		for j := 0; j < int(ws[i].n); j++ {
			out = append(out, ws[i].e[j])
		}
	}
	slices.Sort(out)
	k := 0
	for i, s := range out {
		if i == 0 || s != out[k-1] {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

func hitsAll(ws []empt, set []game.Square) bool {
	for i := range ws {
		if !hits(&ws[i], set) {
			return false
		}
	}
	return true
}

// criticalSets appends the minimal hitting sets of ws of sizes t..p, made
// of the candidate squares cand, to normal (size t) and relaxed.
func criticalSets(ws []empt, cand []game.Square, t, p int, normal, relaxed []game.Move) ([]game.Move, []game.Move) {
	var set [game.MaxPerTurn]game.Square
	var rec func(start, size, want int)
	rec = func(start, size, want int) {
		if size == want {
			cur := set[:size]
			if !hitsAll(ws, cur) {
				return
			}
			// Minimal: dropping any one stone must leave a window unhit.
			var sub [game.MaxPerTurn]game.Square
			for drop := 0; drop < size; drop++ {
				k := 0
				for i := 0; i < size; i++ {
					if i != drop {
						sub[k] = cur[i]
						k++
					}
				}
				if hitsAll(ws, sub[:k]) {
					return
				}
			}
			m := game.NewMove(cur...)
			if size == t {
				normal = append(normal, m)
			} else {
				relaxed = append(relaxed, m)
			}
			return
		}
		for i := start; i < len(cand); i++ {
			set[size] = cand[i]
			rec(i+1, size+1, want)
		}
	}
	for size := t; size <= p; size++ {
		if size == 0 {
			continue
		}
		rec(0, 0, size)
	}
	return normal, relaxed
}
