package board

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
)

// The board's own tests use these fixtures of package enginetest.
// enginetest imports this package, so these internal tests cannot import
// it; the external test file enginetest_test.go (package board_test) sets
// these to enginetest's functions in its init, which runs before any test
// or benchmark.
var (
	RandomSolverPosition     func(rng *rand.Rand, r game.Rules, nA, nD int) *Board
	RandomThreatenedPosition func(rng *rand.Rand, r game.Rules, nA, nD int) *Board
	ForEachCombo             func(sq []game.Square, n int, f func([]game.Square) bool)
	PublicPositions          func(tb testing.TB) []*Board
	LoadLGGames              func(tb testing.TB) (gids []string, games map[string][]string)
	SharedDataFile           func(tb testing.TB, rel string) string
	RefPassOrder             func(b *Board) []int32
	RefWalkSquare            func(rng *rand.Rand, b *Board, placed []game.Square) game.Square
)
