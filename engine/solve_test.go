package engine

import (
	"context"
	"math/rand/v2"
	"testing"
)

// randomSolverPosition places nA attacker and nD defender stones at random
// in a central box (so that threats occur), attacker to move, with nobody
// having won and the defender having at most p threats.
func randomSolverPosition(rng *rand.Rand, r Rules, nA, nD int) *Board {
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
		if b.Winner() != Empty || b.Threats(d) > r.P || b.HasThreat(a) || b.HasThreat(d) {
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

// Zones: defender stones placed anywhere outside the root zone (computed
// for two extra stones) leave the position won: by re-solving, and by the
// same tree checked against every reply.
func TestZonesTolerateOutsideStones(t *testing.T) {
	ctx := context.Background()
	for ci, sc := range solverCases[:3] {
		rng := rand.New(rand.NewPCG(uint64(ci)+200, 9))
		tested := 0
		for i := 0; i < 60 && tested < 25; i++ {
			b := randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
			for _, mode := range []Mode{VCDT, VCST} {
				res, err := Solve(ctx, b, Params{Mode: mode, Tolerance: b.rules.P, Limits: Limits{MaxNodes: 20000}})
				if err != nil {
					t.Fatal(err)
				}
				if res.Outcome != Win || res.Tree.Six {
					continue
				}
				zone := SqSetOf(res.Zone...)
				var outside []Square
				for s, c := range b.cells {
					if c == Empty && !zone.Has(Square(s)) {
						outside = append(outside, Square(s))
					}
				}
				if len(outside) < 2 {
					continue
				}
				tested++
				d := b.ToMove().Opp()
				for trial := 0; trial < 4; trial++ {
					nb := b.Clone()
					n := 1 + trial%sc.rules.P
					for j := 0; j < n; j++ {
						for {
							s := outside[rng.IntN(len(outside))]
							if nb.cells[s] == Empty {
								nb.Place(s, d)
								break
							}
						}
					}
					if err := CheckStrategy(ctx, nb, res.Tree, 2_000_000); err != nil {
						t.Fatalf("%v %v: %d stones outside the zone break the strategy: %v\n%s", sc.rules, mode, n, err, dumpBoard(nb))
					}
					r2, err := Solve(ctx, nb, Params{Mode: mode, Limits: Limits{MaxNodes: 50000}})
					if err != nil {
						t.Fatal(err)
					}
					if r2.Outcome != Win {
						t.Fatalf("%v %v: re-solve after stones outside the zone: %v\n%s", sc.rules, mode, r2.Reason, dumpBoard(nb))
					}
				}
			}
		}
		t.Logf("%v: %d solved positions tested", sc.rules, tested)
		if tested == 0 {
			t.Errorf("%v: nothing tested", sc.rules)
		}
	}
}
