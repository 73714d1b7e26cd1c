package enginecert

import (
	"context"
	"math/rand/v2"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

// The certificates FromVerdict makes of the verifier's verdicts pass
// proofcheck.CheckVerdict and, with ItemsOf's items, its coverage rule
// (CheckItems); ItemsOf lists the verdict's unsolved moves and
// open seminull stones, and a strategy survives FromStrategy and
// ToStrategy (moves, Six flags and replies). Some verdicts must carry
// strategies, or the test proves nothing.
func TestVerdictsConvertAndCheck(t *testing.T) {
	ctx := context.Background()
	if FromVerdict(nil) != nil || FromStrategy(nil) != nil || ToStrategy(nil) != nil {
		t.Fatal("nil does not convert to nil")
	}
	if it := ItemsOf(nil); it.All || len(it.Unsolved) != 0 || len(it.OpenSeminull) != 0 {
		t.Fatalf("ItemsOf(nil) = %+v", it)
	}
	withTrees := 0
	for ci, r := range []game.Rules{{M: 6, N: 6, K: 4, P: 2, Q: 1}, {M: 7, N: 7, K: 4, P: 1, Q: 1}, {M: 7, N: 7, K: 5, P: 2, Q: 1}} {
		rng := rand.New(rand.NewPCG(uint64(ci)+41, 7))
		n := 6
		if r.K == 5 {
			n = 2 // hundreds of solver calls each
		}
		for i := 0; i < n; i++ {
			b := randomPosition(rng, r, 3)
			for _, lambda := range []int{2, 3} {
				v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 1500}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				c := FromVerdict(&v)
				res, err := proofcheck.CheckVerdict(ctx, r, b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), 0, c)
				if err != nil {
					t.Fatalf("%v λ%d %s: the certificate does not check: %v", r, lambda, b.Diagram(), err)
				}
				it := ItemsOf(&v)
				// The certificate and the items together account for every
				// defender move: a strategy FromVerdict dropped would leave
				// its moves unaccounted for.
				if err := res.CheckItems(it); err != nil {
					t.Fatalf("%v λ%d %s: the items do not cover the moves the certificate leaves: %v", r, lambda, b.Diagram(), err)
				}
				if it.All != v.AllUnsolved || len(it.Unsolved) != len(v.Unsolved) || len(it.OpenSeminull) != len(v.OpenSeminull) {
					t.Fatalf("ItemsOf: %+v of a verdict with %d unsolved, %d open seminull, all %v", it, len(v.Unsolved), len(v.OpenSeminull), v.AllUnsolved)
				}
				for i, u := range v.Unsolved {
					if it.Unsolved[i] != u.Move {
						t.Fatalf("ItemsOf: unsolved %d is %v, the verdict's %v", i, it.Unsolved[i], u.Move)
					}
				}
				trees := []*threat.Strategy{v.NullTree}
				for _, m := range v.Covered {
					trees = append(trees, m.Tree)
				}
				for _, st := range trees {
					if st == nil {
						continue
					}
					withTrees++
					if !sameStrategy(st, ToStrategy(FromStrategy(st))) {
						t.Fatalf("a strategy changed through FromStrategy and ToStrategy")
					}
				}
			}
		}
	}
	if withTrees == 0 {
		t.Fatal("no verdict carried a strategy: the positions do not exercise the conversion")
	}
}

// randomPosition places n stones of each colour at random, nobody having
// won, a colour at random to move (the defender).
func randomPosition(rng *rand.Rand, r game.Rules, n int) *board.Board {
	for {
		b := board.MustNewBoard(r)
		for _, c := range []game.Color{game.Black, game.White} {
			for placed := 0; placed < n; {
				if s := game.Square(rng.IntN(r.Squares())); b.At(s) == game.Empty {
					b.Place(s, c)
					placed++
				}
			}
		}
		if b.Winner() != game.Empty {
			continue
		}
		b.SetToMove(game.Color(1 + rng.IntN(2)))
		b.MarkSetUp()
		return b
	}
}

func sameStrategy(a, b *threat.Strategy) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Move != b.Move || a.Six != b.Six || len(a.Replies) != len(b.Replies) {
		return false
	}
	for i, r := range a.Replies {
		o := b.Replies[i]
		if o.Move != r.Move || o.Seminull != r.Seminull || !sameStrategy(r.Then, o.Then) {
			return false
		}
	}
	return true
}
