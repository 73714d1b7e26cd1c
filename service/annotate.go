package service

import (
	"context"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// Annotation is what an expert writes on a position; nil fields are left
// as they are.
type Annotation struct {
	Comment, Label *string
	// Disproved and Held are for Attacker: the expert's disproof flag,
	// and "left to the expert" (the auto-pilot does not work there).
	Attacker        game.Color
	Disproved, Held *bool
}

// Annotate writes a on position b (any frame; it must be in the book).
func (bk *Book) Annotate(ctx context.Context, b *board.Board, a Annotation) error {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return err
	}
	return annotate(ctx, bk.pb, id, a)
}

// annotate writes a on position id, field by field.
func annotate(ctx context.Context, pb *proofbook.Book, id proofbook.PosID, a Annotation) error {
	if a.Comment != nil {
		if err := pb.SetComment(ctx, id, *a.Comment); err != nil {
			return err
		}
	}
	if a.Label != nil {
		if err := pb.SetLabel(ctx, id, *a.Label); err != nil {
			return err
		}
	}
	if a.Disproved != nil {
		if err := pb.SetDisproved(ctx, id, a.Attacker, *a.Disproved); err != nil {
			return err
		}
	}
	if a.Held != nil {
		if err := pb.SetHold(ctx, id, a.Attacker, *a.Held); err != nil {
			return err
		}
	}
	return nil
}
