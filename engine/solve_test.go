package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
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

var solverCases = []solverCase{
	{Rules{9, 9, 5, 2, 1}, 4, 6},
	{Rules{8, 8, 4, 1, 1}, 4, 4},
	{Rules{11, 11, 6, 2, 1}, 13, 12},
	{Rules{7, 7, 4, 2, 1}, 2, 6},
}

// Every win claimed by VCDT or VCST, under either free-stone policy, must
// survive CheckStrategy: every defender move, all of them, is answered.
func TestSolverWinsAreSound(t *testing.T) {
	ctx := context.Background()
	for ci, sc := range solverCases {
		rng := rand.New(rand.NewPCG(uint64(ci)+1, 42))
		wins := map[Mode]int{}
		for i := 0; i < 60; i++ {
			b := randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
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
		t.Logf("%v: wins of 120 solves: vcdt=%d vcst=%d", sc.rules, wins[VCDT], wins[VCST])
		if wins[VCDT] == 0 || wins[VCST] == 0 {
			t.Errorf("%v: too few wins to test (%v): adjust the generator", sc.rules, wins)
		}
	}
}

// bruteVCDT reports whether the attacker (to move) wins within depth moves
// when every attacker move must leave at least two threats (or win), trying
// every attacker move and every defender reply.
func bruteVCDT(b *Board, a Color, depth int) bool {
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
		} else if !b.HasThreat(d) && b.Threats(a) >= 2 {
			ok = true
			if b.Threats(a) <= p {
				forEachCombo(b.StoneList(Empty), p, func(dm []Square) bool {
					for _, s := range dm {
						b.Place(s, d)
					}
					if b.full[d] > 0 || !bruteVCDT(b, a, depth-1) {
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

// A forced win that brute force finds inside the VCDT horizon is found by
// VCDT with every free stone allowed (completeness on that class).
func TestVCDTCompleteAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	cases := []solverCase{
		{Rules{7, 7, 4, 2, 1}, 2, 7},
		{Rules{8, 8, 5, 2, 1}, 5, 5},
	}
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+100, 7))
		found := 0
		for i := 0; i < 40; i++ {
			b := randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
			a := b.ToMove()
			brute := bruteVCDT(b.Clone(), a, 2)
			res, err := Solve(ctx, b, Params{Mode: VCDT, Free: FreeAll, Limits: Limits{MaxNodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			if brute {
				found++
				if res.Outcome != Win {
					t.Fatalf("%v: brute force wins within 2 double-threat moves, VCDT says %v (%s)\n%s", sc.rules, res.Outcome, res.Reason, dumpBoard(b))
				}
			}
		}
		t.Logf("%v: %d of 40 brute-force VCDT wins, all found", sc.rules, found)
		if found == 0 {
			t.Errorf("%v: no brute-force wins: the test would be vacuous", sc.rules)
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
	for k := 1; k <= n; k++ {
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
	ctx := context.Background()
	type zcase struct {
		solverCase
		tol, positions int
	}
	cases := []zcase{
		{solverCase{Rules{9, 9, 5, 2, 1}, 4, 6}, 2, 8},
		{solverCase{Rules{9, 9, 5, 2, 1}, 4, 6}, 1, 12},
		{solverCase{Rules{8, 8, 4, 1, 1}, 4, 4}, 1, 15},
		{solverCase{Rules{7, 7, 4, 2, 1}, 3, 7}, 2, 8},
		{solverCase{Rules{11, 11, 6, 2, 1}, 13, 12}, 1, 6},
	}
	for ci, zc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+200, 9))
		tested, placements := 0, 0
		for i := 0; i < 400 && tested < zc.positions; i++ {
			b := randomSolverPosition(rng, zc.rules, zc.nA, zc.nD)
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
