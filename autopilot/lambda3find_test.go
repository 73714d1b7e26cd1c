package autopilot

import (
	"c6book/internal/booktest"
	"c6book/internal/lambda3moves"
	"c6book/internal/lambda3oracle"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// closedSeminull lists the proved positions of bk (for a) whose verdict
// leaves an open seminull item: each is proved only because the book
// closed that item (the seminull position proved with its zone, and every
// full move inside the zone proved on its own).
func closedSeminull(t *testing.T, bk *proofbook.Book, a game.Color) []PosID {
	t.Helper()
	ctx := context.Background()
	var out []PosID
	for _, pos := range lambda3oracle.ProvedPositions(t, bk, a) {
		p, err := bk.Position(ctx, pos)
		if err != nil {
			t.Fatal(err)
		}
		if p.Verdict != nil && p.Verdict.Attacker == a && len(p.Verdict.OpenSeminull) > 0 {
			out = append(out, pos)
		}
	}
	return out
}

// order3Fixture is the order-3 fixture of the auto-pilot's tests: d4 on
// 8×8, five in a row, in a new book, and the options that prove it at
// order 3 (Black, one job, λ3, 2,500 nodes a solver call, one worker) with
// at most calls jobs.
func order3Fixture(t *testing.T, calls int) (*proofbook.Book, PosID, ProveOptions) {
	bk := booktest.NewBook(t, game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1})
	id := booktest.Add(t, bk, "d4")
	return bk, id, ProveOptions{Attacker: game.Black, MaxCalls: calls, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 2500}}}
}

// mustWinThroughClosedItems fails the test unless bk holds a position
// proved for a through a closed seminull item (closedSeminull); it plays
// each such position out against every defender reply by brute force
// (lambda3oracle.MustWin; what names the proof in failures), checks the
// book, and returns how many there are.
func mustWinThroughClosedItems(ctx context.Context, t *testing.T, bk *proofbook.Book, a game.Color, what string) int {
	t.Helper()
	cl := closedSeminull(t, bk, a)
	if len(cl) == 0 {
		t.Fatal("no proved position holds a closed seminull item")
	}
	for _, pos := range cl {
		lambda3oracle.MustWin(ctx, t, bk, a, pos, what)
	}
	booktest.MustCheck(t, bk)
	return len(cl)
}

// TestFindLambda3 searches small boards for λ3 proofs that happen. A
// generator, not a test (skipped unless C6_FIND_L3=N): N random lines of
// C6_FIND_TURNS turns (C6_FIND_RULES m,n,k,p,q, C6_FIND_SEED) whose side to
// move has no VCDT win (exhausted) and no VCST win found (C6_FIND_ANY=1
// drops both conditions); for each, the engine's candidates and four quiet
// moves are verified at λ3, the ones that leave seminull moves open are
// proved through the book (Prove, λ3), and a proof holding a closed
// seminull item is played out by brute force and printed as a FOUND line.
// C6_FIND_LINE proves that one line instead, for the side that just moved
// (C6_FIND_TOMOVE=1: the side to move), with at most N verifier calls of
// C6_FIND_NODES nodes a solver call. Fixtures go to testdata/lambda3.tsv.
func TestFindLambda3(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("C6_FIND_L3"))
	if n <= 0 {
		t.Skip("generator: C6_FIND_L3=N")
	}
	r := game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}
	if s := os.Getenv("C6_FIND_RULES"); s != "" {
		var err error
		if r, err = game.ParseRules(s); err != nil {
			t.Fatal(err)
		}
	}
	nturns := 3
	if s := os.Getenv("C6_FIND_TURNS"); s != "" {
		nturns, _ = strconv.Atoi(s)
	}
	seed, _ := strconv.ParseUint(os.Getenv("C6_FIND_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 24))
	ctx := context.Background()
	found := 0
	if line := os.Getenv("C6_FIND_LINE"); line != "" {
		// One line: the auto-pilot at λ3 from it.
		bk := booktest.NewBook(t, r)
		id := booktest.Add(t, bk, line)
		b, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		a := b.ToMove().Opp()
		if b.Stones(game.Black)+b.Stones(game.White) == 0 || os.Getenv("C6_FIND_TOMOVE") != "" {
			a = b.ToMove()
		}
		opts := smallProve(a, 3, n)
		if s := os.Getenv("C6_FIND_NODES"); s != "" {
			opts.Verify.Limits.MaxNodes, _ = strconv.ParseInt(s, 10, 64)
		}
		pr, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs := closedSeminull(t, bk, a)
		t.Logf("%s for %s: %s order %d, %d calls, %d closed seminull %v", line, a, pr.Status, pr.Proof.Order, pr.Calls, len(cs), cs)
		return
	}
	for i := 0; i < n; i++ {
		line := lambda3moves.RandomLine(rng, r, nturns)
		b, err := board.Replay(r, line)
		if err != nil {
			t.Fatal(err)
		}
		a := b.ToMove()
		res, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCST, Limits: threat.Limits{MaxNodes: 200000}})
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("C6_FIND_V") != "" {
			t.Logf("%s: %s %s", game.FormatTurns(r, line), res.Outcome, res.Reason)
		}
		if res.Outcome == threat.Win && os.Getenv("C6_FIND_ANY") == "" {
			continue // a threat-space win
		}
		dres, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCDT, Limits: threat.Limits{MaxNodes: 2000000}})
		if err != nil {
			t.Fatal(err)
		}
		if (dres.Outcome == threat.Win || dres.Reason != threat.ReasonExhausted) && os.Getenv("C6_FIND_ANY") == "" {
			continue // a VCDT win, or not known to have none
		}
		moves := player.AttackerCandidates(b, 8)
		for j := 0; j < 4; j++ {
			moves = append(moves, lambda3moves.QuietMove(ctx, rng, b, 0))
		}
		tried := map[game.Move]bool{}
		for _, m := range moves {
			if tried[m] {
				continue
			}
			tried[m] = true
			nb := b.Clone()
			if err := nb.Play(m); err != nil || nb.Winner() != game.Empty || nb.Threats(a) > 0 {
				continue
			}
			vd, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if vd.AllUnsolved || len(vd.OpenSeminull) == 0 {
				continue
			}
			dline := append(append([]game.Move{}, line...), m)
			bk := booktest.NewBook(t, r)
			id := booktest.Add(t, bk, game.FormatTurns(r, dline))
			pr, err := Prove(ctx, bk, id, verify.LocalVerifier{}, smallProve(a, 3, 150), nil)
			if err != nil {
				t.Fatal(err)
			}
			cs := closedSeminull(t, bk, a)
			if os.Getenv("C6_FIND_V") != "" {
				t.Logf("  %s: %d open seminull; prove: %s, %d calls, %d closed seminull", game.FormatTurns(r, dline), len(vd.OpenSeminull), pr.Status, pr.Calls, len(cs))
			}
			if pr.Status != "proved" || len(cs) == 0 {
				continue
			}
			booktest.MustCheck(t, bk)
			lambda3oracle.MustWin(ctx, t, bk, a, id, fmt.Sprintf("%q", game.FormatTurns(r, dline)))
			found++
			fmt.Printf("FOUND\t%s\t%s\t%s\t%d\t%d\t%d\tvcst:%s\n", r, game.FormatTurns(r, dline), a, pr.Proof.Order, pr.Calls, len(cs), res.Reason)
		}
	}
	t.Logf("%d of %d positions", found, n)
}
