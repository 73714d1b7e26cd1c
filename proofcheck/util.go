package proofcheck

import (
	"slices"

	"c6book/engine/game"
)

func sortSquares(sq []game.Square) { slices.Sort(sq) }
