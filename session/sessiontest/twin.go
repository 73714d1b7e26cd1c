package sessiontest

import (
	"context"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// TwinProved is Store with one position (by its hash, Pos) given as the
// proof book gives a position proved by its twin: the position without
// the defender's stone on Stone.
type TwinProved struct {
	*Store
	Pos   uint64
	Stone game.Square
}

// Position is Store's, with the twin's proof at Pos.
func (s TwinProved) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	p, err := s.Store.Position(ctx, b, a)
	if err == nil && b.Hash() == s.Pos {
		p.Status, p.ByTwin, p.TwinStone = c6book.StatusProved, true, s.Stone
	}
	return p, err
}
