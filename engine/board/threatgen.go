package board

import (
	"math/bits"

	"c6book/engine/game"
)

// Threat-move generation. A move of the attacker a is generated when it hits
// every threat window of the defender (otherwise the defender wins at once)
// and leaves a with at least minThreats threats. Stones are found through the
// windows that can still become threat windows, so the cost is that of a's
// live windows, not of the whole board.

// FreePolicy says where a "free" stone may go: a stone the move does not need
// for its threats (when one stone already makes them).
type FreePolicy int

const (
	// FreeNear places free stones on empty squares of windows that hold an
	// attacker stone and no defender stone (squares that may build the next
	// threat). The default.
	FreeNear FreePolicy = iota
	// FreeAll places free stones on every empty square (complete, slower).
	FreeAll
)

// ThreatMove is a generated attacker move and the threats it leaves
// (capped at p+1, meaning a win).
type ThreatMove struct {
	Move    game.Move
	Threats int
	// defs is, for a move leaving at most p threats, the number of
	// critical defences (normal and relaxed) against them, when the
	// generator was asked to count them (moveGen.countDefs); else 0.
	Defs int32
}

type MoveGen struct {
	nsq  int
	seen pairBits // moves generated in the current call
	mark []uint32 // per-square stamp for candidate collection
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
	CountDefs bool
	cand      []game.Square
	dsets     []game.Move
	rsets     []game.Move
	wsB       []empt
	masks     []uint64 // countSets2's scratch
	msq       []game.Square
	// per window: threatsListed's stamps (wst: the last one used)
	wmark []uint32
	wst   uint32
	// The hot windows of a (generate, r == 2, listed, at most 64 of
	// them), numbered in hot-list order by buildHot: window hw[i] holds
	// the empty squares hemp[hoff[i]:hoff[i+1]] (in line order); sqm[s]
	// has bit i when hot window i passes through the empty square s
	// (valid when sqst[s] == hst); reach1 (reach2) has bit i when window
	// i reaches the threat level with one (two) more stones of a.
	hw             []int32
	hemp           []game.Square
	hoff           []int32
	sqm            []uint64
	sqst           []uint32
	hst            uint32
	reach1, reach2 uint64
}

// defenceCount is the number of critical defences (normal and relaxed) of
// a position whose attacker threat windows have the empties ws (t <= p
// threats).
func (g *MoveGen) defenceCount(ws []empt, t, p int) int32 {
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
		return countSets2(ws, &g.msq, &g.masks)
	}
	g.cand = candidates(ws, g.cand)
	var rel []game.Move
	g.dsets, rel = criticalSets(ws, g.cand, t, p, g.dsets[:0], g.rsets[:0])
	g.rsets = rel
	return int32(len(g.dsets) + len(rel))
}

// countSets2 is len(normal)+len(relaxed) of criticalSets(ws, cand, t, 2)
// for at most 64 windows, with cand the distinct empties of ws and t the
// minimum hitting set size of ws (1 or 2): the minimal sets of one or two
// squares that hit every window. Each distinct empty square gets the bit
// mask of its windows (sq, masks: scratch space): a square is a minimal set
// when it hits them all, a pair when together they do and neither alone
// does.
func countSets2(ws []empt, sqs *[]game.Square, scratch *[]uint64) int32 {
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
func (g *MoveGen) boardDefenceCount(b *Board, a game.Color) int32 {
	g.wsB = b.threatEmpties(a, g.wsB[:0])
	return g.defenceCount(g.wsB, b.Threats(a), b.rules.P)
}

func NewMoveGen(r game.Rules) *MoveGen {
	n := r.Squares()
	return &MoveGen{nsq: n, seen: newPairBits(n), mark: make([]uint32, n),
		lists: make([][]int32, n), lstamp: make([]uint32, n), inH1: make([]uint32, n),
		sqm: make([]uint64, n), sqst: make([]uint32, n)}
}

// move1 and move2 build sorted moves without NewMove's sorting overhead.
func move1(s game.Square) game.Move { return game.NewMove(s) }

func move2(s1, s2 game.Square) game.Move {
	return game.NewMove(s1, s2)
}

// withSquare returns m (at most one stone) with s added.
func withSquare(m game.Move, s game.Square) game.Move {
	if m.Len() == 0 {
		return move1(s)
	}
	return move2(m.At(0), s)
}

// firstTime reports whether move m (one or two stones) is new in the
// current generation, and marks it.
func (g *MoveGen) firstTime(m game.Move) bool {
	switch m.Len() {
	case 1:
		return g.seen.insert(m.At(0), m.At(0))
	case 2:
		return g.seen.insert(m.At(0), m.At(1))
	}
	return true // not generated for p <= 2
}

// pairBits is a set of square pairs (s1, s2), a bit matrix of one row of
// bits per square s1, emptied in O(1) by a new stamp: a row is cleared when
// it is first used under the current stamp.
type pairBits struct {
	words int      // uint64 words per row
	bits  []uint64 // row s1: bits[s1*words : (s1+1)*words]
	rowSt []uint32 // the stamp under which each row was last cleared
	stamp uint32
}

func newPairBits(nsq int) pairBits {
	w := (nsq + 63) / 64
	return pairBits{words: w, bits: make([]uint64, nsq*w), rowSt: make([]uint32, nsq)}
}

func (ps *pairBits) reset() {
	ps.stamp++
	if ps.stamp == 0 {
		clear(ps.rowSt)
		clear(ps.bits)
		ps.stamp = 1
	}
}

// insert adds (s1, s2) and reports whether it was absent.
func (ps *pairBits) insert(s1, s2 game.Square) bool {
	row := ps.bits[int(s1)*ps.words : int(s1+1)*ps.words]
	if ps.rowSt[s1] != ps.stamp {
		ps.rowSt[s1] = ps.stamp
		clear(row)
	}
	w, bit := &row[uint(s2)>>6], uint64(1)<<(uint(s2)&63)
	if *w&bit != 0 {
		return false
	}
	*w |= bit
	return true
}

// ThreatMoves returns the moves of a (to move) that leave a with at least
// minThreats threats, blocking all of the defender's threats; nil when the
// defender has more than p threats. If a already has a threat window the
// only move returned is the winning one, with p+1 threats. Only p <= 2 is
// supported.
func (b *Board) ThreatMoves(a game.Color, minThreats int, free FreePolicy) []ThreatMove {
	return NewMoveGen(b.rules).Generate(b, a, minThreats, free, nil)
}

// collect calls f for each empty square of a-live windows (no opponent
// stone) holding at least minCount stones of a, each square once.
func (g *MoveGen) collect(b *Board, a game.Color, minCount int, f func(game.Square)) {
	g.gen++
	b.eachLiveWindow(a, minCount, func(w int32) {
		for _, s := range b.g.win(w) {
			if b.cells[s] == game.Empty && g.mark[s] != g.gen {
				g.mark[s] = g.gen
				f(s)
			}
		}
	})
}

// squares lists the squares of collect into scratch list i.
func (g *MoveGen) squares(b *Board, a game.Color, minCount int, i int) []game.Square {
	out := g.sq[i][:0]
	g.collect(b, a, minCount, func(s game.Square) { out = append(out, s) })
	g.sq[i] = out
	return out
}

func (g *MoveGen) freeSquares(b *Board, a game.Color, policy FreePolicy) []game.Square {
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
func (g *MoveGen) ThreatsWith(b *Board, a game.Color, s1, s2 game.Square) int {
	ws := g.ws[:0]
	tl := b.tl
	geo := b.g
	cells := b.cells
	cw, sa := b.cw, cntShift(a)
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
	// A window joins when it has no stone of the defender and tl-1 stones
	// of a, or tl-2 when two stones are placed: its count word is one of
	// two values.
	inc := uint8(1)
	if s2 != game.NoSquare {
		inc = 2
	}
	v1, v2 := cntWord(a, tl-1), cntWord(a, max(tl, inc)-inc)
	for pass, s := range [2]game.Square{s1, s2} {
		if s == game.NoSquare {
			continue
		}
		for _, w := range geo.sqWins[s] {
			v := cw[w]
			if v != v1 && v != v2 {
				continue
			}
			ws = appendNewWindow(ws, geo.win(w), cells, uint8(v>>sa), tl, s1, s2, pass)
		}
	}
	g.ws = ws
	return countThreats(ws, b.rules.P)
}

// appendNewWindow appends the empty squares of window sq (holding n stones
// of the attacker and none of the defender) to ws when the new stones s1
// and s2 bring it to the threat level tl. A window through both is taken
// from s1 only (pass 0), not again from s2.
func appendNewWindow(ws []empt, sq []game.Square, cells []game.Color, n, tl uint8, s1, s2 game.Square, pass int) []empt {
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

// countThreats is the number of threats (0..p+1) of the threat windows ws.
func countThreats(ws []empt, p int) int {
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
func (g *MoveGen) buildLists(b *Board, a game.Color) {
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
func (g *MoveGen) sharedWindows(s1, s2 game.Square) int {
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

func (g *MoveGen) list(s game.Square) []int32 {
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
func (g *MoveGen) threatsListed(b *Board, a game.Color, s1, s2 game.Square) int {
	ws := g.ws[:0]
	tl := b.tl
	geo := b.g
	cells := b.cells
	cw, sa := b.cw, cntShift(a)
	ca := func(w int32) uint8 { return uint8(cw[w]>>sa) & cntMask }
	l1, l2 := g.list(s1), g.list(s2)
	if len(l2) == 0 {
		for _, w := range l1 {
			if ca(w)+1 >= tl {
				ws = appendEmpties(ws, geo.win(w), cells, s1, s2)
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
				ws = appendEmpties(ws, geo.win(w), cells, s1, s2)
			}
		}
		for _, w := range l2 {
			if g.wmark[w] != both && ca(w)+1 >= tl {
				ws = appendEmpties(ws, geo.win(w), cells, s1, s2)
			}
		}
	}
	g.ws = ws
	return countThreats(ws, b.rules.P)
}

// buildHot numbers a's hot windows in hot-list order (at most 64: the
// caller checks) and fills hw, hemp, hoff, sqm, reach1 and reach2 for
// threatsMasked and the pair loop of generate. It is valid while the
// board does not change. It returns what squares(b, a, h1Count, 0) and
// squares(b, a, k-2p, 1) would (the caller's h1 and c2, in scratch lists
// 0 and 1): the empty squares of the hot windows holding h1Count stones of
// a or more, and of all of them (every hot window holds k-2p or more when
// generate asks), each once, in the order collect finds them.
func (g *MoveGen) buildHot(b *Board, a game.Color, h1Count int) (h1, c2 []game.Square) {
	g.hst++
	if g.hst == 0 {
		clear(g.sqst)
		g.hst = 1
	}
	hst := g.hst
	g.gen++ // h1's marks
	gen := g.gen
	tl := b.tl
	cw, sa := b.cw, cntShift(a)
	cells := b.cells
	k := b.rules.K
	winSq := b.g.winSq
	hw, hemp, hoff := g.hw[:0], g.hemp[:0], append(g.hoff[:0], 0)
	h1, c2 = g.sq[0][:0], g.sq[1][:0]
	var r1, r2 uint64
	for i, w := range b.hot[a].list {
		bit := uint64(1) << uint(i)
		hw = append(hw, w)
		n := uint8(cw[w]>>sa) & cntMask
		if n+1 >= tl {
			r1 |= bit
			r2 |= bit
		} else if n+2 >= tl {
			r2 |= bit
		}
		inH1 := int(n) >= h1Count
		for _, q := range winSq[int(w)*k : int(w)*k+k] {
			if cells[q] != game.Empty {
				continue
			}
			hemp = append(hemp, q)
			if g.sqst[q] != hst {
				g.sqst[q] = hst
				g.sqm[q] = 0
				c2 = append(c2, q)
			}
			g.sqm[q] |= bit
			if inH1 && g.mark[q] != gen {
				g.mark[q] = gen
				h1 = append(h1, q)
			}
		}
		hoff = append(hoff, int32(len(hemp)))
	}
	g.hw, g.hemp, g.hoff = hw, hemp, hoff
	g.reach1, g.reach2 = r1, r2
	g.sq[0], g.sq[1] = h1, c2
	return h1, c2
}

// hotMask is the mask of hot windows (buildHot) through square s.
func (g *MoveGen) hotMask(s game.Square) uint64 {
	if s == game.NoSquare || g.sqst[s] != g.hst {
		return 0
	}
	return g.sqm[s]
}

// threatsMasked is threatsListed from buildHot's masks: the windows that
// reach the threat level are the hot windows through s1 or s2 that need
// one stone more, and those through both that need two; their empty
// squares other than s1 and s2 are read from hemp. The windows come in
// hot-list order (threatsListed's order differs, which changes no count:
// the threat and defence counts are functions of the set of windows).
//
// s1 (and s2 unless NoSquare) must be empty squares of hot windows, as
// every caller's are: their masks are read without the stamp check.
func (g *MoveGen) threatsMasked(b *Board, a game.Color, s1, s2 game.Square) int {
	m1, m2 := g.sqm[s1], uint64(0)
	if s2 != game.NoSquare {
		m2 = g.sqm[s2]
	}
	t := (m1|m2)&g.reach1 | m1&m2&g.reach2
	ws := g.ws[:0]
	for t != 0 {
		i := bits.TrailingZeros64(t)
		t &= t - 1
		var e empt
		for _, q := range g.hemp[g.hoff[i]:g.hoff[i+1]] {
			if q != s1 && q != s2 {
				if int(e.n) < game.MaxPerTurn {
					e.e[e.n] = q
				}
				e.n++
			}
		}
		ws = append(ws, e)
	}
	g.ws = ws
	return countThreats(ws, b.rules.P)
}

// appendEmpties appends the empty squares of window sq other than s1 and
// s2 to ws.
func appendEmpties(ws []empt, sq []game.Square, cells []game.Color, s1, s2 game.Square) []empt {
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

func (g *MoveGen) Generate(b *Board, a game.Color, minThreats int, free FreePolicy, out []ThreatMove) []ThreatMove {
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
		if g.CountDefs && t <= p {
			if ws == nil {
				tm.Defs = g.boardDefenceCount(b, a)
			} else {
				tm.Defs = g.defenceCount(ws, t, p)
			}
		}
		out = append(out, tm)
	}
	// fixedDefs is the defence count add would compute for t threats
	// whose windows have the empties ws, computed once for a run of moves
	// that all leave the same windows (the caller keeps it while ws stays).
	fixedDefs := func(t int, ws []empt) int32 {
		if !g.CountDefs || t > p {
			return 0
		}
		if ws == nil {
			return g.boardDefenceCount(b, a)
		}
		return g.defenceCount(ws, t, p)
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
				if m := withSquare(blk, s); g.firstTime(m) {
					t := g.ThreatsWith(b, a, s, game.NoSquare)
					add(m, t, g.ws)
				}
			}
			if tb >= minThreats {
				// A free stone is in no threat window (those squares
				// were all seen above): the windows are the board's.
				var wsB []empt
				if g.CountDefs && tb <= p {
					wsB = b.threatEmpties(a, g.wsB[:0])
					g.wsB = wsB
				}
				defs, known := int32(0), false
				for _, s := range g.freeSquares(b, a, free) {
					if m := withSquare(blk, s); g.firstTime(m) {
						if !known {
							defs, known = fixedDefs(tb, wsB), true
						}
						out = append(out, ThreatMove{Move: m, Threats: tb, Defs: defs})
					}
				}
			}
		default: // r == 2, no block needed and no threat window of a
			// Exact counts: pairs sharing a window with k-2p stones or
			// more, and pairs of squares that each can matter (in
			// windows with k-p-1 stones). Any other pair holding a
			// square s1 of the second kind has s1's count; the rest
			// make no threat.
			listed := k-2*p >= int(b.hl) && len(b.thr[a].list) == 0
			// masked: the hot windows are numbered (buildHot) and the
			// windows through a square are a 64-bit mask.
			masked := listed && len(b.hot[a].list) <= 64
			var h1, c2 []game.Square
			if masked {
				h1, c2 = g.buildHot(b, a, k-p-1)
			} else {
				h1 = g.squares(b, a, k-p-1, 0)
			}
			g.h1st++
			for _, s := range h1 {
				g.inH1[s] = g.h1st
			}
			eval := g.ThreatsWith
			switch {
			case masked:
				eval = g.threatsMasked
			case listed:
				g.buildLists(b, a)
				eval = g.threatsListed
			}
			// pair evaluates the pair of squares s1, s2 (new in this
			// generation).
			pair := func(s1, s2 game.Square) {
				m := move2(s1, s2)
				if masked && minThreats >= 2 {
					// Each threat window the pair makes keeps an empty
					// square (a holds at most k-p-1 stones in it before,
					// k-p+1 <= k-1 after), so the threats are at most
					// the windows: fewer than minThreats are dropped by
					// add anyway.
					m1, m2 := g.sqm[s1], g.sqm[s2] // both in hot windows
					if bits.OnesCount64((m1|m2)&g.reach1|m1&m2&g.reach2) < minThreats {
						return
					}
				}
				// With neither stone in h1, every threat window the
				// pair makes holds both stones: fewer than two such
				// windows make at most one threat (the test above
				// covers this when masked).
				if !masked && listed && minThreats >= 2 && g.inH1[s1] != g.h1st && g.inH1[s2] != g.h1st && g.sharedWindows(s1, s2) < 2 {
					return
				}
				t := eval(b, a, s1, s2)
				add(m, t, g.ws)
			}
			if masked {
				// pairsInWindows over the hot windows (all of them hold
				// k-2p stones or more), from buildHot's empties.
				// A pair is new unless an earlier hot window holds both
				// squares (these are the first moves of the
				// generation), so the pairs need no seen set: the
				// later loops skip every pair sharing a hot window.
				for j := range g.hw {
					es := g.hemp[g.hoff[j]:g.hoff[j+1]]
					below := uint64(1)<<uint(j) - 1
					for x := 0; x < len(es); x++ {
						mx := g.sqm[es[x]] & below
						for y := x + 1; y < len(es); y++ {
							if mx&g.sqm[es[y]] == 0 {
								pair(es[x], es[y])
							}
						}
					}
				}
			} else {
				g.pairsInWindows(b, a, k-2*p, func(s1, s2 game.Square) {
					if g.firstTime(move2(s1, s2)) {
						pair(s1, s2)
					}
				})
			}
			// seen reports whether the pair s1, s2 was generated before
			// in this generation (and marks it).
			seen := func(s1, s2 game.Square) bool {
				if masked && g.hotMask(s1)&g.hotMask(s2) != 0 {
					return true
				}
				return !g.firstTime(move2(s1, s2))
			}
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
					if seen(s1, h1[j]) {
						continue
					}
					m := move2(s1, h1[j])
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
			if !masked {
				c2 = g.squares(b, a, k-2*p, 1)
			}
			var frees []game.Square // freeSquares, read once (the board does not change here)
			freesRead := false
			for i, s1 := range h1 {
				t1 := int(g.tone[i])
				if t1 < minThreats {
					continue
				}
				// The pair shares no window with k-2p stones (else
				// seen above): the threat windows are s1's alone.
				// So every such move has s1's defence count, computed
				// once (t1 >= minThreats: add would keep each).
				w1 := g.arena[g.off[i]:g.off[i+1]]
				defs, known := int32(0), false
				for _, s2 := range c2 {
					if m := move2(s1, s2); s2 != s1 && !seen(s1, s2) {
						if !known {
							defs, known = fixedDefs(t1, w1), true
						}
						out = append(out, ThreatMove{Move: m, Threats: t1, Defs: defs})
					}
				}
				if !freesRead {
					frees, freesRead = g.freeSquares(b, a, free), true
				}
				for _, s2 := range frees {
					if m := move2(s1, s2); s2 != s1 && !seen(s1, s2) {
						if !known {
							defs, known = fixedDefs(t1, w1), true
						}
						out = append(out, ThreatMove{Move: m, Threats: t1, Defs: defs})
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
func (g *MoveGen) pairsInWindows(b *Board, a game.Color, count int, f func(s1, s2 game.Square)) {
	if count < 0 {
		return
	}
	var es [game.MaxSide]game.Square
	b.eachLiveWindow(a, count, func(w int32) {
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
