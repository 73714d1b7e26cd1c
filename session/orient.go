package session

import (
	"slices"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Lines in the user's orientation. The book stores positions in a
// canonical frame, and a list entry's line (Solved, Search) comes in the
// position's stable orientation, which is rarely the one the user entered
// the moves in. The cursor keeps the lines the user has been on (the
// current one first); a listed line is shown in the orientation of the one
// it shares most with: that line's own moves as far as they reach the
// same positions (up to symmetry), then the rest mapped into its frame
// there. A listed position the user's line passes through (a
// transposition included) is shown as the user's line to it.

// maxUserLines bounds the lines kept.
const maxUserLines = 32

// rememberLine keeps line (shown by goTo) as one of the user's lines: the
// most recent first; a line it extends is replaced, and one that extends
// it stays.
func (c *Cursor) rememberLine(line []game.Move) {
	if len(line) == 0 {
		return
	}
	for i, u := range c.userLines {
		if len(u) >= len(line) && slices.Equal(u[:len(line)], line) {
			// Already kept (as it is, or extended): it moves to the front.
			c.userLines = append(append([][]game.Move{u}, c.userLines[:i]...), c.userLines[i+1:]...)
			return
		}
	}
	kept := [][]game.Move{slices.Clone(line)}
	for _, u := range c.userLines {
		if len(u) <= len(line) && slices.Equal(line[:len(u)], u) {
			continue // extended by line
		}
		kept = append(kept, u)
	}
	if len(kept) > maxUserLines {
		kept = kept[:maxUserLines]
	}
	c.userLines = kept
}

// UserLines are the lines the user has been on, the current one first
// (copies).
func (c *Cursor) UserLines() [][]game.Move {
	out := make([][]game.Move, 0, len(c.userLines)+1)
	if len(c.line) > 0 {
		out = append(out, slices.Clone(c.line))
	}
	for _, u := range c.userLines {
		if !slices.Equal(u, c.line) {
			out = append(out, slices.Clone(u))
		}
	}
	return out
}

// symKeys are a position's hashes under each symmetry of the board: two
// positions are the same up to symmetry when their least hashes are
// equal, and inv(sym of one) ∘ (sym of the other) maps the other onto it.
type symKeys struct {
	h [8]uint64
	n int
}

func (k *symKeys) add(r game.Rules, c game.Color, s game.Square) {
	for i := 0; i < k.n; i++ {
		k.h[i] ^= mix(uint64(c)<<32 | uint64(r.Transform(i, s)))
	}
}

// canon is the least hash and the symmetry that reaches it (the lowest
// on a tie).
func (k *symKeys) canon() (uint64, int) {
	key, sym := k.h[0], 0
	for i := 1; i < k.n; i++ {
		if k.h[i] < key {
			key, sym = k.h[i], i
		}
	}
	return key, sym
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

type plyKey struct {
	key uint64
	sym int
}

// lineKeys are the canonical keys of a line's positions (index i: after
// its first i turns), up to its first turn that is not legal.
func lineKeys(empty *board.Board, line []game.Move) []plyKey {
	r := empty.Rules()
	b := empty.Clone()
	k := symKeys{n: r.SymmetryCount()}
	key, sym := k.canon()
	out := append(make([]plyKey, 0, len(line)+1), plyKey{key, sym})
	for _, m := range line {
		c := b.ToMove()
		if b.PlayPartial(m) != nil {
			break
		}
		for i := 0; i < m.Len(); i++ {
			k.add(r, c, m.At(i))
		}
		key, sym := k.canon()
		out = append(out, plyKey{key, sym})
	}
	return out
}

// orientShown is target (a line from the root, any orientation) as the
// user would write it, given the user's lines (each with its lineKeys):
// see the comment at the top of the file. A target no user line meets
// comes back as it is.
func orientShown(r game.Rules, users [][]game.Move, ukeys [][]plyKey, target []game.Move, tkeys []plyKey) []game.Move {
	if len(tkeys) != len(target)+1 {
		return target // not a legal line: shown as it is
	}
	end := tkeys[len(target)]
	bestU, bestJ := -1, 0
	for u, uk := range ukeys {
		// The target's position on the user's line: the user's own moves.
		if len(target) < len(uk) && uk[len(target)].key == end.key {
			return slices.Clone(users[u][:len(target)])
		}
		for j := min(len(uk), len(tkeys)) - 1; j > bestJ; j-- {
			if uk[j].key == tkeys[j].key {
				bestU, bestJ = u, j
				break
			}
		}
	}
	if bestU < 0 {
		return target
	}
	out := append(make([]game.Move, 0, len(target)), users[bestU][:bestJ]...)
	inv := game.InverseSymmetry(ukeys[bestU][bestJ].sym)
	for _, m := range target[bestJ:] {
		out = append(out, r.TransformMove(inv, r.TransformMove(tkeys[bestJ].sym, m)))
	}
	return out
}

// orientEntries rewrites the entries' lines in the orientation of the
// user's lines (orientShown); run off the UI goroutine.
func orientEntries(empty *board.Board, users [][]game.Move, es []Entry) {
	if len(users) == 0 {
		return
	}
	ukeys := make([][]plyKey, len(users))
	for i, u := range users {
		ukeys[i] = lineKeys(empty, u)
	}
	r := empty.Rules()
	for i := range es {
		if es[i].Line == nil {
			continue
		}
		es[i].Line = orientShown(r, users, ukeys, es[i].Line, lineKeys(empty, es[i].Line))
		es[i].Short = "" // (it named the stable orientation)
	}
}
