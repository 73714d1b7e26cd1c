package autopilot

import (
	"context"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/booktest"
)

// BenchmarkProveLearn measures what the shape table (learn.go) and the
// postponed player do to whole small proofs: each case proved from an
// empty book with one job and node budgets only (deterministic), with
// both on, each alone (learning alone is the default), and neither. It reports the verifier
// calls (family jobs' included), expansions and positions added per proof;
// ns/op is the proof's time.
//
//	go test -run '^$' -bench ProveLearn -benchtime 1x ./autopilot
func BenchmarkProveLearn(b *testing.B) {
	cases := []struct {
		name  string
		rules game.Rules
		line  string
		opts  verify.VerifyOptions
	}{
		{"8x8k5-d4-λ3", game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, "d4", verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 2500}}},
		{"9x9k5-e5-λ2", game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, "e5", verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 5000}}},
		{"9x9k5-e5d4f6-λ3", game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, "e5 d4f6", verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 5000}}},
	}
	variants := []struct {
		name            string
		learn, postpone bool
	}{{"both", true, true}, {"learn", true, false}, {"postpone", false, true}, {"neither", false, false}}
	for _, c := range cases {
		for _, v := range variants {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				var calls, exps, added, proved float64
				for range b.N {
					b.StopTimer()
					bk := booktest.NewBook(b, c.rules)
					id := booktest.Add(b, bk, c.line)
					b.StartTimer()
					res, err := Prove(context.Background(), bk, id, verify.LocalVerifier{},
						ProveOptions{Attacker: game.Black, Jobs: 1, MaxCalls: 300, NoLearn: !v.learn, Postpone: v.postpone, Verify: c.opts}, nil)
					if err != nil {
						b.Fatal(err)
					}
					calls += float64(totalCalls(res))
					exps += float64(res.Expanded)
					added += float64(res.Added)
					if res.Status == "proved" {
						proved++
					}
					b.StopTimer()
					bk.Close()
					b.StartTimer()
				}
				n := float64(b.N)
				b.ReportMetric(calls/n, "calls/op")
				b.ReportMetric(exps/n, "expansions/op")
				b.ReportMetric(added/n, "positions/op")
				b.ReportMetric(proved/n, "proved/op")
			})
		}
	}
}
