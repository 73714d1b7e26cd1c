package board

import (
	"encoding/binary"
	"sort"

	"c6book/engine/game"
)

// Canonical keys: the book stores a position once for all its symmetric
// images. The canonical key is the minimum, over the board symmetries, of the
// Zobrist key of the transformed stones (with the side to move); the
// symmetry that reaches it is returned so moves can be mapped.

// CanonicalKey returns the canonical key of the position and the symmetry id
// that maps the board onto its canonical image. Ties pick the lowest id.
func (b *Board) CanonicalKey() (key uint64, sym int) {
	var h [8]uint64
	n := len(b.g.syms)
	for s, c := range b.cells {
		if c == game.Empty {
			continue
		}
		for i := 0; i < n; i++ {
			h[i] ^= b.g.zob(c, b.g.syms[i].map_[s]).key
		}
	}
	key, sym = h[0], 0
	for i := 1; i < n; i++ {
		if h[i] < key {
			key, sym = h[i], i
		}
	}
	if b.toMove == game.White {
		key ^= sideKey
	}
	return key, sym
}

// CanonicalStones encodes the stones under symmetry sym as bytes: for each
// stone of the image, sorted by square, 2 bytes of square and 1 of colour,
// then one byte for the side to move. Two positions with equal encodings are
// the same position up to symmetry. (The book stores its own encoding of
// the canonical stones, proofbook's encodeStones, to detect hash
// collisions.)
func (b *Board) CanonicalStones(sym int) []byte {
	type st struct {
		s game.Square
		c game.Color
	}
	list := make([]st, 0, b.count[game.Black]+b.count[game.White])
	m := b.g.syms[sym].map_
	for s, c := range b.cells {
		if c != game.Empty {
			list = append(list, st{m[s], c})
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].s < list[j].s })
	out := make([]byte, 0, 3*len(list)+1)
	for _, e := range list {
		out = binary.BigEndian.AppendUint16(out, uint16(e.s))
		out = append(out, byte(e.c))
	}
	return append(out, byte(b.toMove))
}

// Transformed returns a new board with every stone mapped by symmetry sym
// (same side to move, no history).
func (b *Board) Transformed(sym int) *Board {
	nb := emptyBoard(b.g) // same rules: share the geometry
	m := b.g.syms[sym].map_
	for s, c := range b.cells {
		if c != game.Empty {
			nb.Place(m[s], c)
		}
	}
	nb.toMove = b.toMove
	nb.turn = b.turn
	nb.setup = true
	return nb
}

// Canonical returns the position's canonical image (the symmetry of
// CanonicalKey) as a new board built square by square in increasing order,
// so that its internal state (and with it the order in which the searches
// try moves) depends on the position alone, not on the order the stones
// were played or on the orientation it was entered in. sym maps b onto it.
func (b *Board) Canonical() (cb *Board, sym int) {
	_, sym = b.CanonicalKey()
	nb := emptyBoard(b.g)
	inv := b.g.syms[game.InverseSymmetry(sym)].map_
	for t := range nb.cells {
		if c := b.cells[inv[t]]; c != game.Empty {
			nb.Place(game.Square(t), c)
		}
	}
	nb.toMove = b.toMove
	nb.turn = b.turn
	nb.setup = true
	return nb, sym
}

// Stabilizer lists the symmetries (0, the identity, first) that map the
// position onto itself: every stone onto a stone of its colour (the side to
// move is b's either way).
func (b *Board) Stabilizer() []int {
	out := []int{0}
	for i := 1; i < len(b.g.syms); i++ {
		m := b.g.syms[i].map_
		same := true
		for s, c := range b.cells {
			if b.cells[m[s]] != c {
				same = false
				break
			}
		}
		if same {
			out = append(out, b.g.syms[i].id)
		}
	}
	return out
}
