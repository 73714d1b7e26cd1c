package verify

import (
	"context"
	"math/rand/v2"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// symmetricPosition returns a position with the defender to move that
// symmetry sym maps onto itself: nA attacker and nD defender stones (about:
// whole orbits of sym are placed), or nil when the position drawn is over,
// lets the defender win at once or gives the attacker more than p threats.
func symmetricPosition(rng *rand.Rand, r game.Rules, sym, nA, nD int) *board.Board {
	b := board.MustNewBoard(r)
	a, d := game.Black, game.White
	if rng.IntN(2) == 0 {
		a, d = game.White, game.Black
	}
	place := func(c game.Color, n int) {
		for placed, tries := 0, 0; placed < n && tries < 200; tries++ {
			s := game.Square(rng.IntN(r.Squares()))
			orbit := []game.Square{s}
			for t := r.Transform(sym, s); t != s; t = r.Transform(sym, t) {
				orbit = append(orbit, t)
			}
			free := true
			for _, t := range orbit {
				free = free && b.At(t) == game.Empty
			}
			if !free {
				continue
			}
			for _, t := range orbit {
				b.Place(t, c)
			}
			placed += len(orbit)
		}
	}
	place(a, nA)
	place(d, nD)
	b.SetToMove(d)
	b.MarkSetUp()
	if b.Winner() != game.Empty || b.HasThreat(d) || b.Threats(a) > r.P {
		return nil
	}
	return b
}

// A symmetric position's verdict solves one defender move of each orbit of
// its symmetries and maps the strategy to the others: the verdict is still
// sound against every defender move (checkVerdict replays every strategy,
// the mapped ones included, against every defender reply), and it takes
// fewer solver calls than solving every move.
func TestVerifySymmetrySoundAgainstEveryDefence(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	cases := []struct {
		r      game.Rules
		nA, nD int
		n      int
	}{
		{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, 8, 6, 8},
		{game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, 6, 5, 6},
	}
	for ci, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+4100, 23))
		stat := map[string]int{}
		for i := 0; i < c.n; {
			sym := 1 + rng.IntN(c.r.SymmetryCount()-1)
			b := symmetricPosition(rng, c.r, sym, c.nA, c.nD)
			if b == nil {
				continue
			}
			cb, _ := b.Canonical()
			if len(cb.Stabilizer()) == 1 {
				t.Fatalf("symmetry %d maps the position onto itself, the canonical image has no symmetry\n%s", sym, b.Diagram())
			}
			i++
			lambda := 2 + i%2
			opts := VerifyOptions{Lambda: lambda, Limits: threat.Limits{MaxNodes: 4000}, Workers: 2}
			vd, err := Verify(ctx, b, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			opts.noSymmetry = true
			all, err := Verify(ctx, b, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			stat[string(vd.Status)]++
			if vd.Calls > all.Calls {
				t.Fatalf("λ%d: %d solver calls with the symmetry, %d without\n%s", lambda, vd.Calls, all.Calls, b.Diagram())
			}
			if vd.Calls < all.Calls {
				stat["fewer-calls"]++
			}
			if vd.Jobs > vd.Calls {
				stat["mapped-jobs"] += vd.Jobs - vd.Calls
			}
			for k, n := range checkVerdict(t, ctx, b, vd) {
				stat[k] += n
			}
		}
		t.Logf("%v: %v", c.r, stat)
		if stat["fewer-calls"] == 0 || stat[ArgExplicit] == 0 || stat[string(StatusProved)] == 0 {
			t.Errorf("%v: the sample does not exercise mapped strategies in proofs: %v", c.r, stat)
		}
	}
}

// Board.Stabilizer finds exactly the symmetries that map the position onto
// itself: checked against every symmetry's image, stone by stone.
func TestStabilizer(t *testing.T) {
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(5, 8))
	found := 0
	for i := 0; i < 40; i++ {
		b := symmetricPosition(rng, r, 1+rng.IntN(7), 4, 3)
		if b == nil {
			continue
		}
		stab := b.Stabilizer()
		if stab[0] != 0 {
			t.Fatalf("stabilizer %v does not start with the identity", stab)
		}
		got := map[int]bool{}
		for _, s := range stab[1:] {
			got[s] = true
		}
		for sym := 1; sym < r.SymmetryCount(); sym++ {
			same := true
			for s := game.Square(0); int(s) < r.Squares(); s++ {
				if b.At(r.Transform(sym, s)) != b.At(s) {
					same = false
				}
			}
			if same != got[sym] {
				t.Fatalf("symmetry %d: maps the position onto itself %v, stabilizer says %v\n%s", sym, same, got[sym], b.Diagram())
			}
		}
		found += len(got)
	}
	if found == 0 {
		t.Fatal("no symmetric position drawn")
	}
}
