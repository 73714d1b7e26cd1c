package proofcheck

import (
	"context"
	"slices"
	"testing"

	"c6book/engine/game"
)

// A move that makes k in a row may place fewer stones than a turn: the
// position it reaches is won whatever its stone counts (which are then not
// those of full turns), also when it is checked as a root (Book.Check
// checks every proved position).
func TestCheckBookShortWinningMove(t *testing.T) {
	r := game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}
	a := game.Black
	sq := func(x, y int) game.Square { return r.Sq(x, y) }
	black := []game.Square{sq(3, 0), sq(3, 1), sq(3, 2)}
	white := []game.Square{sq(0, 6), sq(1, 6), sq(5, 6), sq(6, 6)}
	all := make([]game.Square, r.Squares())
	for i := range all {
		all[i] = game.Square(i)
	}
	world := map[int64]*wnode{
		1: {id: 1, black: black, white: white, toMove: a, claim: all, edges: []Edge{{Move: game.NewMove(sq(3, 3)), Child: 2}}},
		2: {id: 2, black: append(slices.Clone(black), sq(3, 3)), white: white, toMove: a.Opp(), claim: []game.Square{}},
	}
	if _, err := CheckBook(context.Background(), store(r, world, a), []Root{{ID: 1, Attacker: a}, {ID: 2, Attacker: a}}, nil); err != nil {
		t.Fatalf("a one-stone move making %d in a row: %v", r.K, err)
	}
}
