package proofcheck

import (
	"context"
	"fmt"
	"math/bits"

	"c6book/engine/game"
)

// LineError is a failed check: the moves from the checked position to the
// position where the proof breaks, and why.
type LineError struct {
	Rules  game.Rules
	Line   []game.Move
	Reason string
}

func (e *LineError) Error() string {
	if len(e.Line) == 0 {
		return "at the root: " + e.Reason
	}
	return fmt.Sprintf("after %q: %s", game.FormatTurns(e.Rules, e.Line), e.Reason)
}

// treeChecker checks attacker strategies on its own board.
type treeChecker struct {
	ctx   context.Context
	b     *board
	a, d  int8
	nodes int64
	line  []game.Move
	// thin is set when some attacker move of the checked strategy leaves
	// fewer than p threats (the defender keeps a free stone): the
	// strategy is not a VCDT (λ1) strategy.
	thin bool
}

func newTreeChecker(ctx context.Context, b *board, attacker game.Color) *treeChecker {
	a := int8(attacker)
	return &treeChecker{ctx: ctx, b: b, a: a, d: 3 - a}
}

func (c *treeChecker) failf(format string, args ...any) error {
	return &LineError{Rules: c.b.rules(), Line: append([]game.Move(nil), c.line...), Reason: fmt.Sprintf(format, args...)}
}

func (c *treeChecker) tick() error {
	c.nodes++
	if c.nodes&1023 == 1 {
		return c.ctx.Err()
	}
	return nil
}

func (c *treeChecker) push(m game.Move) { c.line = append(c.line, m) }
func (c *treeChecker) pop()             { c.line = c.line[:len(c.line)-1] }

func (c *treeChecker) placeMove(m game.Move, col int8) {
	for i := 0; i < m.Len(); i++ {
		c.b.place(m.At(i), col)
	}
}

func (c *treeChecker) removeMove(m game.Move) {
	for i := m.Len() - 1; i >= 0; i-- {
		c.b.remove(m.At(i))
	}
}

// checkPosition validates the common inputs and sets up the board.
func checkPosition(r game.Rules, black, white []game.Square, attacker game.Color, tol int) (*board, error) {
	if attacker != game.Black && attacker != game.White {
		return nil, fmt.Errorf("proofcheck: attacker %d is not a player", attacker)
	}
	if tol < 0 {
		return nil, fmt.Errorf("proofcheck: negative tolerance %d", tol)
	}
	b, err := setUp(r, black, white)
	if err != nil {
		return nil, fmt.Errorf("proofcheck: %w", err)
	}
	return b, nil
}

// CheckTree checks strategy t from the position (black, white) with the
// attacker to move, at tolerance tol, and returns the zone it computes
// (sorted): a set of squares such that the attacker still wins by t when
// up to tol extra defender stones are put on empty squares outside it. A
// broken strategy returns a *LineError naming the first failing line;
// cancelling ctx returns ctx.Err().
func CheckTree(ctx context.Context, r game.Rules, black, white []game.Square, attacker game.Color, tol int, t *Tree) ([]game.Square, error) {
	b, err := checkPosition(r, black, white, attacker, tol)
	if err != nil {
		return nil, err
	}
	c := newTreeChecker(ctx, b, attacker)
	z, err := c.or(t, tol)
	if err != nil {
		return nil, err
	}
	return z.squares(), nil
}

// or checks strategy t with the attacker to move on c.b and returns its
// zone at tolerance tol.
func (c *treeChecker) or(t *Tree, tol int) (zone, error) {
	if err := c.tick(); err != nil {
		return nil, err
	}
	b := c.b
	r := b.rules()
	if b.hasRow(c.d) {
		return nil, c.failf("the defender has %d in a row", r.K)
	}
	z := newZone(len(b.cells))
	if b.hasRow(c.a) {
		return z, nil
	}
	if t == nil {
		return nil, c.failf("no attacker move")
	}
	m := t.Move
	name := game.MoveName(r, m)
	for i := 0; i < m.Len(); i++ {
		s := m.At(i)
		if !b.onBoard(s) {
			return nil, c.failf("attacker move %s: square %d is off the board", name, s)
		}
		if i > 0 && m.At(i-1) == s {
			return nil, c.failf("attacker move %s places two stones on %s", name, game.SquareName(r, s))
		}
		if b.cells[s] != 0 {
			return nil, c.failf("attacker move %s: %s is occupied", name, game.SquareName(r, s))
		}
	}
	if m.Len() > b.p {
		return nil, c.failf("attacker move %s has %d stones, more than %d", name, m.Len(), b.p)
	}
	before := b.empties
	six := b.makesRow(m, c.a)
	if t.Six && !six {
		return nil, c.failf("attacker move %s is marked as making %d in a row but does not", name, r.K)
	}
	if !six && m.Len() < b.p && m.Len() < before {
		return nil, c.failf("attacker move %s has %d stones, fewer than %d, and does not make %d in a row", name, m.Len(), b.p, r.K)
	}
	z.addMove(m)
	if six {
		b.addDefWin(z, c.d, tol)
		return z, nil
	}
	b.addDefWin(z, c.d, b.p+tol)
	c.placeMove(m, c.a)
	c.push(m)
	az, err := c.and(t, tol)
	c.pop()
	c.removeMove(m)
	if err != nil {
		return nil, err
	}
	z.union(az)
	return z, nil
}

// seminullMemo is the result of one seminull reply's sub-strategy.
type seminullMemo struct {
	done bool
	z    zone
	err  error
	used bool
}

// and checks every defender reply after the attacker's move t.Move (on
// c.b) and returns the AND-zone at tolerance tol.
func (c *treeChecker) and(t *Tree, tol int) (zone, error) {
	b := c.b
	r := b.rules()
	if b.hasThreat(c.d) {
		return nil, c.failf("the defender can make %d in a row at once", r.K)
	}
	z := newZone(len(b.cells))
	wins := b.threatWindows(c.a)
	for _, w := range wins {
		z.union(w)
	}
	b.addDefWin(z, c.d, b.p+tol)
	if hitWithin(wins, b.p-1) {
		c.thin = true
	}

	exact := make(map[game.Move]int)
	var semis []int
	for i := range t.Replies {
		rp := &t.Replies[i]
		if rp.Seminull {
			c.thin = true
			if rp.Move.Len() == 1 {
				semis = append(semis, i)
			}
			continue
		}
		if _, ok := exact[rp.Move]; !ok {
			exact[rp.Move] = i
		}
	}
	memo := make([]seminullMemo, len(t.Replies))
	semTol := tol + max(1, b.p-1)

	answer := func(dm game.Move) error {
		if i, ok := exact[dm]; ok {
			c.placeMove(dm, c.d)
			c.push(dm)
			cz, err := c.or(t.Replies[i].Then, tol)
			c.pop()
			c.removeMove(dm)
			if err != nil {
				return err
			}
			z.union(cz)
			return nil
		}
		var firstErr error
		for _, i := range semis {
			s := t.Replies[i].Move.At(0)
			if !dm.Contains(s) {
				continue
			}
			mm := &memo[i]
			if !mm.done {
				mm.done = true
				sm := game.NewMove(s)
				c.placeMove(sm, c.d)
				c.push(sm)
				mm.z, mm.err = c.or(t.Replies[i].Then, semTol)
				c.pop()
				c.removeMove(sm)
				if mm.err != nil {
					if _, ok := mm.err.(*LineError); !ok {
						return mm.err // cancelled
					}
				}
			}
			if mm.err != nil {
				if firstErr == nil {
					firstErr = mm.err
				}
				continue
			}
			inside := false
			for j := 0; j < dm.Len(); j++ {
				if x := dm.At(j); x != s && mm.z.has(x) {
					inside = true
				}
			}
			if inside {
				continue
			}
			if !mm.used {
				mm.used = true
				z.union(mm.z)
			}
			return nil
		}
		if firstErr != nil {
			return firstErr
		}
		return c.failf("defender reply %s is not covered", game.MoveName(r, dm))
	}
	if err := c.forDefenderMoves(wins, answer); err != nil {
		return nil, err
	}
	return z, nil
}

// forDefenderMoves calls f with every defender move (n = min(p, empties)
// stones on empty squares, sorted) that puts a stone in every window of
// wins; the others lose at once. A full board is a draw: it fails.
func (c *treeChecker) forDefenderMoves(wins []zone, f func(game.Move) error) error {
	b := c.b
	if b.empties == 0 {
		return c.failf("the board is full: a draw")
	}
	return enumerateHittingFree(b.free, min(b.p, b.empties), wins, f)
}

// enumerateHitting calls f with every n-subset of empties (sorted, in
// increasing order) that has a square in every set of wins
// (enumerateHittingFree on the set of empties).
func enumerateHitting(empties []game.Square, n int, wins []zone, size int, f func(game.Move) error) error {
	free := newZone(size)
	for _, s := range empties {
		free.add(s)
	}
	return enumerateHittingFree(free, n, wins, f)
}

// enumerateHittingFree calls f with every n-subset of free (sorted, in
// increasing order) that has a square in every set of wins. The last
// stone must hit every window the others missed, which prunes the
// enumeration: it is then drawn from the intersection of those windows
// alone, word by word of the bit sets, not looked for among all the
// empties; and when no empty square is in every window the others missed,
// the stone before the last must be in one of them. f may change free
// while it runs if it puts it back before it returns.
func enumerateHittingFree(free zone, n int, wins []zone, f func(game.Move) error) error {
	var sq [game.MaxPerTurn]game.Square
	words := len(free)
	scratch := make(zone, 5*words)
	need, anyWin, every := scratch[:words], scratch[words:2*words], scratch[2*words:3*words]
	union, inter := scratch[3*words:4*words], scratch[4*words:]
	// anyWin is the union of the windows and every their intersection:
	// the last stone of a move whose other stones are outside anyWin must
	// be in every.
	for i, w := range wins {
		anyWin.union(w)
		if i == 0 {
			copy(every, w)
		} else {
			for j := range every {
				every[j] &= w[j]
			}
		}
	}
	// missed intersects (into in) and unites (into un, when not nil) the
	// windows the stones sq[:k] miss; it reports whether there is one.
	missed := func(k int, in, un zone) bool {
		first := true
		for _, w := range wins {
			hit := false
			for j := 0; j < k; j++ {
				if w.has(sq[j]) {
					hit = true
					break
				}
			}
			if hit {
				continue
			}
			if first {
				copy(in, w)
				if un != nil {
					copy(un, w)
				}
				first = false
				continue
			}
			for i := range in {
				in[i] &= w[i]
			}
			if un != nil {
				un.union(w)
			}
		}
		return !first
	}
	var rec func(from, k int) error
	rec = func(from, k int) error {
		if k == n {
			return f(game.NewMove(sq[:n]...))
		}
		var set zone // nil: every empty square
		switch {
		case len(wins) == 0:
		case k == n-1:
			outside := true
			for j := 0; j < k && outside; j++ {
				outside = !anyWin.has(sq[j])
			}
			if outside {
				set = every
			} else if missed(k, need, nil) {
				set = need
			}
		case k == n-2:
			// A next stone outside every window the others missed leaves
			// the last stone all of them to hit: when no empty square is
			// in all of them, the next stone is in one of them.
			if missed(k, inter, union) {
				none := true
				for i := range inter {
					if inter[i]&free[i] != 0 {
						none = false
						break
					}
				}
				if none {
					set = union
				}
			}
		}
		// The empty squares from square from on (of set when not nil).
		for wi := from >> 6; wi < words; wi++ {
			bitsw := free[wi]
			if set != nil {
				bitsw &= set[wi]
			}
			if wi == from>>6 {
				bitsw &= ^uint64(0) << (uint(from) & 63)
			}
			for bitsw != 0 {
				s := wi*64 + bits.TrailingZeros64(bitsw)
				bitsw &= bitsw - 1
				sq[k] = game.Square(s)
				if err := rec(s+1, k+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return rec(0, 0)
}

// hitWithin reports whether at most k squares can put a stone in every
// window of wins (the attacker has at most k threats).
func hitWithin(wins []zone, k int) bool {
	var chosen []game.Square
	var rec func(k int) bool
	rec = func(k int) bool {
		var open zone
		for _, w := range wins {
			hit := false
			for _, s := range chosen {
				if w.has(s) {
					hit = true
					break
				}
			}
			if !hit {
				open = w
				break
			}
		}
		if open == nil {
			return true
		}
		if k <= 0 {
			return false
		}
		for _, s := range open.squares() {
			chosen = append(chosen, s)
			ok := rec(k - 1)
			chosen = chosen[:len(chosen)-1]
			if ok {
				return true
			}
		}
		return false
	}
	return rec(k)
}

// threatCount is the attacker's number of threats given its threat
// windows: the fewest squares hitting every window, or p+1 when p squares
// do not suffice.
func threatCount(wins []zone, p int) int {
	for t := 0; t <= p; t++ {
		if hitWithin(wins, t) {
			return t
		}
	}
	return p + 1
}
