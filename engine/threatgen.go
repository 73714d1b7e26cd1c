package engine

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
	Move    Move
	Threats int
}

type moveGen struct {
	seen map[uint64]struct{}
	mark []uint32 // per-square stamp for candidate collection
	gen  uint32
}

func newMoveGen(r Rules) *moveGen {
	return &moveGen{seen: make(map[uint64]struct{}, 256), mark: make([]uint32, r.Squares())}
}

func moveKey(m Move) uint64 {
	var k uint64
	for i := 0; i < m.Len(); i++ {
		k = k<<16 | uint64(uint16(m.At(i))+1)
	}
	return k
}

// ThreatMoves returns the moves of a (to move) that leave a with at least
// minThreats threats, blocking all of the defender's threats; nil when the
// defender has more than p threats. If a already has a threat window the
// only move returned is the winning one, with p+1 threats. Only p <= 2 is
// supported.
func (b *Board) ThreatMoves(a Color, minThreats int, free FreePolicy) []ThreatMove {
	return newMoveGen(b.rules).generate(b, a, minThreats, free, nil)
}

// collect calls f for each empty square of a-live windows (no opponent
// stone) holding at least minCount stones of a, each square once.
func (g *moveGen) collect(b *Board, a Color, minCount int, f func(Square)) {
	g.gen++
	d := a.Opp()
	visit := func(w int32) {
		for _, s := range b.g.win(w) {
			if b.cells[s] == Empty && g.mark[s] != g.gen {
				g.mark[s] = g.gen
				f(s)
			}
		}
	}
	if minCount >= int(b.hl) {
		for _, w := range b.hot[a].list {
			if int(b.cnt[a][w]) >= minCount {
				visit(w)
			}
		}
		return
	}
	for w := int32(0); w < int32(b.g.nwin); w++ {
		if b.cnt[d][w] == 0 && int(b.cnt[a][w]) >= minCount {
			visit(w)
		}
	}
}

func (g *moveGen) squares(b *Board, a Color, minCount int) []Square {
	var out []Square
	g.collect(b, a, minCount, func(s Square) { out = append(out, s) })
	return out
}

func (g *moveGen) freeSquares(b *Board, a Color, policy FreePolicy) []Square {
	if policy == FreeAll {
		var out []Square
		for s, c := range b.cells {
			if c == Empty {
				out = append(out, Square(s))
			}
		}
		return out
	}
	return g.squares(b, a, 1)
}

func (g *moveGen) generate(b *Board, a Color, minThreats int, free FreePolicy, out []ThreatMove) []ThreatMove {
	p, k := b.rules.P, b.rules.K
	if mv, ok := b.WinningMove(a); ok {
		return append(out, ThreatMove{Move: mv, Threats: p + 1})
	}
	d := a.Opp()
	td := b.Threats(d)
	if td > p {
		return out
	}
	clear(g.seen)
	add := func(m Move, t int) {
		if t < minThreats {
			return
		}
		key := moveKey(m)
		if _, dup := g.seen[key]; dup {
			return
		}
		g.seen[key] = struct{}{}
		out = append(out, ThreatMove{Move: m, Threats: t})
	}
	blocks := []Move{{}}
	if td > 0 {
		normal, relaxed := b.CriticalDefences(d)
		blocks = append(normal, relaxed...)
	}
	for _, blk := range blocks {
		for i := 0; i < blk.Len(); i++ {
			b.Place(blk.At(i), a)
		}
		r := p - blk.Len()
		switch {
		case r == 0:
			add(blk, b.Threats(a))
		case r == 1:
			tb := b.Threats(a)
			cands := g.squares(b, a, k-p-1)
			for _, s := range cands {
				b.Place(s, a)
				t := b.Threats(a)
				b.Remove(s)
				add(blk.With(s), t)
			}
			if tb >= minThreats {
				for _, s := range g.freeSquares(b, a, free) {
					add(blk.With(s), tb)
				}
			}
		default: // r == 2, no block needed
			h1 := g.squares(b, a, k-p-1)
			c2 := g.squares(b, a, k-2*p)
			for _, s1 := range h1 {
				b.Place(s1, a)
				t1 := b.Threats(a)
				for _, s2 := range c2 {
					if s2 == s1 {
						continue
					}
					b.Place(s2, a)
					t := b.Threats(a)
					b.Remove(s2)
					add(NewMove(s1, s2), t)
				}
				if t1 >= minThreats {
					for _, s2 := range g.freeSquares(b, a, free) {
						if s2 != s1 {
							add(NewMove(s1, s2), t1)
						}
					}
				}
				b.Remove(s1)
			}
			// Two stones into one window that needs both.
			g.pairsInWindows(b, a, k-2*p, func(s1, s2 Square) {
				b.Place(s1, a)
				b.Place(s2, a)
				t := b.Threats(a)
				b.Remove(s2)
				b.Remove(s1)
				add(NewMove(s1, s2), t)
			})
		}
		for i := blk.Len() - 1; i >= 0; i-- {
			b.Remove(blk.At(i))
		}
	}
	return out
}

// pairsInWindows calls f for each pair of empty squares sharing an a-live
// window with exactly count stones of a.
func (g *moveGen) pairsInWindows(b *Board, a Color, count int, f func(s1, s2 Square)) {
	d := a.Opp()
	var es [MaxSide]Square
	visit := func(w int32) {
		n := 0
		for _, s := range b.g.win(w) {
			if b.cells[s] == Empty {
				es[n] = s
				n++
			}
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				f(es[i], es[j])
			}
		}
	}
	if count >= int(b.hl) {
		for _, w := range b.hot[a].list {
			if int(b.cnt[a][w]) == count {
				visit(w)
			}
		}
		return
	}
	if count < 0 {
		return
	}
	for w := int32(0); w < int32(b.g.nwin); w++ {
		if b.cnt[d][w] == 0 && int(b.cnt[a][w]) == count {
			visit(w)
		}
	}
}
