package autopilot

import (
	"context"
	"errors"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// Twin moves (issue 33, item 2: λ3 that closes).
//
// A closed seminull item s leaves its family, the full moves (s, x) with x
// in the zone of D+s's proof: at tolerance 1 that zone covered 238 to 256
// squares on Mickey Mouse, so a family has hundreds of members, and the
// family job's answer proves none of them at once when its own verdict in
// D+s left defender replies that the book proved deeper. Below the answer
// every member then meets again, one stone x apart, the positions of D+s's
// proof, and the player searched each of them anew.
//
// The position Q' of a member with its stone x taken off is Q, a position
// of D+s's proof, with the same side to move; when the book has Q proved,
// the move that proved it is the first move tried at Q': the same strategy
// with one more defender stone, which wins unless x stands in its way.
// twinMoves finds these moves for any attacker-to-move position, one per
// defender stone whose removal leaves a proved position. They are
// candidates only: each counts when the verifier proves it at Q' and
// proofcheck re-checks the certificate, like every move.

// maxTwinStones bounds the defender stones twinMoves takes off (the first
// in board order): each costs a lookup in the book.
const maxTwinStones = 40

// twinMoves returns, for the attacker-to-move position b (any frame), the
// moves that proved the positions b less one defender stone
// (bestAnswer), in b's frame, legal in b, without repeats.
func twinMoves(ctx context.Context, bk Store, b *board.Board, a game.Color) ([]game.Move, error) {
	if b.ToMove() != a || b.Winner() != game.Empty {
		return nil, nil
	}
	r := b.Rules()
	tb := b.Clone()
	var out []game.Move
	seen := map[game.Move]bool{}
	for i, x := range tb.StoneList(a.Opp()) {
		if i == maxTwinStones {
			break
		}
		tb.Remove(x)
		id, sym, err := bk.Locate(ctx, tb)
		tb.Place(x, a.Opp())
		switch {
		case errors.Is(err, proofbook.ErrNotFound):
			continue
		case err != nil:
			return nil, err
		}
		n, err := bk.AutoNode(ctx, id, a)
		if err != nil {
			return nil, err
		}
		if n.Proof.Status != c6book.StatusProved {
			continue
		}
		m, ok, err := bestAnswer(ctx, bk, id, a)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		mm := proofbook.FromCanonical(r, sym, m) // into b's frame
		if b.Check(mm, false) == nil && !seen[mm] {
			seen[mm] = true
			out = append(out, mm)
		}
	}
	return out, nil
}
