package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"c6book/internal/testenv"
)

// randomSolverPosition places nA attacker and nD defender stones at random
// in a central box (so that threats occur), attacker to move, with nobody
// having won and the defender having at most p threats.
func randomSolverPosition(rng *rand.Rand, r Rules, nA, nD int) *Board {
	return randomSolverPositionOpt(rng, r, nA, nD, false)
}

// randomSolverPositionOpt is randomSolverPosition; with defThreats the
// defender may hold threat windows (at most p threats).
func randomSolverPositionOpt(rng *rand.Rand, r Rules, nA, nD int, defThreats bool) *Board {
	for {
		b := MustNewBoard(r)
		a, d := Black, White
		if rng.IntN(2) == 0 {
			a, d = White, Black
		}
		place := func(c Color, n int) {
			for i := 0; i < n; {
				s := Square(rng.IntN(r.Squares()))
				if b.cells[s] == Empty {
					b.Place(s, c)
					i++
				}
			}
		}
		place(a, nA)
		place(d, nD)
		if b.Winner() != Empty || b.Threats(d) > r.P || b.HasThreat(a) || (b.HasThreat(d) && !defThreats) {
			continue
		}
		b.SetToMove(a)
		b.setup = true
		return b
	}
}

type solverCase struct {
	rules  Rules
	nA, nD int
}

// Every win claimed by VCDT or VCST, under either free-stone policy, must
// survive CheckStrategy: every defender move, all of them, is answered.
// Every third position has the defender threatening, so the attacker's
// moves must block.
func TestSolverWinsAreSound(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	cases := []struct {
		solverCase
		n int
	}{
		{solverCase{Rules{9, 9, 5, 2, 1}, 4, 6}, 36},
		{solverCase{Rules{8, 8, 4, 1, 1}, 4, 4}, 40},
		{solverCase{Rules{11, 11, 6, 2, 1}, 13, 12}, 18},
		{solverCase{Rules{7, 7, 5, 2, 1}, 3, 5}, 36},
		{solverCase{Rules{10, 10, 6, 2, 1}, 7, 7}, 24},
	}
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+1, 42))
		wins := map[Mode]int{}
		for i := 0; i < sc.n; i++ {
			var b *Board
			if i%3 == 2 {
				b = randomThreatenedPosition(rng, sc.rules, sc.nA, sc.nD-1)
			} else {
				b = randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
			}
			for _, mode := range []Mode{VCDT, VCST} {
				for _, free := range []FreePolicy{FreeNear, FreeAll} {
					res, err := Solve(ctx, b, Params{Mode: mode, Free: free, Limits: Limits{MaxNodes: 20000}})
					if err != nil {
						t.Fatal(err)
					}
					if res.Outcome != Win {
						continue
					}
					wins[mode]++
					if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
						t.Fatalf("%v %v free=%d: claimed win is unsound: %v\nposition %s", sc.rules, mode, free, err, dumpBoard(b))
					}
				}
			}
		}
		t.Logf("%v: wins of %d solves: vcdt=%d vcst=%d", sc.rules, 2*sc.n, wins[VCDT], wins[VCST])
		if wins[VCDT] == 0 || wins[VCST] == 0 || wins[VCST] == 2*sc.n {
			t.Errorf("%v: the wins (%v) do not discriminate: adjust the generator", sc.rules, wins)
		}
	}
}

// bruteWin reports whether the attacker (to move) wins within depth moves
// when every attacker move must block the defender's threat windows and
// leave at least minT threats (or make k in a row), trying every attacker
// move and every defender reply, all of them. minT = 2 is the VCDT class,
// minT = 1 the VCST class.
func bruteWin(b *Board, a Color, depth, minT int) bool {
	if b.full[a] > 0 || b.HasThreat(a) {
		return true
	}
	if depth == 0 {
		return false
	}
	d := a.Opp()
	empt := b.StoneList(Empty)
	p := b.rules.P
	win := false
	forEachCombo(empt, p, func(am []Square) bool {
		for _, s := range am {
			b.Place(s, a)
		}
		ok := false
		if b.full[a] > 0 {
			ok = true
		} else if t := b.Threats(a); !b.HasThreat(d) && t >= minT {
			ok = true
			if t <= p && depth == 1 {
				// The defender blocks every threat window with a
				// critical defence and the attacker has no move left.
				ok = false
			} else if t <= p {
				forEachCombo(b.StoneList(Empty), p, func(dm []Square) bool {
					for _, s := range dm {
						b.Place(s, d)
					}
					if b.full[d] > 0 || !bruteWin(b, a, depth-1, minT) {
						ok = false
					}
					for i := len(dm) - 1; i >= 0; i-- {
						b.Remove(dm[i])
					}
					return ok
				})
			}
		}
		for i := len(am) - 1; i >= 0; i-- {
			b.Remove(am[i])
		}
		win = ok
		return !ok
	})
	return win
}

// forEachCombo calls f with every n-subset of sq until f returns false.
func forEachCombo(sq []Square, n int, f func([]Square) bool) {
	if n > len(sq) {
		n = len(sq)
	}
	buf := make([]Square, n)
	var rec func(start, k int) bool
	rec = func(start, k int) bool {
		if k == n {
			return f(buf)
		}
		for i := start; i < len(sq); i++ {
			buf[k] = sq[i]
			if !rec(i+1, k+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// A forced win that brute force finds inside the horizon (two threat
// moves, then six) is found by VCDT, resp. VCST, with every free stone
// allowed: completeness on that class. Positions without a brute-force win
// are solved too (any claimed win must then pass CheckStrategy).
func TestVCDTCompleteAgainstBruteForce(t *testing.T) {
	completeAgainstBrute(t, VCDT, 2, []solverCase{
		{Rules{7, 7, 5, 2, 1}, 3, 5},
		{Rules{7, 7, 5, 2, 1}, 4, 6},
		{Rules{8, 8, 5, 2, 1}, 5, 5},
	}, 40)
}

func TestVCSTCompleteAgainstBruteForce(t *testing.T) {
	testenv.Heavy(t)
	completeAgainstBrute(t, VCST, 1, []solverCase{
		{Rules{7, 7, 5, 2, 1}, 3, 5},
	}, 16)
}

func completeAgainstBrute(t *testing.T, mode Mode, minT int, cases []solverCase, n int) {
	ctx := context.Background()
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+100, 7))
		found, other := 0, 0
		for i := 0; i < n; i++ {
			b := randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
			a := b.ToMove()
			brute := bruteWin(b.Clone(), a, 2, minT)
			res, err := Solve(ctx, b, Params{Mode: mode, Free: FreeAll, Limits: Limits{MaxNodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			if brute {
				found++
				if res.Outcome != Win {
					t.Fatalf("%v: brute force wins within 2 moves of %d+ threats, %v says %v (%s)\n%s", sc.rules, minT, mode, res.Outcome, res.Reason, dumpBoard(b))
				}
			} else if res.Outcome == Win {
				other++
			}
			if res.Outcome == Win {
				if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
					t.Fatalf("%v %v: claimed win is unsound: %v\n%s", sc.rules, mode, err, dumpBoard(b))
				}
			}
		}
		t.Logf("%v %v: %d of %d positions are brute-force wins, all found; %d deeper wins, all sound", sc.rules, mode, found, n, other)
		if found == 0 || found == n {
			t.Errorf("%v: %d brute-force wins of %d: the test does not discriminate", sc.rules, found, n)
		}
	}
}

// outsideSets calls f with every set of 1..n empty squares outside zone.
func outsideSets(b *Board, zone []Square, n int, f func([]Square) bool) {
	z := SqSetOf(zone...)
	var outside []Square
	for s, c := range b.cells {
		if c == Empty && !z.Has(Square(s)) {
			outside = append(outside, Square(s))
		}
	}
	for k := 1; k <= n && k <= len(outside); k++ {
		cont := true
		forEachCombo(outside, k, func(set []Square) bool {
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
		solverCase
		tol, positions int
	}
	cases := []zcase{
		{solverCase{Rules{9, 9, 5, 2, 1}, 4, 6}, 2, 12},
		{solverCase{Rules{9, 9, 5, 2, 1}, 4, 6}, 1, 16},
		{solverCase{Rules{8, 8, 4, 1, 1}, 4, 4}, 1, 20},
		{solverCase{Rules{7, 7, 5, 2, 1}, 3, 5}, 2, 12},
		{solverCase{Rules{11, 11, 6, 2, 1}, 13, 12}, 1, 8},
		{solverCase{Rules{11, 11, 6, 2, 1}, 13, 12}, 2, 4},
	}
	for ci, zc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+200, 9))
		tested, placements := 0, 0
		for i := 0; i < 400 && tested < zc.positions; i++ {
			b := randomSolverPosition(rng, zc.rules, zc.nA, zc.nD)
			if i%3 == 2 {
				b = randomThreatenedPosition(rng, zc.rules, zc.nA, zc.nD-1)
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
			outsideSets(b, res.Zone, zc.tol, func(set []Square) bool {
				placements++
				nb := b.Clone()
				for _, s := range set {
					nb.Place(s, d)
				}
				if err := CheckStrategy(ctx, nb, res.Tree, 2_000_000); err != nil {
					t.Fatalf("%v %v tol %d: defender stones %v outside the zone break the strategy: %v\n%s", zc.rules, mode, zc.tol, squareList(b.rules, set), err, dumpBoard(nb))
					return false
				}
				if placements%16 == 0 {
					r2, err := Solve(ctx, nb, Params{Mode: mode, Limits: Limits{MaxNodes: 50000}})
					if err != nil {
						t.Fatal(err)
					}
					if r2.Outcome != Win {
						t.Fatalf("%v %v: re-solve after stones outside the zone: %v\n%s", zc.rules, mode, r2.Reason, dumpBoard(nb))
					}
				}
				return true
			})
		}
		t.Logf("%v tol %d: %d solved positions, %d outside placements checked", zc.rules, zc.tol, tested, placements)
		if tested < zc.positions {
			t.Errorf("%v: only %d solved positions tested", zc.rules, tested)
		}
	}
}

func squareList(r Rules, sq []Square) string {
	var out []string
	for _, s := range sq {
		out = append(out, SquareName(r, s))
	}
	return fmt.Sprint(out)
}

func TestParseModeAndFreePolicy(t *testing.T) {
	for s, want := range map[string]Mode{"vcdt": VCDT, "VCDT": VCDT, "vcst": VCST, "VCST": VCST} {
		if m, err := ParseMode(s); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	for s, want := range map[string]FreePolicy{"near": FreeNear, "all": FreeAll} {
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
		for _, free := range []FreePolicy{FreeNear, FreeAll} {
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
