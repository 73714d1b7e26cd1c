package main

import (
	"context"
	"fmt"
	"sort"

	"c6book"
	"c6book/engine"
	"c6book/ui"
)

// This file is the only place that calls the engine's verifier, so that its
// API can evolve with a change here only.

// engineVerifier runs the workbench's verifier jobs on v (the open
// book's queue; nil: engine.LocalVerifier).
type engineVerifier struct {
	limits  engine.Limits
	workers int
	v       engine.Verifier
}

func (ev engineVerifier) Verify(ctx context.Context, b *engine.Board, lambda int, progress func(ui.Progress)) (c6book.Verdict, error) {
	tol, ok := b.DefenderDeficit(b.ToMove().Opp())
	if !ok {
		return c6book.Verdict{}, fmt.Errorf("the position's stone counts do not fit full turns of %s, the attacker", b.ToMove().Opp())
	}
	opts := engine.VerifyOptions{Lambda: lambda, Limits: ev.limits, Workers: ev.workers, Tolerance: tol}
	var ver engine.Verifier = engine.LocalVerifier{}
	if ev.v != nil {
		ver = ev.v
	}
	v, err := ver.Verify(ctx, b, opts, func(p engine.VerifyProgress) {
		progress(ui.Progress{Phase: p.Phase, Done: p.Done, Total: p.Total, Nodes: p.Nodes, Elapsed: p.Elapsed})
	})
	if err != nil {
		return c6book.Verdict{}, err
	}
	return c6book.FromEngine(b.Rules(), 0, v, lambda), nil // in b's frame
}

// Candidates proposes attacker moves: a winning move if a threat-space
// search (VCDT, then VCST) finds one within a small budget, otherwise the
// moves that make the most threats.
func (ev engineVerifier) Candidates(ctx context.Context, b *engine.Board, limit int) ([]ui.Candidate, error) {
	for _, mode := range []engine.Mode{engine.VCDT, engine.VCST} {
		res, err := engine.Solve(ctx, b, engine.Params{Mode: mode, Limits: engine.Limits{MaxNodes: 200_000}})
		if err != nil {
			return nil, err
		}
		if res.Outcome == engine.Win {
			name := "VCDT"
			if mode == engine.VCST {
				name = "VCST"
			}
			return []ui.Candidate{{Move: res.Move, Note: fmt.Sprintf("wins by %s (%d-turn line)", name, len(res.Line))}}, nil
		}
		if res.Reason == engine.ReasonCancelled {
			return nil, context.Canceled
		}
	}
	a := b.ToMove()
	var out []ui.Candidate
	for _, min := range []int{2, 1} {
		tms := b.ThreatMoves(a, min, engine.FreeNear)
		sort.SliceStable(tms, func(i, j int) bool { return tms[i].Threats > tms[j].Threats })
		for _, tm := range tms {
			if len(out) == limit {
				break
			}
			out = append(out, ui.Candidate{Move: tm.Move, Note: fmt.Sprintf("%d threats", tm.Threats)})
		}
		if len(out) > 0 {
			break
		}
	}
	return out, nil
}
