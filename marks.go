package c6book

// MarkShape is the shape of a board mark (SGF's CR, TR, SQ, MA and SL).
// Its bytes are what the book stores in a position's marks (JSON).
type MarkShape string

// Mark shapes; the empty shape is a mark that only has a text (SGF's LB).
const (
	MarkNone     MarkShape = ""
	MarkCircle   MarkShape = "circle"
	MarkTriangle MarkShape = "triangle"
	MarkSquare   MarkShape = "square"
	MarkCross    MarkShape = "cross"
	MarkSelect   MarkShape = "select"
)

// Glyph is how the board draws the shape as text: ○ △ □ ×, and • for the
// others.
func (s MarkShape) Glyph() string {
	switch s {
	case MarkCircle:
		return "○"
	case MarkTriangle:
		return "△"
	case MarkSquare:
		return "□"
	case MarkCross:
		return "×"
	}
	return "•"
}
