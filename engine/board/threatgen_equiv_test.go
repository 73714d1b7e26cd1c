package board

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
)

// clusteredPosition places nA attacker and nD defender stones at random in
// a box of side box (so that windows fill up as in real games), rejecting
// finished positions and defender threats beyond p; a is to move.
func clusteredPosition(rng *rand.Rand, r game.Rules, box, nA, nD int) *Board {
	box = min(box, r.M, r.N)
	for {
		b := MustNewBoard(r)
		a, d := game.Black, game.White
		if rng.IntN(2) == 0 {
			a, d = game.White, game.Black
		}
		x0, y0 := rng.IntN(r.M-box+1), rng.IntN(r.N-box+1)
		place := func(c game.Color, n int) {
			for i := 0; i < n; {
				s := r.Sq(x0+rng.IntN(box), y0+rng.IntN(box))
				if b.cells[s] == game.Empty {
					b.Place(s, c)
					i++
				}
			}
		}
		place(a, nA)
		place(d, nD)
		if b.Winner() != game.Empty || b.Threats(d) > r.P || b.HasThreat(a) {
			continue
		}
		b.SetToMove(a)
		b.setup = true
		return b
	}
}

// compareGenerate checks that the generator and the frozen reference give
// the same moves in the same order with the same threat and defence
// counts, for every minimum threat count, free policy and countDefs.
func compareGenerate(t *testing.T, g *MoveGen, ref *refGen, b *Board, a game.Color) int {
	t.Helper()
	n := 0
	for _, defs := range []bool{false, true} {
		g.CountDefs, ref.countDefs = defs, defs
		for minT := 1; minT <= b.rules.P+1; minT++ {
			for _, free := range []FreePolicy{FreeNear, FreeAll} {
				want := ref.generate(b, a, minT, free, nil)
				got := g.Generate(b, a, minT, free, nil)
				if len(got) != len(want) {
					t.Fatalf("%v minT %d free %d defs %v: %d moves, reference %d\n%s", b.rules, minT, free, defs, len(got), len(want), dumpBoard(b))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%v minT %d free %d defs %v: move %d is %s (%d threats, %d defs), reference %s (%d, %d)\n%s",
							b.rules, minT, free, defs, i, game.MoveName(b.rules, got[i].Move), got[i].Threats, got[i].Defs,
							game.MoveName(b.rules, want[i].Move), want[i].Threats, want[i].Defs, dumpBoard(b))
					}
				}
				n += len(got)
			}
		}
	}
	return n
}

// The optimised generator reproduces the reference generator exactly on
// random clustered positions and along random threat sequences from them
// (the positions a solver meets): same moves, same order, same counts.
func TestGenerateMatchesReference(t *testing.T) {
	cases := []struct {
		r           game.Rules
		box, nA, nD int
	}{
		{game.Connect6(), 9, 12, 12},
		{game.Connect6(), 7, 10, 8},
		{game.Connect6(), 12, 20, 20},
		{game.Rules{M: 9, N: 9, K: 6, P: 2, Q: 3}, 9, 8, 8},
		{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, 9, 6, 6},
		{game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, 8, 4, 4},
		{game.Rules{M: 10, N: 10, K: 6, P: 2, Q: 1}, 10, 9, 8},
	}
	positions := 50
	if testing.Short() {
		positions = 12
	}
	for ci, tc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+2400, 24))
		g, ref := NewMoveGen(tc.r), newRefGen(tc.r)
		moves, boards := 0, 0
		for i := 0; i < positions; i++ {
			b := clusteredPosition(rng, tc.r, tc.box, tc.nA+rng.IntN(5), tc.nD+rng.IntN(5))
			a, d := b.ToMove(), b.ToMove().Opp()
			// A random threat sequence: the attacker plays a random
			// generated move, the defender a random critical defence (or
			// random stones near the attacker's when it has no threat).
			for ply := 0; ply < 6; ply++ {
				moves += compareGenerate(t, g, ref, b, a)
				boards++
				g.CountDefs = false
				tms := g.Generate(b, a, 1, FreeNear, nil)
				if len(tms) == 0 || tms[0].Threats > tc.r.P {
					break
				}
				m := tms[rng.IntN(len(tms))].Move
				for j := 0; j < m.Len(); j++ {
					b.Place(m.At(j), a)
				}
				normal, relaxed := b.CriticalDefences(a)
				all := append(normal, relaxed...)
				if len(all) == 0 {
					break
				}
				blk := all[rng.IntN(len(all))]
				for j := 0; j < blk.Len(); j++ {
					b.Place(blk.At(j), d)
				}
				if b.Winner() != game.Empty || b.Threats(d) > tc.r.P {
					break
				}
			}
		}
		t.Logf("%v: %d positions, %d generated moves agree", tc.r, boards, moves)
	}
}

// The same on the public LittleGolem positions (skipped without them).
func TestGenerateMatchesReferencePublic(t *testing.T) {
	ps := PublicPositions(t)
	if testing.Short() {
		ps = ps[:min(len(ps), 30)]
	}
	r := game.Connect6()
	g, ref := NewMoveGen(r), newRefGen(r)
	moves := 0
	for _, b := range ps {
		if b.Winner() != game.Empty {
			continue
		}
		moves += compareGenerate(t, g, ref, b, b.ToMove())
		// And for the side not to move, as the solvers' null-move
		// searches ask.
		if !b.HasThreat(b.ToMove()) {
			moves += compareGenerate(t, g, ref, b, b.ToMove().Opp())
		}
	}
	t.Logf("%d public positions, %d generated moves agree", len(ps), moves)
}

// pairBits agrees with a map across resets, including the stamp wrap.
func TestPairBitsMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(2401, 24))
	const nsq = 130
	ps := newPairBits(nsq)
	for round := 0; round < 300; round++ {
		if round == 150 {
			ps.stamp = ^uint32(0) - 1 // the wrap comes within a few resets
		}
		ps.reset()
		want := map[[2]game.Square]bool{}
		for i := 0; i < 200; i++ {
			s1, s2 := game.Square(rng.IntN(nsq)), game.Square(rng.IntN(nsq))
			k := [2]game.Square{s1, s2}
			if got := ps.insert(s1, s2); got != !want[k] {
				t.Fatalf("round %d: insert(%d, %d) = %v, map says new = %v", round, s1, s2, got, !want[k])
			}
			want[k] = true
		}
	}
}

// minHitting3 agrees with the recursive search (limit 3) on random window
// sets over a few squares (windows of 0..p empties, as the callers build).
func TestMinHitting3MatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(2402, 24))
	counts := [4]int{}
	for it := 0; it < 300000; it++ {
		ws := make([]empt, rng.IntN(7))
		for i := range ws {
			n := rng.IntN(3)
			if rng.IntN(20) == 0 {
				n = 0
			} else if n == 0 {
				n = 1 + rng.IntN(2)
			}
			ws[i].n = int8(n)
			for j := 0; j < n; j++ {
				ws[i].e[j] = game.Square(rng.IntN(6))
			}
		}
		var chosen [game.MaxPerTurn + 1]game.Square
		want := hitSearch(ws, chosen[:0], 3)
		if got := minHitting3(ws); got != want {
			t.Fatalf("%v: minHitting3 = %d, search %d", ws, got, want)
		}
		counts[want]++
	}
	t.Logf("results 0..3: %v", counts)
}
