package board_test

import (
	"c6book/engine/board"
	"c6book/engine/internal/enginetest"
)

// init hands package enginetest's fixtures to the internal tests
// (export_test.go), which cannot import enginetest themselves.
func init() {
	board.RandomSolverPosition = enginetest.RandomSolverPosition
	board.RandomThreatenedPosition = enginetest.RandomThreatenedPosition
	board.ForEachCombo = enginetest.ForEachCombo
	board.PublicPositions = enginetest.PublicPositions
	board.LoadLGGames = enginetest.LoadLGGames
	board.SharedDataFile = enginetest.SharedDataFile
	board.RefPassOrder = enginetest.RefPassOrder
	board.RefWalkSquare = enginetest.RefWalkSquare
}
