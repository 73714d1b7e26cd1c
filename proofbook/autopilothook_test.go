package proofbook_test

import (
	"context"

	"c6book/autopilot"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// The auto-pilot for proofbook's tests (ProveForTest, provehook_test.go).
func init() {
	proofbook.ProveForTest = func(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, v verify.Verifier, a game.Color, lambda, calls int) (proofbook.ProveRun, error) {
		opts := autopilot.ProveOptions{Attacker: a, MaxCalls: calls, Jobs: 1,
			Verify: verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}}
		res, err := autopilot.Prove(ctx, bk, id, v, opts, nil)
		return proofbook.ProveRun{Status: res.Status, Calls: res.Calls, Added: res.Added}, err
	}
}
