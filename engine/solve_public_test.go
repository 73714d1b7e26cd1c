package engine

import (
	"context"
	"testing"
)

// On the public LittleGolem positions, with the same node budget, VCST
// finds every win VCDT finds (no budget split loses one), and every win of
// either mode passes CheckStrategy. A node budget, not a time budget, so
// that the outcome does not depend on the machine's load.
func TestVCSTFindsEveryVCDTWinPublic(t *testing.T) {
	if testing.Short() {
		t.Skip("solves all public positions")
	}
	pos := publicPositions(t)
	ctx := context.Background()
	const budget = 10000
	wins := map[Mode]int{}
	for i, b := range pos {
		won := map[Mode]bool{}
		for _, mode := range []Mode{VCDT, VCST} {
			res, err := Solve(ctx, b, Params{Mode: mode, Limits: Limits{MaxNodes: budget}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Win {
				continue
			}
			won[mode] = true
			wins[mode]++
			if err := CheckStrategy(ctx, b, res.Tree, 2_000_000); err != nil {
				t.Fatalf("public position %d, %v: claimed win is unsound: %v", i+1, mode, err)
			}
		}
		if won[VCDT] && !won[VCST] {
			t.Errorf("public position %d: VCDT wins within %d nodes, VCST with the same budget does not", i+1, budget)
		}
	}
	t.Logf("%d positions, %d nodes each: vcdt %d wins, vcst %d wins", len(pos), budget, wins[VCDT], wins[VCST])
	if wins[VCDT] == 0 {
		t.Error("no VCDT win: the test checks nothing")
	}
}
