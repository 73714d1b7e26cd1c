package proofbook

import (
	"encoding/binary"
	"fmt"

	"c6book/engine/game"
)

// Zones of book-level proofs. A proved position carries its relevance zone
// at its tolerance (its defender stone deficit, see deficit): up to that
// many extra defender stones placed outside the zone do not change the
// outcome. Zones are built bottom-up from the verdicts' zones and the
// children's zones by the rules of docs/ALGORITHMS.md (relevance zones):
//
//   - the attacker has k in a row: the empty zone;
//   - attacker to move, proved by its move m: m's squares, the defender
//     windows that p+t stones could fill (t for a move that makes k in a
//     row), and the child's zone;
//   - defender to move: the verdict's zone, the zone of every item (each
//     unsolved move's child), and for each open seminull stone s the zone
//     Z(s) of the seminull position with the zones of the moves (s, x), x in
//     Z(s), it leaves to prove.
//
// Zones are stored in each position's canonical frame and mapped through
// the edges' symmetries (the rules, in c6book's rules.go, build them).

// packSquares stores a zone: 2 bytes a square, sorted. A nil zone (no
// zone) is NULL; an empty zone is an empty blob.
func packSquares(sq []game.Square) []byte {
	if sq == nil {
		return nil
	}
	out := make([]byte, 0, 2*len(sq))
	for _, s := range sq {
		out = binary.BigEndian.AppendUint16(out, uint16(s))
	}
	return out
}

func unpackSquares(r game.Rules, data []byte, valid bool) ([]game.Square, error) {
	if !valid {
		return nil, nil
	}
	if len(data)%2 != 0 {
		return nil, fmt.Errorf("bad stored zone (%d bytes)", len(data))
	}
	out := make([]game.Square, len(data)/2)
	for i := range out {
		out[i] = game.Square(binary.BigEndian.Uint16(data[2*i:]))
		if int(out[i]) >= r.Squares() {
			return nil, fmt.Errorf("bad stored zone (square %d)", out[i])
		}
	}
	return out, nil
}
