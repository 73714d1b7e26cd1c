package board

import (
	"c6book/engine/game"
)

// The Zobrist keys are a pure function of (colour, column, row) computed with
// splitmix64 from a fixed seed. Stored books key positions by these hashes,
// so the function is pinned by a golden test and must never change.

const zobristSeed uint64 = 0xC6B00C6B00C6B00C

// sideKey is XORed into a position key when White is to move.
// checkSeed derives the check hash's keys from the Zobrist keys; the check
// hash is never stored (books key positions by Zobrist hash and verify by
// their stones), so it is not pinned by the golden test.
const checkSeed uint64 = 0x5BD1E9955BD1E995

const sideKey uint64 = 0x9E3779B97F4A7C15 ^ zobristSeed

func splitmix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

// zobristKey is the key of a stone of colour c at column x, row y.
func zobristKey(c game.Color, x, y int) uint64 {
	idx := uint64(c)<<16 | uint64(y)<<8 | uint64(x)
	return splitmix64(zobristSeed ^ splitmix64(idx))
}

// ZobristKey exposes the key of a stone (for tests and tools).
func ZobristKey(c game.Color, x, y int) uint64 { return zobristKey(c, x, y) }

// hashWith is the Zobrist hash and the check hash of the stones with move m
// of colour c added.
func (b *Board) HashWith(c game.Color, m game.Move) (uint64, uint64) {
	h, k := b.hash, b.chk
	for i := 0; i < m.Len(); i++ {
		z := b.g.zob(c, m.At(i))
		h ^= z.key
		k ^= z.chk
	}
	return h, k
}

// Hashes returns the Zobrist hash of the stones (Hash) and its independent
// check hash: the two keys a transposition table stores.
func (b *Board) Hashes() (hash, check uint64) { return b.hash, b.chk }
