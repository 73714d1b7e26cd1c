package engine

import (
	"fmt"
)

// Replay plays turns from the empty board and returns the position. An
// illegal turn returns an error naming it; the board is then as it was
// before that turn.
func Replay(r Rules, turns []Move) (*Board, error) { return replay(r, turns, false) }

// ReplayPartial is Replay for a proof line: a turn with fewer stones than
// the rules place ("-" for the null move, one stone for a seminull move) is
// played as a partial turn (Board.PlayPartial).
func ReplayPartial(r Rules, turns []Move) (*Board, error) { return replay(r, turns, true) }

func replay(r Rules, turns []Move, partial bool) (*Board, error) {
	b, err := NewBoard(r)
	if err != nil {
		return nil, err
	}
	for _, m := range turns {
		if err := b.play(m, partial); err != nil {
			return b, fmt.Errorf("%s: %w", MoveName(r, m), err)
		}
	}
	return b, nil
}

// ReplayText parses and replays a LittleGolem turn list.
func ReplayText(r Rules, text string) (*Board, error) {
	turns, err := ParseTurns(r, text)
	if err != nil {
		return nil, err
	}
	return Replay(r, turns)
}
