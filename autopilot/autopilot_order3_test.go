package autopilot

import (
	"c6book/internal/booktest"
	"c6book/internal/lambda3oracle"
	"context"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// An order-3 proof built by the auto-pilot with its candidates as they
// are (shape moves, sibling moves): d4 on 8×8, five in a row, at 2,500
// nodes a solver call (testdata/lambda3.tsv: a budget at which the
// seminull searches fail and the book closes an open seminull item). The
// target is proved at order 3 through a closed seminull item (its zone's
// full moves each proved), every such position is played out against
// every defender reply by brute force, and the book passes check.
func TestProveOrder3BruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	id := booktest.Add(t, bk, "d4")
	opts := ProveOptions{Attacker: game.Black, MaxCalls: 200, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 2500}}}
	res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "proved" || res.Proof.Order != 3 {
		t.Fatalf("d4: %s, order %d after %d calls; want proved at order 3", res.Status, res.Proof.Order, res.Calls)
	}
	cl := closedSeminull(t, bk, game.Black)
	if len(cl) == 0 {
		t.Fatal("no proved position holds a closed seminull item")
	}
	for _, pos := range cl {
		lambda3oracle.MustWin(ctx, t, bk, game.Black, pos, "d4")
	}
	booktest.MustCheck(t, bk)
	t.Logf("d4: proved at order 3, %d calls, %d positions added, %d positions proved through a closed seminull item, each confirmed by brute force", res.Calls, res.Added, len(cl))
}

// The same proof with verify.VerifyOptions.SeminullItemFrom at 1: every
// refuted seminull stone with an unsolved full move becomes an open item
// (the most items the rule can make). The target is still proved, every
// position proved through a closed seminull item is confirmed by brute
// force, and the book passes check.
func TestProveSeminullItemsBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	id := booktest.Add(t, bk, "d4")
	opts := ProveOptions{Attacker: game.Black, MaxCalls: 200, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 2500}, SeminullItemFrom: 1}}
	res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "proved" {
		t.Fatalf("d4: %s, order %d after %d calls; want proved", res.Status, res.Proof.Order, res.Calls)
	}
	cl := closedSeminull(t, bk, game.Black)
	if len(cl) == 0 {
		t.Fatal("no proved position holds a closed seminull item")
	}
	for _, pos := range cl {
		lambda3oracle.MustWin(ctx, t, bk, game.Black, pos, "d4")
	}
	booktest.MustCheck(t, bk)
	t.Logf("d4: proved at order %d, %d calls, %d positions added, %d positions proved through a closed seminull item, each confirmed by brute force", res.Proof.Order, res.Calls, res.Added, len(cl))
}
