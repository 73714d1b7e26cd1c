package c6book

import "c6book/engine/game"

// GameStats counts the games through a position (or a move: the games
// through the position it leads to) by result.
type GameStats struct {
	Games     int64 // games that reached the position
	BlackWins int64 // of which Black won
	WhiteWins int64 // of which White won
	// Unfinished counts the undecided games: the others, whose record
	// ends without six in a row on the board. A LittleGolem record holds
	// the moves only, so a game lost by resignation, on time or abandoned,
	// and a game drawn at the site's 150-turn limit, is undecided.
	Unfinished int64
}

// Decided is the number of games won by six in a row (Black's or
// White's): the base of BlackRate.
func (g GameStats) Decided() int64 { return g.BlackWins + g.WhiteWins }

// BlackRate is Black's share of the decided games through the position
// (0 to 1), and false when none is decided.
func (g GameStats) BlackRate() (float64, bool) {
	n := g.Decided()
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
	// Result is the winner of its last position, game.Empty when
	// unfinished (no six on the board).
	Result game.Color
}
