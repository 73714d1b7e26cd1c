package board

import (
	"c6book/engine/game"
)

// A frozen copy of the attacker move generator as it was at main 5d49256
// (engine/board/threatgen.go), the straightforward reference that the optimised
// generator must reproduce exactly: same moves, same order, same threat and
// defence counts (TestGenerateMatchesReference).

type refGen struct {
	nsq  int
	seen refPairSet // moves generated in the current call
	mark []uint32   // per-square stamp for candidate collection
	gen  uint32
	ws   []empt // scratch threat windows
	// per square of h1 (generate, r == 2): its own threat windows
	// arena[off[i]:off[i+1]] and its threat count tone[i]
	arena []empt
	off   []int32
	tone  []int8
	// per square (generate, r == 2, k-2p >= 1): the a-live windows through
	// it holding k-2p stones or more; valid when lstamp[s] == gen.
	lists  [][]int32
	lstamp []uint32
	inH1   []uint32 // stamp h1stamp: the square is in h1
	h1st   uint32
	sq     [3][]game.Square
	defs   DefenceBuf
	blocks []game.Move
	// countDefs: generate fills ThreatMove.defs (the search's move
	// ordering); cand, dsets and wsB are its scratch space.
	countDefs bool
	cand      []game.Square
	dsets     []game.Move
	rsets     []game.Move
	wsB       []empt
	masks     []uint64 // refCountSets2's scratch
	msq       []game.Square
	// per window: threatsListed's stamps (wst: the last one used)
	wmark []uint32
	wst   uint32
	// every window of the board, in direction, row, column order of its
	// first square (liveWindows' scan; built on first use)
	passOrder []int32
}

// liveWindows is Board.eachLiveWindow as it was at main 5d49256, with the
// scan of all windows in direction, row, column order of their first
// squares (the window numbering of then): collect's first-seen order
// depends on it.
func (g *refGen) liveWindows(b *Board, c game.Color, minCount int, f func(w int32)) {
	if minCount >= int(b.hl) {
		for _, w := range b.hot[c].list {
			if int(b.WindowStones(c, w)) >= minCount {
				f(w)
			}
		}
		return
	}
	if g.passOrder == nil {
		g.passOrder = RefPassOrder(b)
	}
	for _, w := range g.passOrder {
		if b.WindowStones(c.Opp(), w) == 0 && int(b.WindowStones(c, w)) >= minCount {
			f(w)
		}
	}
}

// defenceCount is the number of critical defences (normal and relaxed) of
// a position whose attacker threat windows have the empties ws (t <= p
// threats).
func (g *refGen) defenceCount(ws []empt, t, p int) int32 {
	switch {
	case len(ws) == 1:
		// One window: each of its empty squares alone, nothing else.
		return int32(ws[0].n)
	case len(ws) == 2 && t == 2 && p == 2:
		// Two windows needing two stones share no empty square (one
		// would hit both): one stone in each, every pair minimal.
		return int32(ws[0].n) * int32(ws[1].n)
	}
	if p == 2 && len(ws) <= 64 {
		return refCountSets2(ws, &g.msq, &g.masks)
	}
	g.cand = candidates(ws, g.cand)
	var rel []game.Move
	g.dsets, rel = criticalSets(ws, g.cand, t, p, g.dsets[:0], g.rsets[:0])
	g.rsets = rel
	return int32(len(g.dsets) + len(rel))
}

// refCountSets2 is len(normal)+len(relaxed) of criticalSets(ws, cand, t, 2)
// for at most 64 windows, with cand the distinct empties of ws and t the
// minimum hitting set size of ws (1 or 2): the minimal sets of one or two
// squares that hit every window. Each distinct empty square gets the bit
// mask of its windows (sq, masks: scratch space): a square is a minimal set
// when it hits them all, a pair when together they do and neither alone
// does.
func refCountSets2(ws []empt, sqs *[]game.Square, scratch *[]uint64) int32 {
	if len(ws) == 0 {
		return 0
	}
	full := ^uint64(0) >> (64 - len(ws))
	sq, masks := (*sqs)[:0], (*scratch)[:0]
	for i := range ws {
		for j := 0; j < int(ws[i].n) && j < game.MaxPerTurn; j++ {
			c := ws[i].e[j]
			k := 0
			for k < len(sq) && sq[k] != c {
				k++
			}
			if k == len(sq) {
				sq = append(sq, c)
				masks = append(masks, 0)
			}
			masks[k] |= 1 << i
		}
	}
	*sqs, *scratch = sq, masks
	n := int32(0)
	for i, mi := range masks {
		if mi == full {
			n++
			continue
		}
		for _, mj := range masks[i+1:] {
			if mj != full && mi|mj == full {
				n++
			}
		}
	}
	return n
}

// boardDefenceCount is defenceCount for a's threat windows on b.
func (g *refGen) boardDefenceCount(b *Board, a game.Color) int32 {
	g.wsB = b.threatEmpties(a, g.wsB[:0])
	return g.defenceCount(g.wsB, b.Threats(a), b.rules.P)
}

func newRefGen(r game.Rules) *refGen {
	n := r.Squares()
	return &refGen{nsq: n, mark: make([]uint32, n),
		lists: make([][]int32, n), lstamp: make([]uint32, n), inH1: make([]uint32, n)}
}

// refMove1 and refMove2 build sorted moves.
func refMove1(s game.Square) game.Move { return game.NewMove(s) }

func refMove2(s1, s2 game.Square) game.Move { return game.NewMove(s1, s2) }

// refWithSquare returns m (at most one stone) with s added.
func refWithSquare(m game.Move, s game.Square) game.Move {
	if m.Len() == 0 {
		return refMove1(s)
	}
	return refMove2(m.At(0), s)
}

// firstTime reports whether move m (one or two stones) is new in the
// current generation, and marks it.
func (g *refGen) firstTime(m game.Move) bool {
	var i int
	switch m.Len() {
	case 1:
		i = int(m.At(0))*g.nsq + int(m.At(0))
	case 2:
		i = int(m.At(0))*g.nsq + int(m.At(1))
	default:
		return true // not generated for p <= 2
	}
	return g.seen.insert(uint32(i) + 1)
}

// refPairSet is a set of non-zero keys, emptied in O(1) by a new stamp: an
// open-addressing table with linear probing that grows when half full.
type refPairSet struct {
	keys   []uint32
	stamps []uint32
	stamp  uint32
	n      int
}

func (ps *refPairSet) reset() {
	ps.stamp++
	ps.n = 0
	if ps.stamp == 0 || ps.keys == nil {
		if ps.keys == nil {
			ps.keys = make([]uint32, 1024)
			ps.stamps = make([]uint32, 1024)
		}
		clear(ps.stamps)
		ps.stamp = 1
	}
}

// insert adds key and reports whether it was absent.
func (ps *refPairSet) insert(key uint32) bool {
	if 2*(ps.n+1) > len(ps.keys) {
		ps.grow()
	}
	mask := uint32(len(ps.keys) - 1)
	for i := (key * 0x9E3779B1) & mask; ; i = (i + 1) & mask {
		if ps.stamps[i] != ps.stamp {
			ps.stamps[i], ps.keys[i] = ps.stamp, key
			ps.n++
			return true
		}
		if ps.keys[i] == key {
			return false
		}
	}
}

func (ps *refPairSet) grow() {
	oldK, oldS, st := ps.keys, ps.stamps, ps.stamp
	ps.keys = make([]uint32, 2*len(oldK))
	ps.stamps = make([]uint32, 2*len(oldK))
	ps.stamp, ps.n = 1, 0
	for i, k := range oldK {
		if oldS[i] == st {
			ps.insert(k)
		}
	}
}

// collect calls f for each empty square of a-live windows (no opponent
// stone) holding at least minCount stones of a, each square once.
func (g *refGen) collect(b *Board, a game.Color, minCount int, f func(game.Square)) {
	g.gen++
	g.liveWindows(b, a, minCount, func(w int32) {
		for _, s := range b.g.win(w) {
			if b.cells[s] == game.Empty && g.mark[s] != g.gen {
				g.mark[s] = g.gen
				f(s)
			}
		}
	})
}

// squares lists the squares of collect into scratch list i.
func (g *refGen) squares(b *Board, a game.Color, minCount int, i int) []game.Square {
	out := g.sq[i][:0]
	g.collect(b, a, minCount, func(s game.Square) { out = append(out, s) })
	g.sq[i] = out
	return out
}

func (g *refGen) freeSquares(b *Board, a game.Color, policy FreePolicy) []game.Square {
	if policy == FreeAll {
		out := g.sq[2][:0]
		for s, c := range b.cells {
			if c == game.Empty {
				out = append(out, game.Square(s))
			}
		}
		g.sq[2] = out
		return out
	}
	return g.squares(b, a, 1, 2)
}

// threatsWith returns the number of threats a would have (0..p+1, as
// Board.Threats) after placing stones s1 and, unless it is NoSquare, s2,
// without touching the board: the current threat windows lose those
// squares, and the windows through s1 or s2 that reach the threat level
// join them.
func (g *refGen) threatsWith(b *Board, a game.Color, s1, s2 game.Square) int {
	ws := g.ws[:0]
	tl := b.tl
	geo := b.g
	cells := b.cells
	ca := func(w int32) uint8 { return b.WindowStones(a, w) }
	cd := func(w int32) uint8 { return b.WindowStones(a.Opp(), w) }
	for _, w := range b.thr[a].list {
		var e empt
		for _, q := range geo.win(w) {
			if cells[q] == game.Empty && q != s1 && q != s2 {
				if int(e.n) < game.MaxPerTurn {
					e.e[e.n] = q
				}
				e.n++
			}
		}
		ws = append(ws, e)
	}
	inc := uint8(1)
	if s2 != game.NoSquare {
		inc = 2
	}
	for pass, s := range [2]game.Square{s1, s2} {
		if s == game.NoSquare {
			continue
		}
		for _, w := range geo.sqWins[s] {
			n := ca(w)
			if cd(w) != 0 || n >= tl || n+inc < tl {
				continue
			}
			ws = refAppendNewWindow(ws, geo.win(w), cells, n, tl, s1, s2, pass)
		}
	}
	g.ws = ws
	return refCountThreats(ws, b.rules.P)
}

// refAppendNewWindow appends the empty squares of window sq (holding n stones
// of the attacker and none of the defender) to ws when the new stones s1
// and s2 bring it to the threat level tl. A window through both is taken
// from s1 only (pass 0), not again from s2.
func refAppendNewWindow(ws []empt, sq []game.Square, cells []game.Color, n, tl uint8, s1, s2 game.Square, pass int) []empt {
	var e empt
	for _, q := range sq {
		switch {
		case q == s1:
			if pass == 1 {
				return ws // seen from s1 already
			}
			n++
		case q == s2:
			n++
		case cells[q] == game.Empty:
			if int(e.n) < game.MaxPerTurn {
				e.e[e.n] = q
			}
			e.n++
		}
	}
	if n >= tl {
		ws = append(ws, e)
	}
	return ws
}

// refCountThreats is the number of threats (0..p+1) of the threat windows ws.
func refCountThreats(ws []empt, p int) int {
	switch {
	case len(ws) == 0:
		return 0
	case len(ws) == 1 && ws[0].n > 0:
		return 1
	case len(ws) == 2 && ws[0].n > 0:
		// minHitting of two windows: one stone when they share an empty
		// square, else two (p+1 when the second is full).
		a, b := &ws[0], &ws[1]
		for i := 0; i < int(a.n) && i < game.MaxPerTurn; i++ {
			for j := 0; j < int(b.n) && j < game.MaxPerTurn; j++ {
				if a.e[i] == b.e[j] {
					return 1
				}
			}
		}
		if b.n == 0 {
			return p + 1
		}
		return min(2, p+1)
	}
	return minHitting(ws, p+1)
}

// buildLists fills the per-square window lists from a's hot windows
// (which are exactly the a-live windows with k-2p or more stones when
// k-2p >= 1) and marks the squares as a new collect generation.
func (g *refGen) buildLists(b *Board, a game.Color) {
	g.gen++
	for _, w := range b.hot[a].list {
		for _, q := range b.g.win(w) {
			if b.cells[q] != game.Empty {
				continue
			}
			if g.lstamp[q] != g.gen {
				g.lstamp[q] = g.gen
				g.lists[q] = g.lists[q][:0]
			}
			g.lists[q] = append(g.lists[q], w)
		}
	}
}

// sharedWindows counts the listed windows through both s1 and s2.
func (g *refGen) sharedWindows(s1, s2 game.Square) int {
	n := 0
	l2 := g.list(s2)
	for _, w := range g.list(s1) {
		for _, w2 := range l2 {
			if w == w2 {
				n++
				break
			}
		}
	}
	return n
}

func (g *refGen) list(s game.Square) []int32 {
	if s == game.NoSquare || g.lstamp[s] != g.gen {
		return nil
	}
	return g.lists[s]
}

// threatsListed is threatsWith for a position where a has no threat
// window, using the lists of buildLists: only windows with k-2p stones or
// more can reach the threat level with two stones. A window reaches it
// with s1 alone, s2 alone or both: a listed window through s1 holds s2 too
// exactly when it is in s2's list (both squares are empty, and the lists
// hold every hot window through an empty square), which window stamps tell
// without reading the window's squares; only the windows that reach the
// threat level are read. The windows come in threatsWith's order: s1's, then
// those of s2 without s1.
func (g *refGen) threatsListed(b *Board, a game.Color, s1, s2 game.Square) int {
	ws := g.ws[:0]
	tl := b.tl
	geo := b.g
	cells := b.cells
	ca := func(w int32) uint8 { return b.WindowStones(a, w) }
	l1, l2 := g.list(s1), g.list(s2)
	if len(l2) == 0 {
		for _, w := range l1 {
			if ca(w)+1 >= tl {
				ws = refAppendEmpties(ws, geo.win(w), cells, s1, s2)
			}
		}
	} else {
		if len(g.wmark) != geo.nwin {
			g.wmark = make([]uint32, geo.nwin)
			g.wst = 0
		}
		if g.wst >= ^uint32(0)-2 {
			clear(g.wmark)
			g.wst = 0
		}
		in2, both := g.wst+1, g.wst+2
		g.wst += 2
		for _, w := range l2 {
			g.wmark[w] = in2
		}
		for _, w := range l1 {
			n := ca(w) + 1
			if g.wmark[w] == in2 {
				g.wmark[w] = both
				n++
			}
			if n >= tl {
				ws = refAppendEmpties(ws, geo.win(w), cells, s1, s2)
			}
		}
		for _, w := range l2 {
			if g.wmark[w] != both && ca(w)+1 >= tl {
				ws = refAppendEmpties(ws, geo.win(w), cells, s1, s2)
			}
		}
	}
	g.ws = ws
	return refCountThreats(ws, b.rules.P)
}

// refAppendEmpties appends the empty squares of window sq other than s1 and
// s2 to ws.
func refAppendEmpties(ws []empt, sq []game.Square, cells []game.Color, s1, s2 game.Square) []empt {
	var e empt
	for _, q := range sq {
		if cells[q] == game.Empty && q != s1 && q != s2 {
			if int(e.n) < game.MaxPerTurn {
				e.e[e.n] = q
			}
			e.n++
		}
	}
	return append(ws, e)
}

func (g *refGen) generate(b *Board, a game.Color, minThreats int, free FreePolicy, out []ThreatMove) []ThreatMove {
	p, k := b.rules.P, b.rules.K
	if mv, ok := b.WinningMove(a); ok {
		return append(out, ThreatMove{Move: mv, Threats: p + 1})
	}
	d := a.Opp()
	td := b.Threats(d)
	if td > p {
		return out
	}
	g.seen.reset()
	// add records move m with t threats (exact: every caller computes or
	// knows the exact count), the first time m is seen; ws are the
	// empties of the threat windows m leaves (nil: read them off the
	// board, where m is placed), used only to count the defences.
	add := func(m game.Move, t int, ws []empt) {
		if t < minThreats {
			return
		}
		tm := ThreatMove{Move: m, Threats: t}
		if g.countDefs && t <= p {
			if ws == nil {
				tm.Defs = g.boardDefenceCount(b, a)
			} else {
				tm.Defs = g.defenceCount(ws, t, p)
			}
		}
		out = append(out, tm)
	}
	blocks := append(g.blocks[:0], game.Move{})
	if td > 0 {
		normal, relaxed := b.CriticalDefencesBuf(d, &g.defs)
		blocks = append(append(blocks[:0], normal...), relaxed...)
	}
	g.blocks = blocks
	for _, blk := range blocks {
		for i := 0; i < blk.Len(); i++ {
			b.Place(blk.At(i), a)
		}
		r := p - blk.Len()
		switch {
		case r == 0:
			if g.firstTime(blk) {
				add(blk, b.Threats(a), nil)
			}
		case r == 1:
			// A stone outside the windows with k-p-1 stones neither
			// makes nor changes a threat window: it keeps the count tb.
			tb := b.Threats(a)
			for _, s := range g.squares(b, a, k-p-1, 0) {
				if m := refWithSquare(blk, s); g.firstTime(m) {
					t := g.threatsWith(b, a, s, game.NoSquare)
					add(m, t, g.ws)
				}
			}
			if tb >= minThreats {
				// A free stone is in no threat window (those squares
				// were all seen above): the windows are the board's.
				var wsB []empt
				if g.countDefs && tb <= p {
					wsB = b.threatEmpties(a, g.wsB[:0])
					g.wsB = wsB
				}
				for _, s := range g.freeSquares(b, a, free) {
					if m := refWithSquare(blk, s); g.firstTime(m) {
						add(m, tb, wsB)
					}
				}
			}
		default: // r == 2, no block needed and no threat window of a
			// Exact counts: pairs sharing a window with k-2p stones or
			// more, and pairs of squares that each can matter (in
			// windows with k-p-1 stones). Any other pair holding a
			// square s1 of the second kind has s1's count; the rest
			// make no threat.
			h1 := g.squares(b, a, k-p-1, 0)
			g.h1st++
			for _, s := range h1 {
				g.inH1[s] = g.h1st
			}
			eval := g.threatsWith
			listed := k-2*p >= int(b.hl) && len(b.thr[a].list) == 0
			if listed {
				g.buildLists(b, a)
				eval = g.threatsListed
			}
			g.pairsInWindows(b, a, k-2*p, func(s1, s2 game.Square) {
				m := refMove2(s1, s2)
				if !g.firstTime(m) {
					return
				}
				// With neither stone in h1, every threat window the
				// pair makes holds both stones: fewer than two such
				// windows make at most one threat.
				if listed && minThreats >= 2 && g.inH1[s1] != g.h1st && g.inH1[s2] != g.h1st && g.sharedWindows(s1, s2) < 2 {
					return
				}
				t := eval(b, a, s1, s2)
				add(m, t, g.ws)
			})
			// The threat windows each square of h1 makes alone.
			g.arena = g.arena[:0]
			g.off = append(g.off[:0], 0)
			g.tone = g.tone[:0]
			for _, s1 := range h1 {
				t1 := eval(b, a, s1, game.NoSquare)
				g.arena = append(g.arena, g.ws...)
				g.off = append(g.off, int32(len(g.arena)))
				g.tone = append(g.tone, int8(t1))
			}
			// Two squares of h1 sharing no window with k-2p stones: the
			// threat windows are those of each alone.
			for i, s1 := range h1 {
				wi := g.arena[g.off[i]:g.off[i+1]]
				for j := i + 1; j < len(h1); j++ {
					m := refMove2(s1, h1[j])
					if !g.firstTime(m) {
						continue
					}
					ti, tj := int(g.tone[i]), int(g.tone[j])
					t := p + 1
					if ti <= p && tj <= p {
						ws := append(append(g.ws[:0], wi...), g.arena[g.off[j]:g.off[j+1]]...)
						g.ws = ws
						t = minHitting(ws, p+1)
					}
					add(m, t, g.ws)
				}
			}
			c2 := g.squares(b, a, k-2*p, 1)
			var frees []game.Square // freeSquares, read once (the board does not change here)
			freesRead := false
			for i, s1 := range h1 {
				t1 := int(g.tone[i])
				if t1 < minThreats {
					continue
				}
				// The pair shares no window with k-2p stones (else
				// seen above): the threat windows are s1's alone.
				w1 := g.arena[g.off[i]:g.off[i+1]]
				for _, s2 := range c2 {
					if m := refMove2(s1, s2); s2 != s1 && g.firstTime(m) {
						add(m, t1, w1)
					}
				}
				if !freesRead {
					frees, freesRead = g.freeSquares(b, a, free), true
				}
				for _, s2 := range frees {
					if m := refMove2(s1, s2); s2 != s1 && g.firstTime(m) {
						add(m, t1, w1)
					}
				}
			}
		}
		for i := blk.Len() - 1; i >= 0; i-- {
			b.Remove(blk.At(i))
		}
	}
	return out
}

// pairsInWindows calls f for each pair of empty squares sharing an a-live
// window with at least count stones of a (pairs may repeat).
func (g *refGen) pairsInWindows(b *Board, a game.Color, count int, f func(s1, s2 game.Square)) {
	if count < 0 {
		return
	}
	var es [game.MaxSide]game.Square
	g.liveWindows(b, a, count, func(w int32) {
		n := 0
		for _, s := range b.g.win(w) {
			if b.cells[s] == game.Empty {
				es[n] = s
				n++
			}
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				f(es[i], es[j])
			}
		}
	})
}
