package board

import (
	"encoding/binary"
	"hash/fnv"
	"testing"

	"c6book/engine/game"
)

// TestZobristGolden pins the Zobrist keys. Stored proof books are keyed by
// these hashes: if this test fails, the keys changed and every existing book
// is unreadable. Do not update the constants; restore the key function.
func TestZobristGolden(t *testing.T) {
	fixed := []struct {
		c    game.Color
		x, y int
		key  uint64
	}{
		{game.Black, 0, 0, 0x2d0347ceb8ba0f29},
		{game.White, 0, 0, 0x4848f9060dcfe8b0},
		{game.Black, 9, 9, 0xdc8735692113a6e3},
		{game.White, 18, 18, 0x6373a78ae0a5d0c7},
	}
	for _, f := range fixed {
		if got := ZobristKey(f.c, f.x, f.y); got != f.key {
			t.Errorf("ZobristKey(%s, %d, %d) = %#x, want %#x", f.c, f.x, f.y, got, f.key)
		}
	}
	if sideKey != 0x588775d27f8ccc19 {
		t.Errorf("sideKey = %#x", sideKey)
	}
	table := func(side int) uint64 {
		h := fnv.New64a()
		for c := game.Black; c <= game.White; c++ {
			for y := 0; y < side; y++ {
				for x := 0; x < side; x++ {
					h.Write(binary.BigEndian.AppendUint64(nil, ZobristKey(c, x, y)))
				}
			}
		}
		return h.Sum64()
	}
	if got := table(19); got != 0x9d5434ee9a1c418c {
		t.Errorf("19x19 table digest %#x", got)
	}
	if got := table(game.MaxSide); got != 0x8b45092492f7f8c2 {
		t.Errorf("%dx%d table digest %#x", game.MaxSide, game.MaxSide, got)
	}
	// A whole position: key and canonical key.
	b, err := ReplayText(game.Connect6(), "j10 j11k10 l9k11 i9l11")
	if err != nil {
		t.Fatal(err)
	}
	if b.Key() != 0x3144c1db7e8c0e1a {
		t.Errorf("position key %#x", b.Key())
	}
	if k, s := b.CanonicalKey(); k != 0x8ee6fd13d688494 || s != 2 {
		t.Errorf("canonical key %#x sym %d", k, s)
	}
}

// The board's table is the exported key function, for every board size,
// and all keys of a 26x26 board are distinct and non-zero.
func TestZobristTableMatchesKeyFunction(t *testing.T) {
	seen := map[uint64]bool{sideKey: true}
	for _, r := range []game.Rules{game.Connect6(), {M: 7, N: 5, K: 4, P: 2, Q: 1}, {M: 26, N: 26, K: 6, P: 2, Q: 1}} {
		b := MustNewBoard(r)
		for s := game.Square(0); int(s) < r.Squares(); s++ {
			x, y := r.XY(s)
			for c := game.Black; c <= game.White; c++ {
				k := ZobristKey(c, x, y)
				if b.g.zob(c, s).key != k {
					t.Fatalf("%s: table key of %s %s differs", r, c, game.SquareName(r, s))
				}
				if r.M == game.MaxSide {
					if k == 0 || seen[k] {
						t.Fatalf("key of %s %s is zero or repeated", c, game.SquareName(r, s))
					}
					seen[k] = true
				}
			}
		}
	}
}
