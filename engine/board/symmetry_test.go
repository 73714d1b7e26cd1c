package board

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
)

// Every symmetry is a bijection of the squares that maps lines to lines, is
// undone by InverseSymmetry, and the 8 (or 4) of them are distinct.
func TestSymmetriesAreBoardSymmetries(t *testing.T) {
	for _, r := range []game.Rules{game.Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 2, Q: 1}, {M: 25, N: 25, K: 6, P: 2, Q: 1}} {
		n := r.SymmetryCount()
		if want := map[bool]int{true: 8, false: 4}[r.M == r.N]; n != want {
			t.Fatalf("%s: %d symmetries", r, n)
		}
		images := map[string]int{}
		for id := 0; id < n; id++ {
			seen := make([]bool, r.Squares())
			var sig []byte
			for s := game.Square(0); int(s) < r.Squares(); s++ {
				ts := r.Transform(id, s)
				if ts < 0 || int(ts) >= r.Squares() || seen[ts] {
					t.Fatalf("%s sym %d: not a bijection at %s", r, id, game.SquareName(r, s))
				}
				seen[ts] = true
				if back := r.Transform(game.InverseSymmetry(id), ts); back != s {
					t.Fatalf("%s sym %d: inverse %d maps %s back to %s", r, id, game.InverseSymmetry(id), game.SquareName(r, s), game.SquareName(r, back))
				}
				sig = append(sig, byte(ts), byte(ts>>8))
			}
			if prev, dup := images[string(sig)]; dup {
				t.Fatalf("%s: symmetries %d and %d are the same map", r, prev, id)
			}
			images[string(sig)] = id
			// Adjacent squares stay adjacent (so lines map to lines).
			for y := 0; y < r.N; y++ {
				for x := 0; x+1 < r.M; x++ {
					ax, ay := r.XY(r.Transform(id, r.Sq(x, y)))
					bx, by := r.XY(r.Transform(id, r.Sq(x+1, y)))
					if d := absInt(ax-bx) + absInt(ay-by); d != 1 {
						t.Fatalf("%s sym %d: neighbours %s, %s land %d apart", r, id, game.SquareName(r, r.Sq(x, y)), game.SquareName(r, r.Sq(x+1, y)), d)
					}
				}
			}
		}
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// For random positions: all symmetric images have the same canonical key
// and the same canonical stones; the key is the minimum of the images' stone
// hashes (then the side-to-move key)
// and is reached by the returned symmetry; threats, winner and critical
// defences are carried over by the symmetry.
func TestCanonicalKeyOverImages(t *testing.T) {
	for ri, r := range []game.Rules{game.Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 2, Q: 1}} {
		rng := rand.New(rand.NewPCG(uint64(ri), 3))
		base := MustNewBoard(r)
		for i := 0; i < 100; i++ {
			b := randomThreatBoard(rng, base).Clone()
			key, sym := b.CanonicalKey()
			stones := b.CanonicalStones(sym)
			minKey := ^uint64(0)
			for id := 0; id < r.SymmetryCount(); id++ {
				img := b.Transformed(id)
				if img.ToMove() != b.ToMove() || img.Stones(game.Black) != b.Stones(game.Black) || img.Stones(game.White) != b.Stones(game.White) {
					t.Fatalf("sym %d: Transformed lost stones or side to move", id)
				}
				if i%10 == 0 {
					checkAgainstRebuild(t, img, "transformed board")
				}
				minKey = min(minKey, img.Hash())
				k2, s2 := img.CanonicalKey()
				if k2 != key {
					t.Fatalf("%s position %d: image %d has canonical key %x, original %x", r, i, id, k2, key)
				}
				if st := img.CanonicalStones(s2); !bytes.Equal(st, stones) {
					t.Fatalf("%s position %d: image %d has different canonical stones", r, i, id)
				}
				for _, c := range []game.Color{game.Black, game.White} {
					if img.Threats(c) != b.Threats(c) {
						t.Fatalf("sym %d changes %s's threats", id, c)
					}
					n1, r1 := b.CriticalDefences(c)
					n2, r2 := img.CriticalDefences(c)
					if !sameMovesUnder(r, id, n1, n2) || !sameMovesUnder(r, id, r1, r2) {
						t.Fatalf("sym %d does not carry %s's critical defences", id, c)
					}
				}
				if img.Winner() != b.Winner() {
					t.Fatalf("sym %d changes the winner", id)
				}
			}
			if b.ToMove() == game.White {
				minKey ^= sideKey
			}
			if key != minKey {
				t.Fatalf("canonical key %x is not the minimum of the images' stone hashes (with the side key): %x", key, minKey)
			}
			if got := b.Transformed(sym).Key(); got != key {
				t.Fatalf("Transformed(sym) key %x, canonical %x", got, key)
			}
			// Changing the side to move changes the key, not the symmetry.
			b.SetToMove(b.ToMove().Opp())
			k3, s3 := b.CanonicalKey()
			if k3 != key^sideKey || s3 != sym {
				t.Fatalf("side to move: key %x sym %d, want %x sym %d", k3, s3, key^sideKey, sym)
			}
			if bytes.Equal(b.CanonicalStones(sym), stones) {
				t.Fatal("CanonicalStones ignores the side to move")
			}
		}
	}
}

// sameMovesUnder reports whether b is a mapped by symmetry id (as sets).
func sameMovesUnder(r game.Rules, id int, a, b []game.Move) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[game.Move]bool{}
	for _, m := range b {
		set[m] = true
	}
	for _, m := range a {
		if !set[r.TransformMove(id, m)] {
			return false
		}
	}
	return true
}

// Different positions get different canonical stones (so the book can tell
// a hash collision from a transposition), and a position and its mirror
// image share them.
func TestCanonicalStonesDistinguish(t *testing.T) {
	r := game.Connect6()
	a, _ := ReplayText(r, "j10 j11k10 l9k11")
	b, _ := ReplayText(r, "j10 j11k10 l9k12")
	m, _ := ReplayText(r, "j10 j11i10 h9i11") // a mirrored left-right
	ka, sa := a.CanonicalKey()
	kb, sb := b.CanonicalKey()
	km, sm := m.CanonicalKey()
	if ka == kb || bytes.Equal(a.CanonicalStones(sa), b.CanonicalStones(sb)) {
		t.Fatal("different positions share a canonical key or stones")
	}
	if ka != km || !bytes.Equal(a.CanonicalStones(sa), m.CanonicalStones(sm)) {
		t.Fatal("mirror images differ canonically")
	}
	// TransformMove maps moves as squares.
	mv := parseMoveT(t, r, "j11k10")
	if got := game.MoveName(r, r.TransformMove(1, mv)); got != "i10j11" {
		t.Fatalf("mirror of j11k10 = %s", got)
	}
	if got := game.MoveName(r, r.TransformMove(0, mv)); got != "k10j11" {
		t.Fatalf("identity of j11k10 = %s", got)
	}
}
