package autopilot

import (
	"context"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/jobsearch"
	playerpkg "c6book/engine/player"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// totalCalls is every verifier call a Prove run stored (the search's jobs,
// the screen's and the family jobs' calls: CallsAt counts them all).
func totalCalls(res ProveResult) int {
	n := 0
	for _, c := range res.CallsAt {
		n += c
	}
	return n
}

// The seminull family job on the order-3 fixture of
// TestProveOrder3BruteForce (d4 on 8×8, five in a row, 2,500 nodes a
// solver call): with it the auto-pilot proves d4 at order 3 through a
// family job that proved at least one full move (s, x) with the answer
// of the seminull position, every position holding a closed seminull item
// is played out against every defender reply by brute force, and the book
// passes check (every verdict re-checked by proofcheck). Without it
// (NoFamily) the same proof is reached one position at a time; both
// runs' figures are logged. It fails if the family job never runs, proves
// nothing or verifies one position a job, if the proof is not of order 3, or if brute force finds
// a defence the book missed.
func TestProveOrder3FamilyBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	for _, noFamily := range []bool{false, true} {
		bk, id, opts := order3Fixture(t, 200)
		opts.NoFamily = noFamily
		res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != "proved" || res.Proof.Order != 3 {
			t.Fatalf("d4 (no family %v): %s, order %d after %d calls; want proved at order 3", noFamily, res.Status, res.Proof.Order, res.Calls)
		}
		if !noFamily && (res.FamilyJobs == 0 || res.FamilyProved == 0 || res.FamilyCalls <= res.FamilyJobs) {
			t.Fatalf("d4: %d family jobs made %d verifier calls and proved %d positions; want at least one job, more calls than jobs (a job verifies its whole family), and a proof", res.FamilyJobs, res.FamilyCalls, res.FamilyProved)
		}
		if noFamily && res.FamilyJobs != 0 {
			t.Fatalf("d4 with NoFamily: %d family jobs", res.FamilyJobs)
		}
		mustWinThroughClosedItems(ctx, t, bk, game.Black, "d4")
		t.Logf("d4, no family %v: proved at order 3; %d jobs, %d verifier calls (%d in %d family jobs, %d proved), %d expansions, %d positions added",
			noFamily, res.Calls, totalCalls(res), res.FamilyCalls, res.FamilyJobs, res.FamilyProved, res.Expanded, res.Added)
	}
}

// proveByCalls proves the fixture's position id one verifier call at a time
// (opts.MaxCalls 1, at most 200 runs) and calls each after every run with
// the number of positions the book then holds, until a run ends other than
// at its budget.
func proveByCalls(ctx context.Context, t *testing.T, bk *proofbook.Book, id PosID, opts ProveOptions, each func(positions int64)) {
	t.Helper()
	for step := 0; step < 200; step++ {
		res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := bk.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		each(int64(st.Positions))
		if res.Status != c6book.ProveBudget {
			return
		}
	}
}

// A position waiting for its seminull family's job (familyPending) is a
// job whose expected numbers are those of a vouched move (the answer the
// job stores), not its static evaluation: on the order-3 fixture, run one
// call at a time (node budgets only), every such position the book holds
// between two calls is looked at. It fails if no position ever waits for
// a family job, or if one is reported with other work or numbers.
func TestFamilyPendingExpectsItsAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	bk, id, opts := order3Fixture(t, 1)
	wantPN, wantDN := playerpkg.ExpectedNumbers(vouched)
	pending := 0
	proveByCalls(ctx, t, bk, id, opts, func(positions int64) {
		tree := newBookTree(bk, verify.LocalVerifier{}, opts.withDefaults())
		for k := PosID(1); k <= PosID(positions); k++ {
			if _, _, _, ok, err := tree.familyPending(ctx, k); err != nil || !ok {
				continue
			}
			n, err := tree.Look(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			if n.Result != jobsearch.JobUnsettled {
				continue // settled otherwise (e.g. won at once)
			}
			pending++
			if n.Work != jobsearch.JobRun || n.PN != wantPN || n.DN != wantDN {
				t.Fatalf("position %d waits for its family job: work %v, expected %d/%d; want a job expecting %d/%d (a vouched move)", k, n.Work, n.PN, n.DN, wantPN, wantDN)
			}
		}
	})
	if pending == 0 {
		t.Fatal("no position ever waited for a family job: the test saw nothing")
	}
	t.Logf("%d looks at positions waiting for their family job", pending)
}

// A seminull position (the position of an open seminull item: one defender
// stone of two) counts its family in the search (ProveOptions.SeminullWeight,
// JobNode.After): on the order-3 fixture, proved one call at a time (node
// budgets only), every unsettled attacker-to-move position the book holds
// between two calls is looked at with SeminullWeight 3. A position that is
// the seminull item of a stored verdict (OpenItems, one stone) must count
// 3 more; every other position nothing; the position after Black's first
// stone, White attacking, nothing; with the weight off, nothing. Once the
// run has family jobs behind it the weight is their mean: a tree that
// ran one job leaving 7 of 10 members open counts (3 + 7) / 2 = 5. It
// fails if no seminull position was seen.
func TestSeminullPositionsCountTheirFamily(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	bk, id, opts := order3Fixture(t, 1)
	opts.SeminullWeight = 3
	seen := 0
	proveByCalls(ctx, t, bk, id, opts, func(positions int64) {
		// The seminull items of the stored verdicts.
		item := map[PosID]bool{}
		for k := PosID(1); k <= PosID(positions); k++ {
			pi, err := bk.AutoNode(ctx, k, game.Black)
			if err != nil {
				t.Fatal(err)
			}
			if pi.Verdict == nil || pi.Verdict.Attacker != game.Black {
				continue
			}
			b, err := bk.Board(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			items, err := bk.OpenItems(ctx, k, game.Black, b, pi.Verdict)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				if it.ID != 0 && it.Move.Len() == 1 {
					item[it.ID] = true
				}
			}
		}
		tree := newBookTree(bk, verify.LocalVerifier{}, opts.withDefaults())
		off := opts
		off.SeminullWeight = -1
		offTree := newBookTree(bk, verify.LocalVerifier{}, off.withDefaults())
		for k := PosID(1); k <= PosID(positions); k++ {
			n, err := tree.Look(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			if !n.OR || n.Result != jobsearch.JobUnsettled {
				continue
			}
			want := int64(0)
			if item[k] {
				want = 3
				seen++
			}
			if n.After != want {
				t.Fatalf("position %d (seminull item %v) counts %d more; want %d", k, item[k], n.After, want)
			}
			if n, err := offTree.Look(ctx, k); err != nil || n.After != 0 {
				t.Fatalf("position %d with the weight off counts %d more (%v); want 0", k, n.After, err)
			}
			if item[k] {
				tree.familyJobs, tree.familyCalls, tree.familyProved = 1, 10, 3
				if n, err := tree.Look(ctx, k); err != nil || n.After != 5 {
					t.Fatalf("position %d after a family job leaving 7 of 10 open counts %d more (%v); want 5", k, n.After, err)
				}
				tree.familyJobs, tree.familyCalls, tree.familyProved = 0, 0, 0
			}
		}
	})
	if seen == 0 {
		t.Fatal("no seminull position was seen: the test saw nothing")
	}
	white := opts
	white.Attacker = game.White
	n, err := newBookTree(bk, verify.LocalVerifier{}, white.withDefaults()).Look(ctx, id)
	if err != nil || !n.OR || n.After != 0 {
		t.Fatalf("d4 for White (OR %v): counts %d more (%v); want 0", n.OR, n.After, err)
	}
	t.Logf("%d looks at seminull positions", seen)
}
