package main

import (
	"context"

	"c6book/engine"
	"c6book/ui"
)

// This file is the only place that calls the engine's verifier, so that its
// API can evolve with a change here only.

// engineVerifier runs engine.Verify for the workbench.
type engineVerifier struct {
	limits  engine.Limits
	workers int
}

func (ev engineVerifier) Verify(ctx context.Context, b *engine.Board, lambda int, progress func(ui.Progress)) (ui.Verdict, error) {
	opts := engine.VerifyOptions{Lambda: lambda, Limits: ev.limits, Workers: ev.workers}
	v, err := engine.Verify(ctx, b, opts, func(p engine.VerifyProgress) {
		progress(ui.Progress{Phase: p.Phase, Done: p.Done, Total: p.Total, Nodes: p.Nodes, Elapsed: p.Elapsed})
	})
	if err != nil {
		return ui.Verdict{}, err
	}
	out := ui.Verdict{
		Attacker: v.Attacker, Proved: v.Status == engine.StatusProved, Order: v.Order, Lambda: lambda,
		AllUnsolved: v.AllUnsolved, NullZone: v.NullZone, Calls: v.Calls, Nodes: v.Nodes,
		Elapsed: v.Elapsed, Note: v.Note, Raw: v,
	}
	for _, u := range v.Unsolved {
		out.Unsolved = append(out.Unsolved, u.Move)
	}
	for _, u := range v.OpenSeminull {
		out.OpenSeminull = append(out.OpenSeminull, u.Move)
	}
	return out, nil
}
