package game

import (
	"fmt"
)

// Move is one turn: up to MaxPerTurn squares, kept sorted so that a move has
// one representation. The zero Move is the null move.
type Move struct {
	n uint8
	s [MaxPerTurn]Square
}

// NewMove builds a move from squares (sorted; at most MaxPerTurn are kept).
func NewMove(sq ...Square) Move {
	var m Move
	for _, s := range sq {
		if int(m.n) == MaxPerTurn {
			break
		}
		m.s[m.n] = s
		m.n++
	}
	// Insertion sort: at most MaxPerTurn squares, and no allocation (this
	// is on the move generators' hot path).
	for i := 1; i < int(m.n); i++ {
		for j := i; j > 0 && m.s[j] < m.s[j-1]; j-- {
			m.s[j], m.s[j-1] = m.s[j-1], m.s[j]
		}
	}
	return m
}

// ErrTooManyStones is MakeMove's error for more than MaxPerTurn squares.
var ErrTooManyStones = fmt.Errorf("a move has at most %d stones", MaxPerTurn)

// MakeMove builds a move from squares like NewMove, but refuses more than
// MaxPerTurn squares instead of dropping the rest: the constructor for moves
// read from users and files.
func MakeMove(sq ...Square) (Move, error) {
	if len(sq) > MaxPerTurn {
		return Move{}, fmt.Errorf("%w (got %d)", ErrTooManyStones, len(sq))
	}
	return NewMove(sq...), nil
}

// Len is the number of stones.
func (m Move) Len() int { return int(m.n) }

// At returns the i-th stone (sorted order).
func (m Move) At(i int) Square { return m.s[i] }

// Squares returns the stones as a new slice.
func (m Move) Squares() []Square { return append([]Square(nil), m.s[:m.n]...) }

// Contains reports whether s is one of the move's stones.
func (m Move) Contains(s Square) bool {
	for i := 0; i < int(m.n); i++ {
		if m.s[i] == s {
			return true
		}
	}
	return false
}

// With returns the move with s added.
func (m Move) With(s Square) Move { return NewMove(append(m.Squares(), s)...) }

// moveLess orders moves by size, then stone by stone.
func MoveLess(a, b Move) bool {
	if a.Len() != b.Len() {
		return a.Len() < b.Len()
	}
	for i := 0; i < a.Len(); i++ {
		if a.At(i) != b.At(i) {
			return a.At(i) < b.At(i)
		}
	}
	return false
}
