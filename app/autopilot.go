package main

import (
	"context"
	"runtime"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
	"c6book/session"
)

// The auto-pilot and the expert's "leave to me" for the workbench: the
// book's own loop (proofbook.Prove) with the store's job verifier.

var (
	_ session.AutoProver = (*bookStore)(nil)
	_ session.Holder     = (*bookStore)(nil)
)

// jobVerifier runs the auto-pilot's verifier jobs: the store's, or in this
// process.
func (s *bookStore) jobVerifier() engine.Verifier {
	if s.jobs != nil {
		return s.jobs
	}
	return engine.LocalVerifier{}
}

// AutoProve runs proofbook.Prove below b (a stored position).
func (s *bookStore) AutoProve(ctx context.Context, b *engine.Board, o session.AutoOptions, progress func(c6book.ProveProgress)) (session.AutoResult, error) {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return session.AutoResult{}, err
	}
	jobs := max(1, o.Jobs)
	limits := s.autoLimits
	if limits == (engine.Limits{}) && s.budget != nil {
		limits = s.budget.get()
	}
	opts := proofbook.ProveOptions{Attacker: o.Attacker, Jobs: jobs, MaxCalls: o.MaxCalls, MaxTime: o.MaxTime,
		Verify: engine.VerifyOptions{Lambda: o.Lambda, Workers: max(1, (runtime.NumCPU()-1)/jobs), Limits: limits}}
	res, err := s.bk.Prove(ctx, id, s.jobVerifier(), opts, progress)
	return session.AutoResult{Status: res.Status, ProveProgress: c6book.ProveProgress{Calls: res.Calls, Proved: res.Proved,
		Open: res.Open, Added: res.Added, Elapsed: res.Elapsed}}, err
}

// SetHold marks b as left to the expert for attacker a (or gives it back).
func (s *bookStore) SetHold(ctx context.Context, b *engine.Board, a engine.Color, on bool) error {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return s.bk.SetHold(ctx, id, a, on)
}
