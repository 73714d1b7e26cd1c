package session

import (
	"c6book/engine/board"
	"c6book/engine/game"
)

// Picture is what an image of a position shows, the data of the board
// export (PNG): the stones and, with the overlay, what the book holds on
// them, in the orientation of the board asked for. The renderer is the
// workbench's board widget (ui); a headless program gets the same data
// from service.Store.Picture.
type Picture struct {
	Pos *board.Board
	// Overlay: the book's data below is drawn (else the stones only).
	Overlay bool
	// Zone is the verdict's null-move zone; Unsolved its items, the
	// defender moves left to prove (each square marked with the number of
	// items it belongs to).
	Zone     []game.Square
	Unsolved []game.Move
	// Children are the stored replies in the Replies list's order: each is
	// marked with its letter in its status colour.
	Children []Child
	// Marks are the note's marks (text, or a shape's glyph, on a square).
	Marks map[game.Square]string
}

// PictureOf is the picture of position b from what the book holds on it
// (info and kids, as the BookStore gives them for b): with overlay the
// verdict's zone and items, the replies and the marks; else the stones
// only.
func PictureOf(b *board.Board, info Position, kids []Child, overlay bool) Picture {
	p := Picture{Pos: b, Overlay: overlay}
	if !overlay {
		return p
	}
	p.Children, p.Marks = kids, info.Marks
	if vd := info.Verdict; vd != nil {
		p.Unsolved = vd.Items()
		p.Zone = vd.NullZone
	}
	return p
}
