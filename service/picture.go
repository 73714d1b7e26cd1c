package service

import (
	"context"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// Picture is the data of a board image of position b for attacker a
// (the board export: session.PictureOf over what the book holds on b, in
// b's orientation); the renderer is the workbench's. Without overlay the
// stones only, and the book is not read.
func (s *Store) Picture(ctx context.Context, b *board.Board, a game.Color, overlay bool) (session.Picture, error) {
	b = b.Clone()
	if !overlay {
		return session.PictureOf(b, session.Position{}, nil, false), nil
	}
	info, err := s.Position(ctx, b, a)
	if err != nil {
		return session.Picture{}, err
	}
	kids, err := s.Children(ctx, b, a)
	if err != nil {
		return session.Picture{}, err
	}
	return session.PictureOf(b, info, kids, true), nil
}
