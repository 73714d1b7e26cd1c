package board

import (
	"c6book/engine/game"
)

// DefenderDeficit returns the number of stones the defender (attacker's
// opponent) lacks on board b compared with full turns: 0 for a position
// reached by full turns, 1 below a seminull move, p below a null move. It
// is the tolerance a proof of the position must have (VerifyOptions,
// Params). ok is false when the attacker's own stones are not exactly
// those of its full turns, or the defender has too many: such a position
// cannot be proved for attacker.
func (b *Board) DefenderDeficit(attacker game.Color) (deficit int, ok bool) {
	return stoneDeficit(b.rules, b.count[game.Black], b.count[game.White], b.toMove, attacker)
}

func stoneDeficit(r game.Rules, black, white int, toMove, a game.Color) (int, bool) {
	na, nd := black, white
	if a == game.White {
		na, nd = white, black
	}
	var turnsA int
	switch {
	case a == game.Black && na == 0:
		turnsA = 0
	case a == game.Black && na >= r.Q && (na-r.Q)%r.P == 0:
		turnsA = (na-r.Q)/r.P + 1
	case a == game.White && na%r.P == 0:
		turnsA = na / r.P
	default:
		return 0, false
	}
	// Black moves first: after Black's move (White to move) Black has one
	// turn more than White.
	turnsD := turnsA
	switch {
	case a == game.Black && toMove == game.White:
		turnsD = turnsA - 1
	case a == game.White && toMove == game.White:
		turnsD = turnsA + 1
	}
	if turnsD < 0 {
		return 0, false
	}
	want := r.P * turnsD
	if a == game.White && turnsD > 0 {
		want = r.Q + r.P*(turnsD-1)
	}
	if nd > want {
		return 0, false
	}
	return want - nd, true
}
