package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/game"
	"c6book/engine/threat"
)

// PlayerCandidates' order (issue 23; docs/ALGORITHMS.md, the player), on random
// Connect6 openings (fixed seed):
//   - among the moves that make no threat, every move after which the
//     mover wins by VCDT/VCST when the opponent passes (the null move a λ3
//     verify starts with) comes before every move after which it does not
//     (those leave every reply unsolved);
//   - the player's quiet moves that pass come in the order of Play's
//     candidates (the null-move check only moves the failing ones last).
func TestPlayerCandidatesOrder(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	r := game.Connect6()
	rng := rand.New(rand.NewPCG(23, 3))
	const n, nodes = 32, 3000
	positions, passed, failed := 0, 0, 0
	for i := 0; i < 60 && positions < 12; i++ {
		b := randomGame(rng, r, 2+2*rng.IntN(2)) // openings: 2 or 4 turns
		a, d := b.ToMove(), b.ToMove().Opp()
		if b.Threats(a) > 0 || b.Threats(d) > 0 || b.Winner() != game.Empty {
			continue
		}
		positions++
		cs, err := PlayerCandidates(ctx, b, n, nodes)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Play(ctx, b, PlayOptions{MaxNodes: nodes})
		if err != nil {
			t.Fatal(err)
		}
		rank := map[game.Move]int{}
		for k, c := range pr.Candidates {
			rank[c.Move] = k + 1
		}
		seenFail, lastRank := false, 0
		for _, c := range cs {
			mb := b.Clone()
			if err := mb.Play(c.Move); err != nil {
				t.Fatalf("illegal candidate %s: %v", game.MoveName(r, c.Move), err)
			}
			if mb.Threats(a) > 0 {
				continue
			}
			mb.SetToMove(a) // the opponent passes
			res, err := threat.Solve(ctx, mb, threat.Params{Mode: threat.VCST, Tolerance: r.P, Limits: threat.Limits{MaxNodes: nullCheckNodes}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != threat.Win {
				failed++
				seenFail = true
				continue
			}
			passed++
			if seenFail {
				t.Errorf("%s wins after a null move but comes after a move that does not\n%s", game.MoveName(r, c.Move), b.Diagram())
			}
			if k := rank[c.Move]; k > 0 {
				if k < lastRank {
					t.Errorf("%s (Play rank %d) after a move of rank %d\n%s", game.MoveName(r, c.Move), k, lastRank, b.Diagram())
				}
				lastRank = k
			}
		}
	}
	t.Logf("%d positions; quiet candidates: %d win after a null move, %d do not", positions, passed, failed)
	if passed == 0 || failed == 0 {
		t.Error("the positions do not exercise the rules: adjust the generator")
	}
}
