package proofbook

import (
	"encoding/binary"
	"fmt"
	"slices"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Moves are stored packed in an int64 (c6book.PackMove).
func packMove(m game.Move) int64 { return c6book.PackMove(m) }

func unpackMove(v int64) (game.Move, error) { return c6book.UnpackMove(v) }

// stone is one stone of a canonical stone set.
type stone struct {
	sq game.Square
	c  game.Color
}

// canonStones returns b's stones mapped by symmetry sym, sorted by square.
func canonStones(r game.Rules, b *board.Board, sym int) []stone {
	out := make([]stone, 0, b.Stones(game.Black)+b.Stones(game.White))
	for c := game.Black; c <= game.White; c++ {
		for _, s := range b.StoneList(c) {
			out = append(out, stone{r.Transform(sym, s), c})
		}
	}
	slices.SortFunc(out, func(a, b stone) int { return int(a.sq) - int(b.sq) })
	return out
}

// encodeStones is the stored canonical stone set of b: 2 bytes a stone,
// square*2 + colour-1, sorted by square. The side to move is stored apart.
func encodeStones(r game.Rules, b *board.Board, sym int) []byte {
	return encodeList(canonStones(r, b, sym))
}

func encodeList(list []stone) []byte {
	out := make([]byte, 0, 2*len(list))
	for _, st := range list {
		out = binary.BigEndian.AppendUint16(out, uint16(st.sq)*2+uint16(st.c-1))
	}
	return out
}

func decodeStones(r game.Rules, data []byte) ([]stone, error) {
	if len(data)%2 != 0 {
		return nil, fmt.Errorf("bad stored stone set (%d bytes)", len(data))
	}
	out := make([]stone, len(data)/2)
	for i := range out {
		v := binary.BigEndian.Uint16(data[2*i:])
		out[i] = stone{game.Square(v / 2), game.Color(v%2 + 1)}
		if int(out[i].sq) >= r.Squares() || i > 0 && out[i].sq <= out[i-1].sq {
			return nil, fmt.Errorf("bad stored stone set (square %d)", out[i].sq)
		}
	}
	return out, nil
}

// stabilizer lists the symmetries (id 0 first) that map the stone set onto
// itself.
func stabilizer(r game.Rules, list []stone) []int {
	return stabilizerBuf(r, list, make([]game.Color, r.Squares()))
}

// repMove returns the representative of move m (in a canonical frame whose
// stone set has stabilizer stab): the image with the smallest packed value,
// so that symmetric moves from a symmetric position are one edge.
func repMove(r game.Rules, stab []int, m game.Move) game.Move {
	rep, _ := c6book.RepMove(r, stab, m)
	return rep
}

// ToCanonical maps move m, played on a board whose CanonicalKey symmetry is
// sym, into the position's canonical frame (the frame of stored moves).
func ToCanonical(r game.Rules, sym int, m game.Move) game.Move {
	return r.TransformMove(sym, m)
}

// FromCanonical maps a stored move (canonical frame) back onto a board whose
// CanonicalKey symmetry is sym.
func FromCanonical(r game.Rules, sym int, m game.Move) game.Move {
	return r.TransformMove(game.InverseSymmetry(sym), m)
}

// setUpBoard builds the canonical board of a stored position, sharing
// the book's board geometry (building it anew for each position would
// take half a merge's time).
func (bk *Book) setUpBoard(list []stone, toMove game.Color) (*board.Board, error) {
	var black, white []game.Square
	for _, st := range list {
		if st.c == game.Black {
			black = append(black, st.sq)
		} else {
			white = append(white, st.sq)
		}
	}
	return board.SetUpLike(bk.tmpl, black, white, toMove)
}
