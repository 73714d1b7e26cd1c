package board

import "strings"

// Diagram draws the board as text, top row first: "B", "W" and "." per
// square, preceded by the side to move. Used in error messages and tests.
func (b *Board) Diagram() string {
	r := b.rules
	var sb strings.Builder
	sb.WriteString("to move " + b.toMove.String() + "\n")
	for y := r.N - 1; y >= 0; y-- {
		for x := 0; x < r.M; x++ {
			sb.WriteString(b.cells[r.Sq(x, y)].String())
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func dumpBoard(b *Board) string { return b.Diagram() }
