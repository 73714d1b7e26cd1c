package c6book

import "c6book/engine"

// GameStats counts the games through a position (or a move: the games
// through the position it leads to) by result.
type GameStats struct {
	Games      int64 // games that reached the position
	BlackWins  int64 // of which Black won
	WhiteWins  int64 // of which White won
	Unfinished int64 // the others: no six on the board at their end
}

// BlackRate is Black's share of the finished games through the position
// (0 to 1), and false when none is finished.
func (g GameStats) BlackRate() (float64, bool) {
	n := g.BlackWins + g.WhiteWins
	if n == 0 {
		return 0, false
	}
	return float64(g.BlackWins) / float64(n), true
}

// GameInfo is one stored game, as listed under a position (a row of the
// Games pane).
type GameInfo struct {
	ID     int64  // the book's id of the game
	Source string // its origin ("littlegolem")
	ExtID  string // its id there
	Turns  int    // its length in turns
	// Result is the winner of its last position, engine.Empty when
	// unfinished (no six on the board).
	Result engine.Color
}
