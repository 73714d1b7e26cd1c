package autopilot

import (
	"context"
	"fmt"
	"testing"

	"c6book/engine/game"
	"c6book/engine/verify"
)

// An order-3 proof built by the auto-pilot with its candidates as they
// are (shape moves, sibling moves): d4 on 8×8, five in a row, at 2,500
// nodes a solver call (testdata/lambda3.tsv: a budget at which the
// seminull searches fail and the book closes an open seminull item). The
// target is proved at order 3 through a closed seminull item (its zone's
// full moves each proved), every such position is played out against
// every defender reply by brute force, and the book passes check.
//
// The same with verify.VerifyOptions.SeminullItemFrom at 1: every refuted
// seminull stone with an unsolved full move becomes an open item (the
// most items the rule can make). The target is still proved (at any
// order), every position proved through a closed seminull item is
// confirmed by brute force, and the book passes check.
func TestProveOrder3BruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, itemFrom := range []int{0, 1} {
		t.Run(fmt.Sprintf("SeminullItemFrom=%d", itemFrom), func(t *testing.T) {
			ctx := context.Background()
			bk, id, opts := order3Fixture(t, 200)
			opts.Verify.SeminullItemFrom = itemFrom
			res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != "proved" || itemFrom == 0 && res.Proof.Order != 3 {
				t.Fatalf("d4: %s, order %d after %d calls; want proved (at order 3 without the rule)", res.Status, res.Proof.Order, res.Calls)
			}
			n := mustWinThroughClosedItems(ctx, t, bk, game.Black, "d4")
			t.Logf("d4: proved at order %d, %d calls, %d positions added, %d positions proved through a closed seminull item, each confirmed by brute force", res.Proof.Order, res.Calls, res.Added, n)
		})
	}
}
