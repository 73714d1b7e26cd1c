package proofcheck

import (
	"slices"

	"c6book/engine"
)

func sortSquares(sq []engine.Square) { slices.Sort(sq) }
