package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// connect623 measures the shipped prover on Connect(6,2,3), where Black's
// first turn places three stones: a new book with those rules (as `c6 book
// init --rules 19,19,6,2,3`), the book's auto-pilot (autopilot.Prove, as
// `c6 book prove`) from the empty board with the CLI's defaults but the
// given budgets, then the book's check (proofcheck re-checks every stored
// proof, as `c6 book check`). Verifier calls run in this process
// (verify.LocalVerifier), not through the job queue.
func connect623(w io.Writer, book string, maxNodes int64, maxCalls, jobs, workers int, budget time.Duration) error {
	if _, err := os.Stat(book); err == nil {
		return fmt.Errorf("%s exists: give a new book file", book)
	}
	ctx := context.Background()
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	bk, err := proofbook.Create(ctx, book, r)
	if err != nil {
		return err
	}
	defer bk.Close()
	empty, err := board.NewBoard(r)
	if err != nil {
		return err
	}
	id, _, err := bk.Locate(ctx, empty)
	if err != nil {
		return err
	}
	if workers == 0 {
		workers = max(1, runtime.NumCPU()/jobs)
	}
	opts := autopilot.ProveOptions{Attacker: game.Black, Jobs: jobs, MaxCalls: maxCalls, MaxTime: budget,
		Candidates: 4, MaxCandidates: 32, PlayerNodes: player.DefaultCandidateNodes,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: workers, Limits: threat.Limits{MaxNodes: maxNodes}}}
	res, err := autopilot.Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	fmt.Fprintf(w, "Connect(6,2,3) from the empty board (λ3, %d nodes per solver call, %d jobs × %d workers): %s, book status %s; %d verifier calls, %d positions added, %d proved, %d open, %v\n",
		maxNodes, jobs, workers, res.Status, res.Proof.Status, res.Calls, res.Added, res.Proved, res.Open, res.Elapsed.Round(time.Millisecond))
	t0 := time.Now()
	rep, err := bk.Check(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "check: %d positions, %d proofs re-checked by proofcheck in %v: ok %v %v\n", rep.Positions, rep.Proofs, time.Since(t0).Round(time.Millisecond), rep.OK(), rep.Problems)
	if !rep.OK() {
		return fmt.Errorf("check: %d problems", len(rep.Problems))
	}
	if res.Proof.Status != c6book.StatusProved {
		return fmt.Errorf("Connect(6,2,3): the empty board is not proved (%s)", res.Status)
	}
	return nil
}
