package board

import (
	"c6book/engine/game"
)

// addDefenderWindows adds the empties of windows holding no attacker stone
// and at most maxEmpties empty squares.
func (b *Board) AddDefenderWindows(z *game.SqSet, a game.Color, maxEmpties int) {
	d := a.Opp()
	k := b.rules.K
	minCount := k - maxEmpties
	if minCount > k {
		return
	}
	add := func(w int32) {
		for _, s := range b.g.win(w) {
			if b.cells[s] == game.Empty {
				z.Add(s)
			}
		}
	}
	b.eachLiveWindow(d, minCount, add)
}

// addThreatWindows adds the empties of every threat window of c.
func (b *Board) AddThreatWindows(z *game.SqSet, c game.Color) {
	for _, w := range b.thr[c].list {
		for _, s := range b.g.win(w) {
			if b.cells[s] == game.Empty {
				z.Add(s)
			}
		}
	}
}

// ThreatWindowEmpties returns the empty squares of c's threat windows
// (sorted): the squares extra defender stones must avoid for c's threats to
// stand.
func (b *Board) ThreatWindowEmpties(c game.Color) []game.Square {
	z := new(game.SqSet)
	b.AddThreatWindows(z, c)
	return z.Squares()
}

// DefenderWindowEmpties returns the empty squares (sorted) of every window
// without an attacker stone that has at most maxEmpties empty squares: the
// windows that maxEmpties defender stones could fill.
func (b *Board) DefenderWindowEmpties(attacker game.Color, maxEmpties int) []game.Square {
	z := new(game.SqSet)
	b.AddDefenderWindows(z, attacker, maxEmpties)
	return z.Squares()
}

// The windows of a board: every segment of K squares on a line has a
// number, fixed by the rules. The slices returned below are the board's
// shared tables: read them, never write them.

// Windows returns every window, in the order of a full scan (direction,
// then row, then column of its first square).
func (b *Board) Windows() []int32 { return b.g.scan }

// WindowsThrough returns the windows through square s.
func (b *Board) WindowsThrough(s game.Square) []int32 { return b.g.sqWins[s] }

// WindowSquares returns the K squares of window w.
func (b *Board) WindowSquares(w int32) []game.Square { return b.g.win(w) }

// ThreatWindowIDs returns c's threat windows (no stone of the opponent and
// at most p empty squares), in the board's order.
func (b *Board) ThreatWindowIDs(c game.Color) []int32 { return b.thr[c].list }

// Full reports whether c has K in a row.
func (b *Board) Full(c game.Color) bool { return b.full[c] > 0 }
