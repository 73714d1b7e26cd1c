package player

import (
	"sort"

	"c6book/engine/board"
	"c6book/engine/game"
)

// The attacker's candidate moves: threat moves and quiet moves near the
// stones ranked by the pattern score (rankCandidates, AttackerCandidates),
// and on the empty board the first turn's shapes at the centre
// (openingCandidates). The player (playcands.go) starts from them.

// AttackerCandidates ranks the moves of the player to move at b as an
// attacker, best first, at most n of them: threat moves and quiet moves
// built from the best single squares, every one blocking the opponent's
// threats; on an empty board, shapes at the centre. A winning move, if
// any, is the only one.
func AttackerCandidates(b *board.Board, n int) []game.Move {
	return rankCandidates(b, b.ToMove(), n)
}

// rankCandidates ranks attacker a's moves at b (a to move): threat moves and
// quiet moves built from the best single squares; every move blocks the
// defender's threats.
func rankCandidates(b *board.Board, a game.Color, n int) []game.Move {
	d := a.Opp()
	r := b.Rules()
	if b.Stones(game.Black)+b.Stones(game.White) == 0 {
		return openingCandidates(b, a, n)
	}
	if mv, ok := b.WinningMove(a); ok {
		return []game.Move{mv}
	}
	if b.Threats(d) > r.P {
		return nil
	}
	type cand struct {
		m     game.Move
		score float64
	}
	var cs []cand
	seen := map[game.Move]bool{}
	add := func(m game.Move) {
		if m.Len() != r.P || seen[m] {
			return
		}
		seen[m] = true
		for i := 0; i < m.Len(); i++ {
			b.Place(m.At(i), a)
		}
		ok := !b.HasThreat(d)
		sc := evalFor(b, a) + 1e6*float64(b.Threats(a))
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
		if ok {
			cs = append(cs, cand{m, sc})
		}
	}
	for _, tm := range b.ThreatMoves(a, 1, board.FreeNear) {
		add(tm.Move)
	}
	// Quiet moves: pairs of the best squares (after the blocks, if any).
	blocks := []game.Move{{}}
	if b.Threats(d) > 0 {
		normal, relaxed := b.CriticalDefences(d)
		blocks = append(normal, relaxed...)
	}
	for _, blk := range blocks {
		for i := 0; i < blk.Len(); i++ {
			b.Place(blk.At(i), a)
		}
		sq := bestSquares(b, a, 10)
		for i := blk.Len() - 1; i >= 0; i-- {
			b.Remove(blk.At(i))
		}
		switch r.P - blk.Len() {
		case 0:
			add(blk)
		case 1:
			for _, s := range sq {
				add(blk.With(s))
			}
		default:
			for i := range sq {
				for j := i + 1; j < len(sq); j++ {
					add(game.NewMove(sq[i], sq[j]))
				}
			}
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return game.MoveLess(cs[i].m, cs[j].m)
	})
	out := make([]game.Move, 0, n)
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.m)
	}
	return out
}

// bestSquares returns up to n empty squares next to the stones (distance
// 2), best for a first by the pattern score.
func bestSquares(b *board.Board, a game.Color, n int) []game.Square {
	r := b.Rules()
	type sv struct {
		s game.Square
		v float64
	}
	var all []sv
	for s := game.Square(0); int(s) < r.Squares(); s++ {
		if b.At(s) != game.Empty || !nearStone(b, s, 2) {
			continue
		}
		b.Place(s, a)
		v := evalFor(b, a)
		b.Remove(s)
		all = append(all, sv{s, v})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v > all[j].v })
	var out []game.Square
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].s)
	}
	return out
}

func nearStone(b *board.Board, s game.Square, dist int) bool {
	r := b.Rules()
	x, y := r.XY(s)
	for dy := -dist; dy <= dist; dy++ {
		for dx := -dist; dx <= dist; dx++ {
			if r.OnBoard(x+dx, y+dy) && b.At(r.Sq(x+dx, y+dy)) != game.Empty {
				return true
			}
		}
	}
	return false
}

// evalFor scores a position for a: its live windows weighted by stones,
// minus the defender's.
func evalFor(b *board.Board, a game.Color) float64 {
	d := a.Opp()
	var v float64
	for _, w := range b.Windows() { // the order of the float sum
		ca, cd := b.WindowStones(a, w), b.WindowStones(d, w)
		switch {
		case ca > 0 && cd == 0:
			v += float64(int(1) << (3 * ca))
		case cd > 0 && ca == 0:
			v -= 0.7 * float64(int(1)<<(3*cd))
		}
	}
	return v
}

// openingCandidates ranks a's first moves on the empty board: the shapes of
// the first turn's stones inside a small box at the centre, one per
// symmetry class, by the pattern score; with three stones or more, the
// shapes whose stones all lie on one line come last, and among the others
// the shapes that a mirror through a row or a column of the centre maps
// onto themselves come first. (The pattern score puts the lines first, but
// one line is what the defender blocks: in Connect(6,2,3) the three
// straight threes are the only shapes of the 3×3 box whose λ3 verdict
// leaves seminull moves open, every one of them a subtree of its own for
// the auto-pilot. The mirror shapes are the two triangles i9k9j10 and
// j9i10k10, each proved by one verifier call, and i9k9j11; the L shapes
// the pattern score put before the triangles are left open by theirs, at
// the cost of a whole verifier call each: `make bench-c623` proves the
// empty board with i9k9j10 in one call (docs/BENCHMARKS.md). A mirror shape's verifier call also solves
// only one of each pair of mirrored defender moves.)
func openingCandidates(b *board.Board, a game.Color, n int) []game.Move {
	r := b.Rules()
	q := r.StonesForTurn(b.Turn())
	side := 3
	if q > 3 {
		side = 5
	}
	side = min(side, r.M, r.N)
	x0, y0 := (r.M-side)/2, (r.N-side)/2
	var box []game.Square
	for y := y0; y < y0+side; y++ {
		for x := x0; x < x0+side; x++ {
			box = append(box, r.Sq(x, y))
		}
	}
	type cand struct {
		m      game.Move
		line   bool // every stone on one line (q >= 3)
		mirror bool // a mirror through the centre's row or column maps it onto itself (q >= 3)
		score  float64
	}
	var cs []cand
	seen := map[uint64]bool{}
	pick := make([]game.Square, 0, q)
	var rec func(from int)
	rec = func(from int) {
		if len(pick) == q {
			for _, s := range pick {
				b.Place(s, a)
			}
			key, _ := b.CanonicalKey()
			sc := evalFor(b, a)
			mirror := false
			if q >= 3 {
				for _, sym := range b.Stabilizer() {
					mirror = mirror || sym == 1 || sym == 2 // left-right, top-bottom
				}
			}
			for i := len(pick) - 1; i >= 0; i-- {
				b.Remove(pick[i])
			}
			if !seen[key] {
				seen[key] = true
				cs = append(cs, cand{game.NewMove(pick...), q >= 3 && collinear(r, pick), mirror, sc})
			}
			return
		}
		for i := from; i < len(box); i++ {
			pick = append(pick, box[i])
			rec(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	if q <= len(box) {
		rec(0)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].line != cs[j].line {
			return !cs[i].line
		}
		if cs[i].mirror != cs[j].mirror {
			return cs[i].mirror
		}
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return game.MoveLess(cs[i].m, cs[j].m)
	})
	var out []game.Move
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.m)
	}
	return out
}

// collinear reports whether the squares lie on one horizontal, vertical or
// diagonal line.
func collinear(r game.Rules, sq []game.Square) bool {
	if len(sq) < 2 {
		return true
	}
	x0, y0 := r.XY(sq[0])
	x1, y1 := r.XY(sq[1])
	dx, dy := x1-x0, y1-y0
	if dx != 0 && dy != 0 && dx != dy && dx != -dy {
		return false
	}
	for _, s := range sq[2:] {
		x, y := r.XY(s)
		ex, ey := x-x0, y-y0
		if ex*dy != ey*dx { // not on the line through the first two
			return false
		}
	}
	return true
}
