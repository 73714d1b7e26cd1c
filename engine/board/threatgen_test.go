package board

import (
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
)

// threatsWith must agree with placing the stones and counting.
func TestThreatsWithMatchesBoard(t *testing.T) {
	for ci, r := range []game.Rules{{M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 11, N: 11, K: 6, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 19, N: 19, K: 6, P: 2, Q: 1}} {
		rng := rand.New(rand.NewPCG(uint64(ci)+300, 1))
		g := NewMoveGen(r)
		checked := 0
		for i := 0; i < 200; i++ {
			b := RandomSolverPosition(rng, r, 2+rng.IntN(r.M-3), 2+rng.IntN(r.M-3))
			a := b.ToMove()
			empt := b.StoneList(game.Empty)
			for j := 0; j < 40; j++ {
				s1 := empt[rng.IntN(len(empt))]
				s2 := game.NoSquare
				if r.P == 2 && rng.IntN(3) > 0 {
					if s2 = empt[rng.IntN(len(empt))]; s2 == s1 {
						s2 = game.NoSquare
					}
				}
				got := g.ThreatsWith(b, a, s1, s2)
				b.Place(s1, a)
				if s2 != game.NoSquare {
					b.Place(s2, a)
				}
				want := b.Threats(a)
				if s2 != game.NoSquare {
					b.Remove(s2)
				}
				b.Remove(s1)
				if got != want {
					t.Fatalf("%v: threatsWith(%s,%s) = %d, board says %d\n%s", r, game.SquareName(r, s1), game.SquareName(r, s2), got, want, dumpBoard(b))
				}
				checked++
			}
		}
		t.Logf("%v: %d placements agree", r, checked)
	}
}

// With every free stone allowed, the generator returns exactly the moves
// that leave the defender no threat window and the attacker at least
// minThreats threats, each once, with the exact count.
func TestThreatMovesMatchBruteForce(t *testing.T) {
	for ci, r := range []game.Rules{{M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 10, N: 10, K: 6, P: 2, Q: 1}} {
		rng := rand.New(rand.NewPCG(uint64(ci)+400, 2))
		total := 0
		for i := 0; i < 40; i++ {
			var b *Board
			if i%2 == 0 {
				b = RandomSolverPosition(rng, r, 2+rng.IntN(r.M-4), 2+rng.IntN(r.M-4))
			} else {
				b = RandomThreatenedPosition(rng, r, 2+rng.IntN(r.M-4), 3+rng.IntN(r.M-4))
			}
			a, d := b.ToMove(), b.ToMove().Opp()
			for minT := 1; minT <= r.P+1; minT++ {
				want := map[game.Move]int{}
				ForEachCombo(b.StoneList(game.Empty), r.P, func(sq []game.Square) bool {
					for _, s := range sq {
						b.Place(s, a)
					}
					if !b.HasThreat(d) {
						if t := b.Threats(a); t >= minT {
							want[game.NewMove(sq...)] = t
						}
					}
					for i := len(sq) - 1; i >= 0; i-- {
						b.Remove(sq[i])
					}
					return true
				})
				got := b.ThreatMoves(a, minT, FreeAll)
				seen := map[game.Move]bool{}
				for _, tm := range got {
					if seen[tm.Move] {
						t.Fatalf("%v: move %s generated twice", r, game.MoveName(r, tm.Move))
					}
					seen[tm.Move] = true
					if w, ok := want[tm.Move]; !ok || w != tm.Threats {
						t.Fatalf("%v minT %d: generated %s with %d threats, brute force: %d (listed %v)\n%s", r, minT, game.MoveName(r, tm.Move), tm.Threats, w, ok, dumpBoard(b))
					}
				}
				for m, w := range want {
					if !seen[m] {
						t.Fatalf("%v minT %d: move %s (%d threats) not generated\n%s", r, minT, game.MoveName(r, m), w, dumpBoard(b))
					}
				}
				total += len(want)
			}
		}
		t.Logf("%v: %d moves agree", r, total)
	}
}

// The search reads a reply's position off the board without placing it:
// hashWith and threatsWith for the defender must agree with placing.
func TestHashWithMatchesPlace(t *testing.T) {
	r := game.Connect6()
	rng := rand.New(rand.NewPCG(7, 7))
	g := NewMoveGen(r)
	for i := 0; i < 300; i++ {
		b := RandomSolverPosition(rng, r, 10+rng.IntN(20), 10+rng.IntN(20))
		d := b.ToMove().Opp()
		e := b.StoneList(game.Empty)
		m := game.NewMove(e[rng.IntN(len(e))])
		if s2 := e[rng.IntN(len(e))]; i%2 == 0 && s2 != m.At(0) {
			m = m.With(s2)
		}
		h, k := b.HashWith(d, m)
		s1, s2 := m.At(0), game.NoSquare
		if m.Len() == 2 {
			s2 = m.At(1)
		}
		tw := g.ThreatsWith(b, d, s1, s2)
		for j := 0; j < m.Len(); j++ {
			b.Place(m.At(j), d)
		}
		if b.Hash() != h || b.chk != k || b.Threats(d) != tw {
			t.Fatalf("after %s: hash %x/%x, threats %d/%d", game.MoveName(r, m), h, b.Hash(), tw, b.Threats(d))
		}
	}
}

// With countDefs, every generated move leaving at most p threats carries
// the number of critical defences the board gives after it (the
// search's proof-number initialisation), on every generation path: with
// and without defender threats to block, both free-stone policies.
func TestThreatMoveDefenceCounts(t *testing.T) {
	for ci, r := range []game.Rules{{M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 10, N: 10, K: 6, P: 2, Q: 1}, game.Connect6()} {
		rng := rand.New(rand.NewPCG(uint64(ci)+700, 3))
		counted := 0
		for i := 0; i < 30; i++ {
			var b *Board
			n := 2 + rng.IntN(min(r.M, 12)-4)
			if i%2 == 0 {
				b = RandomSolverPosition(rng, r, n, n)
			} else {
				b = RandomThreatenedPosition(rng, r, n, n+1)
			}
			a := b.ToMove()
			g := NewMoveGen(r)
			g.CountDefs = true
			for _, free := range []FreePolicy{FreeNear, FreeAll} {
				for _, tm := range g.Generate(b, a, 1, free, nil) {
					if tm.Threats > r.P {
						if tm.Defs != 0 {
							t.Fatalf("%v: %s with %d threats has defs %d", r, game.MoveName(r, tm.Move), tm.Threats, tm.Defs)
						}
						continue
					}
					for j := 0; j < tm.Move.Len(); j++ {
						b.Place(tm.Move.At(j), a)
					}
					normal, relaxed := b.CriticalDefences(a)
					for j := tm.Move.Len() - 1; j >= 0; j-- {
						b.Remove(tm.Move.At(j))
					}
					if int(tm.Defs) != len(normal)+len(relaxed) {
						t.Fatalf("%v free=%d: %s (%d threats): defs %d, the board has %d+%d critical defences\n%s", r, free, game.MoveName(r, tm.Move), tm.Threats, tm.Defs, len(normal), len(relaxed), dumpBoard(b))
					}
					counted++
				}
			}
		}
		if counted == 0 {
			t.Errorf("%v: no move with 1..%d threats: the test checks nothing", r, r.P)
		}
		t.Logf("%v: %d defence counts checked", r, counted)
	}
}

// TestCountSets2MatchesCriticalSets checks the bit-mask count of the
// critical defences (p = 2) against criticalSets on random windows over a
// few squares, so that windows share squares often.
func TestCountSets2MatchesCriticalSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	var scratch []uint64
	var sqs []game.Square
	for iter := 0; iter < 200000; iter++ {
		nw := 1 + rng.IntN(6)
		nsq := 2 + rng.IntN(6)
		ws := make([]empt, nw)
		for i := range ws {
			n := 1 + rng.IntN(2)
			ws[i].n = int8(n)
			ws[i].e[0] = game.Square(rng.IntN(nsq))
			if n == 2 {
				for ws[i].e[1] = game.Square(rng.IntN(nsq)); ws[i].e[1] == ws[i].e[0]; ws[i].e[1] = game.Square(rng.IntN(nsq)) {
				}
			}
		}
		tt := minHitting(ws, 3)
		if tt > 2 {
			continue
		}
		cand := candidates(ws, nil)
		normal, relaxed := criticalSets(ws, cand, tt, 2, nil, nil)
		want := int32(len(normal) + len(relaxed))
		if got := countSets2(ws, &sqs, &scratch); got != want {
			t.Fatalf("windows %v (t=%d): countSets2 %d, criticalSets %d", ws, tt, got, want)
		}
	}
}

// TestCountThreatsMatchesMinHitting checks countThreats' shortcuts against
// minHitting on random windows of up to p empties (p = 1, 2).
func TestCountThreatsMatchesMinHitting(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for iter := 0; iter < 200000; iter++ {
		p := 1 + rng.IntN(2)
		nw := 1 + rng.IntN(4)
		nsq := 2 + rng.IntN(5)
		ws := make([]empt, nw)
		for i := range ws {
			n := rng.IntN(p + 1)
			for l := 0; l < n; {
				c := game.Square(rng.IntN(nsq))
				dup := false
				for j := 0; j < l; j++ {
					dup = dup || ws[i].e[j] == c
				}
				if !dup {
					ws[i].e[l] = c
					l++
				}
			}
			ws[i].n = int8(n)
		}
		if got, want := countThreats(ws, p), minHitting(ws, p+1); got != want {
			t.Fatalf("p=%d windows %v: countThreats %d, minHitting %d", p, ws, got, want)
		}
	}
}
