package session

import (
	"c6book"
	"context"
	"fmt"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Browsing keeps the user's place: a position opened from a list shows in
// the orientation of the line the user is on when that line meets it, a
// game opened from the Games pane continues the user's line.

// orientLine returns the line to show for target, a line from the root in
// any orientation, given the user's line: the user's line up to the last
// position the two lines share (up to symmetry, at the same depth), then
// the rest of target mapped into the user's orientation there; when the
// target's position is on the user's line, the user's line itself with the
// cursor on it. With nothing shared but the root, target as it is.
func orientLine(empty *board.Board, user, target []game.Move) (line []game.Move, cur int, err error) {
	tb, err := replay(empty, nil)
	if err != nil {
		return nil, 0, err
	}
	type canon struct {
		key  uint64
		side game.Color
		sym  int
	}
	at := func(b *board.Board) canon {
		k, sym := b.CanonicalKey()
		return canon{k, b.ToMove(), sym}
	}
	tks := []canon{at(tb)}
	for i, m := range target {
		if err := tb.PlayPartial(m); err != nil {
			return nil, 0, fmt.Errorf("the line to open, turn %d (%s): %w", i+1, game.MoveName(tb.Rules(), m), err)
		}
		tks = append(tks, at(tb))
	}
	end := tks[len(tks)-1]
	ub := empty.Clone()
	uks := []canon{at(ub)}
	for _, m := range user {
		if ub.PlayPartial(m) != nil {
			break
		}
		uks = append(uks, at(ub))
	}
	// The target's position on the user's line: keep the line.
	for j, k := range uks {
		if k.key == end.key && k.side == end.side {
			return append([]game.Move(nil), user...), j, nil
		}
	}
	j := 0
	for i := min(len(tks), len(uks)) - 1; i > 0; i-- {
		if tks[i].key == uks[i].key && tks[i].side == uks[i].side {
			j = i
			break
		}
	}
	r := empty.Rules()
	line = append(make([]game.Move, 0, len(target)), user[:j]...)
	inv := game.InverseSymmetry(uks[j].sym)
	for _, m := range target[j:] {
		line = append(line, r.TransformMove(inv, r.TransformMove(tks[j].sym, m)))
	}
	return line, len(line), nil
}

// LoadGames lists the games through the shown position, offset and limit
// paging them; done gets them and their total on the UI goroutine, unless
// the user has moved on meanwhile.
func (c *Cursor) LoadGames(offset, limit int, done func(games []c6book.GameInfo, total int64)) {
	b := c.pos.Clone()
	c.s.call(func(ctx context.Context, store BookStore) func() {
		gs, total, err := store.GamesThrough(ctx, b, offset, limit)
		return func() {
			if err != nil {
				c.s.fail(err)
				return
			}
			if keyOf(c.pos) == keyOf(b) {
				done(gs, total)
			}
		}
	})
}

// OpenGame shows game id, one of the games through the shown position, in
// the orientation of the user's line: the line to the shown position, then
// the rest of the game (→ steps through it).
func (c *Cursor) OpenGame(id int64) {
	b, prefix := c.pos.Clone(), c.prefix()
	c.s.call(func(ctx context.Context, store BookStore) func() {
		written, err := store.Game(ctx, id, b)
		return func() {
			if err != nil {
				c.s.fail(fmt.Errorf("game %d: %w", id, err))
				return
			}
			if keyOf(c.pos) != keyOf(b) {
				return // the user moved on meanwhile
			}
			turns := make([]game.Move, len(written))
			for i, sq := range written {
				turns[i] = game.NewMove(sq...)
				c.keepOrder(sq...)
			}
			k, ok := reachAt(c.s.empty, turns, b)
			if !ok {
				c.s.fail(fmt.Errorf("game %d does not reach this position", id))
				return
			}
			c.goTo(append(prefix, turns[k:]...), len(prefix))
		}
	})
}

// reachAt is the number of turns of a game (in b's orientation) after
// which it shows b.
func reachAt(empty *board.Board, turns []game.Move, b *board.Board) (int, bool) {
	g := empty.Clone()
	for i := 0; ; i++ {
		if g.Hash() == b.Hash() && g.ToMove() == b.ToMove() {
			return i, true
		}
		if i == len(turns) || g.PlayPartial(turns[i]) != nil {
			return 0, false
		}
	}
}
