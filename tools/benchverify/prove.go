package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// proveAll is --prove: the auto-pilot on the public positions. Each
// position (the game's own next attacker turn played) is stored in one book
// and verified once (one verifier call, λ from --lambda); the auto-pilot
// (autopilot.Prove, --jobs jobs) then works on every position that call
// leaves open, for at most budget each. At the end the book is checked
// (proofcheck re-checks every stored proof) and the counts are printed.
func proveAll(ctx context.Context, w io.Writer, ps []position, book string, budget time.Duration, jobs int, opts verify.VerifyOptions) error {
	if _, err := os.Stat(book); err == nil {
		return fmt.Errorf("%s exists: give a new book file", book)
	}
	bk, err := proofbook.Create(ctx, book, game.Connect6())
	if err != nil {
		return err
	}
	defer bk.Close()
	var open, closed, failed, budgetLeft, calls int
	start := time.Now()
	for _, p := range ps {
		r := p.board.Rules()
		hist := p.board.History()
		line, err := bk.AddLine(ctx, hist)
		if err != nil {
			return fmt.Errorf("game %s: %w", p.gid, err)
		}
		id := line.IDs[len(line.IDs)-1]
		a := p.board.ToMove().Opp()
		po := autopilot.ProveOptions{Attacker: a, Verify: opts, Jobs: 1, MaxCalls: 1}
		res, err := autopilot.Prove(ctx, bk, id, verify.LocalVerifier{}, po, nil)
		if err != nil {
			return fmt.Errorf("game %s: %w", p.gid, err)
		}
		if res.Proof.Status == c6book.StatusProved {
			fmt.Fprintf(w, "%-8s %-6s proved by one verifier call\n", p.gid, game.MoveName(r, p.next))
			continue
		}
		open++
		po.Jobs, po.MaxCalls, po.MaxTime = jobs, 0, budget
		res, err = autopilot.Prove(ctx, bk, id, verify.LocalVerifier{}, po, nil)
		if err != nil {
			return fmt.Errorf("game %s: %w", p.gid, err)
		}
		calls += res.Calls
		switch {
		case res.Proof.Status == c6book.StatusProved:
			closed++
		case res.Status == c6book.ProveFailed || res.Status == c6book.ProveStuck:
			failed++
		default:
			budgetLeft++
		}
		fmt.Fprintf(w, "%-8s %-6s open after one call; auto-pilot: %s (%s), %d calls, %d positions added, %v\n",
			p.gid, game.MoveName(r, p.next), res.Status, res.Proof.Status, res.Calls, res.Added, res.Elapsed.Round(time.Millisecond))
	}
	t0 := time.Now()
	rep, err := bk.Check(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "auto-pilot on %d public positions (λ%d, %d nodes per solver call, %d jobs, %v per position): %d left open by one verifier call; the auto-pilot closed %d of them (%d calls), gave up on %d (dead ends), ran out of time on %d; %v in all\n",
		len(ps), opts.Lambda, opts.Limits.MaxNodes, jobs, budget, open, closed, calls, failed, budgetLeft, time.Since(start).Round(time.Second))
	fmt.Fprintf(w, "check: %d positions, %d proofs re-checked by proofcheck in %v: ok %v %v\n", rep.Positions, rep.Proofs, time.Since(t0).Round(time.Millisecond), rep.OK(), rep.Problems)
	if !rep.OK() {
		return fmt.Errorf("check: %d problems", len(rep.Problems))
	}
	return nil
}
