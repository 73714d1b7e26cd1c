package threat

import (
	"context"
	"errors"
	"fmt"

	"c6book/engine/board"
	"c6book/engine/game"
)

// CheckStrategy replays the solution tree st from b (attacker to move)
// against every legal defender reply, all of them, not only the ones the
// threat logic calls forced. A reply is answered by the tree's matching
// reply, or else by a seminull reply whose stone it contains, followed with
// the other stone left on the board; the zones are not trusted, they are put
// to the test. It returns nil when the attacker makes k in a row on every
// line, and an error naming the first position where the tree fails.
// limit bounds the number of positions examined (0: 10 million); running
// out returns ErrCheckBudget.
func CheckStrategy(ctx context.Context, b *board.Board, st *Strategy, limit int64) error {
	if b.Rules().P > game.MaxPerTurn {
		return ErrUnsupported
	}
	if limit <= 0 {
		limit = 10_000_000
	}
	c := &checker{ctx: ctx, b: b.Clone(), a: b.ToMove(), limit: limit, done: make(map[checkKey]bool)}
	return c.attacker(st, nil)
}

// ErrCheckBudget reports that CheckStrategy ran out of its position budget.
var ErrCheckBudget = errors.New("strategy check: position budget exhausted")

type checkKey struct {
	hash, chk uint64 // both hashes: a collision cannot pass a check
	st        *Strategy
}

type checker struct {
	ctx   context.Context
	b     *board.Board
	a     game.Color
	limit int64
	n     int64
	done  map[checkKey]bool
}

func (c *checker) fail(line []game.Move, format string, args ...any) error {
	return fmt.Errorf("strategy fails after %q: %s", game.FormatTurns(c.b.Rules(), line), fmt.Sprintf(format, args...))
}

func (c *checker) attacker(st *Strategy, line []game.Move) error {
	b := c.b
	d := c.a.Opp()
	if b.Full(d) {
		return c.fail(line, "the defender has already won")
	}
	if b.Full(c.a) {
		return nil
	}
	if st == nil {
		return c.fail(line, "no attacker move in the tree")
	}
	h, k := b.Hashes()
	key := checkKey{h, k, st}
	if c.done[key] {
		return nil
	}
	c.n++
	if c.n > c.limit {
		return ErrCheckBudget
	}
	if c.n&1023 == 0 {
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	m := st.Move
	for i := 0; i < m.Len(); i++ {
		if m.At(i) < 0 || int(m.At(i)) >= b.Rules().Squares() {
			return c.fail(line, "attacker move %s is off the board", game.MoveName(b.Rules(), m))
		}
		if b.At(m.At(i)) != game.Empty || i > 0 && m.At(i) == m.At(i-1) {
			return c.fail(line, "attacker move %s: %s is occupied", game.MoveName(b.Rules(), m), game.SquareName(b.Rules(), m.At(i)))
		}
	}
	if m.Len() == 0 || m.Len() > b.Rules().P {
		return c.fail(line, "attacker move %s has the wrong number of stones", game.MoveName(b.Rules(), m))
	}
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), c.a)
	}
	defer func() {
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
	}()
	line = append(line, m)
	if b.Full(c.a) {
		c.done[key] = true
		return nil
	}
	if m.Len() < b.Rules().P && m.Len() < b.Empties() {
		return c.fail(line, "short attacker move %s does not win", game.MoveName(b.Rules(), m))
	}
	if b.HasThreat(d) {
		return c.fail(line, "the defender can make %d in a row at once", b.Rules().K)
	}
	if err := c.defender(st, line); err != nil {
		return err
	}
	c.done[key] = true
	return nil
}

// defender tries every defender move after st.Move. A move that leaves one
// of the attacker's threat windows without a defender stone loses at once:
// the attacker fills that window next turn, and the defender, who has no
// threat window (attacker checked that), cannot make k in a row first. So
// only the moves that put a stone in every threat window are played out;
// the others are counted as refuted without placing them.
func (c *checker) defender(st *Strategy, line []game.Move) error {
	b := c.b
	d := c.a.Opp()
	p := b.Rules().P
	var empties []game.Square
	for s := range b.Rules().Squares() {
		v := b.At(game.Square(s))
		if v == game.Empty {
			empties = append(empties, game.Square(s))
		}
	}
	if len(empties) == 0 {
		return c.fail(line, "the board is full: a draw")
	}
	n := p
	if len(empties) < n {
		n = len(empties)
	}
	// The attacker's threat windows as sets of empty squares.
	var wins []game.SqSet
	for _, w := range b.ThreatWindowIDs(c.a) {
		var z game.SqSet
		for _, s := range b.WindowSquares(w) {
			if b.At(s) == game.Empty {
				z.Add(s)
			}
		}
		wins = append(wins, z)
	}
	var sq [game.MaxPerTurn]game.Square
	var rec func(start, k int) error
	rec = func(start, k int) error {
		if k == n {
			dm := game.NewMove(sq[:n]...)
			for i := 0; i < n; i++ {
				b.Place(sq[i], d)
			}
			err := c.afterDefence(st, dm, line)
			for i := n - 1; i >= 0; i-- {
				b.Remove(sq[i])
			}
			return err
		}
		// The last stone must hit every window the others missed.
		var need *game.SqSet
		var inter game.SqSet
		if k == n-1 {
			first := true
			for i := range wins {
				hit := false
				for j := 0; j < k; j++ {
					if wins[i].Has(sq[j]) {
						hit = true
						break
					}
				}
				if hit {
					continue
				}
				if first {
					inter, first = wins[i], false
				} else {
					inter.Intersect(&wins[i])
				}
				need = &inter
			}
		}
		for i := start; i < len(empties); i++ {
			if need != nil && !need.Has(empties[i]) {
				continue
			}
			sq[k] = empties[i]
			if err := rec(i+1, k+1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0, 0)
}

func (c *checker) afterDefence(st *Strategy, dm game.Move, line []game.Move) error {
	b := c.b
	d := c.a.Opp()
	line = append(line, dm)
	if b.Full(d) {
		return c.fail(line, "the defender made %d in a row", b.Rules().K)
	}
	if b.HasThreat(c.a) {
		return nil // the attacker makes k in a row now
	}
	// Exact reply first, then a seminull reply contained in the move.
	for i := range st.Replies {
		r := &st.Replies[i]
		if !r.Seminull && r.Move == dm {
			return c.attacker(r.Then, line)
		}
	}
	for i := range st.Replies {
		r := &st.Replies[i]
		if r.Seminull && r.Move.Len() > 0 && dm.Contains(r.Move.At(0)) {
			return c.attacker(r.Then, line)
		}
	}
	return c.fail(line, "defender reply %s is not covered by the tree", game.MoveName(b.Rules(), dm))
}
