package board

import (
	"fmt"

	"c6book/engine/game"
)

// Replay plays turns from the empty board and returns the position. An
// illegal turn returns an error naming it; the board is then as it was
// before that turn.
func Replay(r game.Rules, turns []game.Move) (*Board, error) { return replay(r, turns, false) }

// ReplayPartial is Replay for a proof line: a turn with fewer stones than
// the rules place ("-" for the null move, one stone for a seminull move) is
// played as a partial turn (Board.PlayPartial).
func ReplayPartial(r game.Rules, turns []game.Move) (*Board, error) { return replay(r, turns, true) }

func replay(r game.Rules, turns []game.Move, partial bool) (*Board, error) {
	b, err := NewBoard(r)
	if err != nil {
		return nil, err
	}
	for _, m := range turns {
		if err := b.play(m, partial); err != nil {
			return b, fmt.Errorf("%s: %w", game.MoveName(r, m), err)
		}
	}
	return b, nil
}

// ReplayText parses and replays a LittleGolem turn list.
func ReplayText(r game.Rules, text string) (*Board, error) {
	turns, err := game.ParseTurns(r, text)
	if err != nil {
		return nil, err
	}
	return Replay(r, turns)
}
