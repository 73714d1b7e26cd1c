package proofbook

import (
	"encoding/binary"
	"fmt"
	"slices"

	"c6book/engine"
)

// Zones of book-level proofs. A proved position carries its relevance zone
// at its tolerance (its defender stone deficit, see deficit): up to that
// many extra defender stones placed outside the zone do not change the
// outcome. Zones are built bottom-up from the verdicts' zones and the
// children's zones by the rules of ALGORITHMS.md:
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
// the edges' symmetries.

// packSquares stores a zone: 2 bytes a square, sorted. A nil zone (no
// zone) is NULL; an empty zone is an empty blob.
func packSquares(sq []engine.Square) []byte {
	if sq == nil {
		return nil
	}
	out := make([]byte, 0, 2*len(sq))
	for _, s := range sq {
		out = binary.BigEndian.AppendUint16(out, uint16(s))
	}
	return out
}

func unpackSquares(r engine.Rules, data []byte, valid bool) ([]engine.Square, error) {
	if !valid {
		return nil, nil
	}
	if len(data)%2 != 0 {
		return nil, fmt.Errorf("bad stored zone (%d bytes)", len(data))
	}
	out := make([]engine.Square, len(data)/2)
	for i := range out {
		out[i] = engine.Square(binary.BigEndian.Uint16(data[2*i:]))
		if int(out[i]) >= r.Squares() {
			return nil, fmt.Errorf("bad stored zone (square %d)", out[i])
		}
	}
	return out, nil
}

// repMoveSym is repMove with the stabilizer symmetry g that maps m onto
// the representative: rep = g(m).
func repMoveSym(r engine.Rules, stab []int, m engine.Move) (engine.Move, int) {
	best, bv, g := m, packMove(m), 0
	for _, t := range stab[1:] {
		mt := r.TransformMove(t, m)
		if v := packMove(mt); v < bv {
			best, bv, g = mt, v, t
		}
	}
	return best, g
}

// childToParent maps a zone stored in the frame of the child reached by
// move m (parent's canonical frame) into the parent's frame; b is the
// parent's canonical board, with mover to play m. g, a symmetry of the
// parent's stones, is then applied inverted: the zone is for the move
// g⁻¹(m) when m is the representative g(m') of the move m' the caller has.
func childToParent(r engine.Rules, b *engine.Board, mover engine.Color, m engine.Move, zone []engine.Square, g int) []engine.Square {
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), mover)
	}
	_, csym := b.CanonicalKey()
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	inv, ginv := engine.InverseSymmetry(csym), engine.InverseSymmetry(g)
	out := make([]engine.Square, len(zone))
	for i, s := range zone {
		out[i] = r.Transform(ginv, r.Transform(inv, s))
	}
	return out
}

func sameZone(a, b []engine.Square) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return slices.Equal(a, b)
}
