package proofcheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"c6book/engine/game"
)

// resultText is what a check returns, as text: the error, or the result's
// zone, order, open seminull stones and covered moves.
func resultText(res *VerdictResult, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var cov []string
	for m := range res.covered {
		cov = append(cov, fmt.Sprint(m))
	}
	slices.Sort(cov)
	return fmt.Sprintf("zone %v order %d open %v semis %d null %v/%v thin %v/%v covered %v",
		res.Zone, res.Order, res.OpenSeminull, len(res.semis), res.hasNull, res.nullZone, res.nullThin, res.subThin, cov)
}

// CheckVerdict checks a certificate's strategies in parallel: the result,
// and for a certificate with broken entries the error (the first broken
// entry in the certificate's order), are those of the check on one
// goroutine, whatever the number of goroutines and the scheduling.
func TestCheckVerdictParallelSameResult(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(28, 623))
	cases, broken := 0, 0
	for _, vc := range verdictCases(t) {
		base := FromVerdict(&vc.v)
		if base.AllUnsolved || len(base.Covered)+len(base.Seminull) < 3 {
			continue
		}
		d := vc.b.ToMove()
		check := func(c *Cert, workers int) string {
			return resultText(checkVerdict(ctx, vc.r, vc.black, vc.white, d, 0, c, workers, true))
		}
		same := func(what string, c *Cert) string {
			want := check(c, 1)
			for _, w := range []int{2, 3, 8} {
				for rep := 0; rep < 3; rep++ {
					if got := check(c, w); got != want {
						t.Fatalf("%v: %s: %d goroutines give\n%s\none gives\n%s", vc, what, w, got, want)
					}
				}
			}
			return want
		}
		if got := same("the verdict", base); got[:6] == "error:" {
			t.Fatalf("%v: the verdict does not check: %s", vc, got)
		}
		cases++
		// Break two or three entries (a strategy without replies, a
		// seminull zone without a square, a covered move on a stone):
		// the error is the first broken one's, as on one goroutine.
		for round := 0; round < 4; round++ {
			c := FromVerdict(&vc.v)
			n := len(c.Seminull) + len(c.Covered)
			for k := 0; k < 2+round%2; k++ {
				i := rng.IntN(n)
				switch {
				case i < len(c.Seminull) && len(c.Seminull[i].Zone) > 0:
					c.Seminull[i].Zone = c.Seminull[i].Zone[1:]
				case i < len(c.Seminull):
					c.Seminull[i].Tree = &Tree{Move: c.Seminull[i].Tree.Move}
				case round == 3:
					c.Covered[i-len(c.Seminull)].Move = game.NewMove(vc.black[0], vc.white[0])
				default:
					cv := &c.Covered[i-len(c.Seminull)]
					cv.Tree = &Tree{Move: cv.Tree.Move}
				}
			}
			if got := same(fmt.Sprintf("round %d", round), c); got[:6] == "error:" {
				broken++
			}
		}
	}
	t.Logf("%d verdicts, %d broken certificates refused alike", cases, broken)
	if cases < 5 || broken < 10 {
		t.Errorf("too few cases: %d verdicts, %d broken certificates", cases, broken)
	}
}
