package threat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
)

// Every win claimed by VCDT or VCST, under either free-stone policy, must
// survive CheckStrategy: every defender move, all of them, is answered.
// Every third position has the defender threatening, so the attacker's
// moves must block.
func TestSolverWinsAreSound(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	cases := []struct {
		enginetest.SolverCase
		n int
	}{
		{enginetest.SolverCase{Rules: game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, NA: 4, ND: 6}, 36},
		{enginetest.SolverCase{Rules: game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, NA: 4, ND: 4}, 40},
		{enginetest.SolverCase{Rules: game.Rules{M: 11, N: 11, K: 6, P: 2, Q: 1}, NA: 13, ND: 12}, 18},
		{enginetest.SolverCase{Rules: game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, NA: 3, ND: 5}, 36},
		{enginetest.SolverCase{Rules: game.Rules{M: 10, N: 10, K: 6, P: 2, Q: 1}, NA: 7, ND: 7}, 24},
	}
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+1, 42))
		wins := map[Mode]int{}
		for i := 0; i < sc.n; i++ {
			var b *board.Board
			if i%3 == 2 {
				b = enginetest.RandomThreatenedPosition(rng, sc.Rules, sc.NA, sc.ND-1)
			} else {
				b = enginetest.RandomSolverPosition(rng, sc.Rules, sc.NA, sc.ND)
			}
			for _, mode := range []Mode{VCDT, VCST} {
				for _, free := range []board.FreePolicy{board.FreeNear, board.FreeAll} {
					res, err := Solve(ctx, b, Params{Mode: mode, Free: free, Limits: Limits{MaxNodes: 20000}})
					if err != nil {
						t.Fatal(err)
					}
					if res.Outcome != Win {
						continue
					}
					wins[mode]++
					if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
						t.Fatalf("%v %v free=%d: claimed win is unsound: %v\nposition %s", sc.Rules, mode, free, err, b.Diagram())
					}
				}
			}
		}
		t.Logf("%v: wins of %d solves: vcdt=%d vcst=%d", sc.Rules, 2*sc.n, wins[VCDT], wins[VCST])
		if wins[VCDT] == 0 || wins[VCST] == 0 || wins[VCST] == 2*sc.n {
			t.Errorf("%v: the wins (%v) do not discriminate: adjust the generator", sc.Rules, wins)
		}
	}
}

// A forced win that brute force finds inside the horizon (two threat
// moves, then six) is found by VCDT, resp. VCST, with every free stone
// allowed: completeness on that class. Positions without a brute-force win
// are solved too (any claimed win must then pass CheckStrategy).
func TestVCDTCompleteAgainstBruteForce(t *testing.T) {
	completeAgainstBrute(t, VCDT, 2, []enginetest.SolverCase{
		{Rules: game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, NA: 3, ND: 5},
		{Rules: game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, NA: 4, ND: 6},
		{Rules: game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, NA: 5, ND: 5},
	}, 40)
}

func TestVCSTCompleteAgainstBruteForce(t *testing.T) {
	testenv.Heavy(t)
	completeAgainstBrute(t, VCST, 1, []enginetest.SolverCase{
		{Rules: game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, NA: 3, ND: 5},
	}, 16)
}

func completeAgainstBrute(t *testing.T, mode Mode, minT int, cases []enginetest.SolverCase, n int) {
	ctx := context.Background()
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+100, 7))
		found, other := 0, 0
		for i := 0; i < n; i++ {
			b := enginetest.RandomSolverPosition(rng, sc.Rules, sc.NA, sc.ND)
			a := b.ToMove()
			brute := enginetest.BruteWin(b.Clone(), a, 2, minT)
			res, err := Solve(ctx, b, Params{Mode: mode, Free: board.FreeAll, Limits: Limits{MaxNodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			if brute {
				found++
				if res.Outcome != Win {
					t.Fatalf("%v: brute force wins within 2 moves of %d+ threats, %v says %v (%s)\n%s", sc.Rules, minT, mode, res.Outcome, res.Reason, b.Diagram())
				}
			} else if res.Outcome == Win {
				other++
			}
			if res.Outcome == Win {
				if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
					t.Fatalf("%v %v: claimed win is unsound: %v\n%s", sc.Rules, mode, err, b.Diagram())
				}
			}
		}
		t.Logf("%v %v: %d of %d positions are brute-force wins, all found; %d deeper wins, all sound", sc.Rules, mode, found, n, other)
		if found == 0 || found == n {
			t.Errorf("%v: %d brute-force wins of %d: the test does not discriminate", sc.Rules, found, n)
		}
	}
}

// outsideSets calls f with every set of 1..n empty squares outside zone.
func outsideSets(b *board.Board, zone []game.Square, n int, f func([]game.Square) bool) {
	z := game.SqSetOf(zone...)
	var outside []game.Square
	for s := range b.Rules().Squares() {
		c := b.At(game.Square(s))
		if c == game.Empty && !z.Has(game.Square(s)) {
			outside = append(outside, game.Square(s))
		}
	}
	for k := 1; k <= n && k <= len(outside); k++ {
		cont := true
		enginetest.ForEachCombo(outside, k, func(set []game.Square) bool {
			cont = f(set)
			return cont
		})
		if !cont {
			return
		}
	}
}

// Zones: every set of up to Tolerance defender stones placed outside the
// root zone, all of them, leaves the strategy winning against every
// defender reply (CheckStrategy), and a sample of them is re-solved.
func TestZonesTolerateOutsideStones(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	type zcase struct {
		enginetest.SolverCase
		tol, positions int
	}
	cases := []zcase{
		{enginetest.SolverCase{Rules: game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, NA: 4, ND: 6}, 2, 12},
		{enginetest.SolverCase{Rules: game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, NA: 4, ND: 6}, 1, 16},
		{enginetest.SolverCase{Rules: game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, NA: 4, ND: 4}, 1, 20},
		{enginetest.SolverCase{Rules: game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, NA: 3, ND: 5}, 2, 12},
		{enginetest.SolverCase{Rules: game.Rules{M: 11, N: 11, K: 6, P: 2, Q: 1}, NA: 13, ND: 12}, 1, 8},
		{enginetest.SolverCase{Rules: game.Rules{M: 11, N: 11, K: 6, P: 2, Q: 1}, NA: 13, ND: 12}, 2, 4},
	}
	for ci, zc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+200, 9))
		tested, placements := 0, 0
		for i := 0; i < 400 && tested < zc.positions; i++ {
			b := enginetest.RandomSolverPosition(rng, zc.Rules, zc.NA, zc.ND)
			if i%3 == 2 {
				b = enginetest.RandomThreatenedPosition(rng, zc.Rules, zc.NA, zc.ND-1)
			}
			mode := []Mode{VCDT, VCST}[i%2]
			res, err := Solve(ctx, b, Params{Mode: mode, Tolerance: zc.tol, Limits: Limits{MaxNodes: 20000}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Win {
				continue
			}
			tested++
			d := b.ToMove().Opp()
			outsideSets(b, res.Zone, zc.tol, func(set []game.Square) bool {
				placements++
				nb := b.Clone()
				for _, s := range set {
					nb.Place(s, d)
				}
				if err := CheckStrategy(ctx, nb, res.Tree, 2_000_000); err != nil {
					t.Fatalf("%v %v tol %d: defender stones %v outside the zone break the strategy: %v\n%s", zc.Rules, mode, zc.tol, squareList(b.Rules(), set), err, nb.Diagram())
					return false
				}
				if placements%16 == 0 {
					r2, err := Solve(ctx, nb, Params{Mode: mode, Limits: Limits{MaxNodes: 50000}})
					if err != nil {
						t.Fatal(err)
					}
					if r2.Outcome != Win {
						t.Fatalf("%v %v: re-solve after stones outside the zone: %v\n%s", zc.Rules, mode, r2.Reason, nb.Diagram())
					}
				}
				return true
			})
		}
		t.Logf("%v tol %d: %d solved positions, %d outside placements checked", zc.Rules, zc.tol, tested, placements)
		if tested < zc.positions {
			t.Errorf("%v: only %d solved positions tested", zc.Rules, tested)
		}
	}
}

func squareList(r game.Rules, sq []game.Square) string {
	var out []string
	for _, s := range sq {
		out = append(out, game.SquareName(r, s))
	}
	return fmt.Sprint(out)
}

func TestParseModeAndFreePolicy(t *testing.T) {
	for s, want := range map[string]Mode{"vcdt": VCDT, "VCDT": VCDT, "vcst": VCST, "VCST": VCST} {
		if m, err := ParseMode(s); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	for s, want := range map[string]board.FreePolicy{"near": board.FreeNear, "all": board.FreeAll} {
		if f, err := ParseFreePolicy(s); err != nil || f != want {
			t.Errorf("ParseFreePolicy(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := ParseMode("vct"); err == nil {
		t.Error("ParseMode accepted vct")
	}
	if _, err := ParseFreePolicy("some"); err == nil {
		t.Error("ParseFreePolicy accepted some")
	}
}

// Small-board positions that VCST wins with a single-threat first move
// (found by scanning random positions once; fixed inputs, not answers).
var singleThreatFixtures = []string{
	"8,8,5,2,1 B B h1 g3 f7 W a1 g4 b5 h5 f8",
	"7,7,5,2,1 B B c1 g5 d7 c2 W b7 d2 g1 f2 d1",
	"7,7,5,2,1 B B d5 g3 f6 b6 W f5 d4 a7 g1 d2",
}

// VCST wins whose first move is a single threat leave the defender a free
// stone: CheckStrategy tries it on every square (with the blocking stone
// on every square that blocks), so each such tree is checked against every
// defender move, under both free-stone policies.
func TestVCSTSingleThreatWinsAgainstEveryFreeStone(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	for _, fx := range singleThreatFixtures {
		b := parseFixture(t, fx)
		singles := 0
		for _, free := range []board.FreePolicy{board.FreeNear, board.FreeAll} {
			res, err := Solve(ctx, b, Params{Mode: VCST, Free: free, Limits: Limits{MaxNodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Win {
				t.Errorf("%s free=%d: no win (%s)", fx, free, res.Reason)
				continue
			}
			if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
				t.Fatalf("%s free=%d: claimed win is unsound: %v", fx, free, err)
			}
			if res.Tree.Threats == 1 {
				singles++
			}
		}
		if singles == 0 {
			t.Errorf("%s: no single-threat opening: the fixture checks nothing", fx)
		}
	}
}
