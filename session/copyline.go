package session

import (
	"strings"

	"c6book/engine/game"
)

// CopyLine is the shown line, from the root to the shown position, in
// turn notation with each move as the line prints it (MoveText): what
// "Copy line" puts on the clipboard ("" at the root).
func (c *Cursor) CopyLine() string { return c.LineTextTo(c.cur) }

// LineTextTo is the line's first n moves as CopyLine writes them.
func (c *Cursor) LineTextTo(n int) string {
	n = min(max(n, 0), len(c.line))
	parts := make([]string, n)
	for i := range n {
		parts[i] = c.MoveText(c.line[i])
	}
	return strings.Join(parts, " ")
}

// LineWith is the shown line followed by m, as CopyLine writes it.
func (c *Cursor) LineWith(m game.Move) string {
	return strings.TrimSpace(c.CopyLine() + " " + c.MoveText(m))
}

// LabelSquare labels square q of the shown position with the next free
// letter, or takes its label away: an edit Undo takes back, as a tap with
// "Label squares" on.
func (h *History) LabelSquare(q game.Square) { h.toggleMark(q) }
