package session

import (
	"fmt"
	"strings"

	"c6book/engine/game"
)

// Stone order. game.Move keeps a turn's stones sorted (one
// representation per move: the book, transpositions and symmetry rely on
// it), so "h12k11" entered is the move k11h12. The order the user entered
// a turn's stones in (two taps, or a typed line) is a property of the
// line, not of the position: the cursor keeps it beside the line and
// prints the line's moves that way.

// maxOrders bounds the orders kept (they are forgotten all at once past
// it: printing falls back to the board order).
const maxOrders = 4096

// keepOrder records the order sq (a turn's stones) was entered in.
func (c *Cursor) keepOrder(sq ...game.Square) {
	if len(sq) < 2 {
		return
	}
	if c.order == nil || len(c.order) >= maxOrders {
		c.order = map[game.Move]string{}
	}
	var sb strings.Builder
	for _, s := range sq {
		sb.WriteString(game.SquareName(c.s.rules, s))
	}
	c.order[game.NewMove(sq...)] = sb.String()
}

// KeepOrder records the order in which turns (a LittleGolem turn list such
// as "j10 h12k11") write each turn's stones, for the line to print them
// so; it changes nothing else. A bad turn list is an error and nothing is
// recorded.
func (c *Cursor) KeepOrder(turns string) error {
	var all [][]game.Square
	for i, f := range strings.Fields(strings.NewReplacer(",", " ").Replace(turns)) {
		sq, err := game.ParseSquares(c.s.rules, f)
		if err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
		all = append(all, sq)
	}
	for _, sq := range all {
		c.keepOrder(sq...)
	}
	return nil
}

// MoveText names m as the line prints it: its stones in the order they
// were entered, else in board order.
func (c *Cursor) MoveText(m game.Move) string {
	if t, ok := c.order[m]; ok {
		return t
	}
	return game.MoveName(c.s.rules, m)
}

// LineMoveText is the i-th move of the line as it prints it (MoveText).
func (c *Cursor) LineMoveText(i int) string { return c.MoveText(c.line[i]) }
