package proofbook

import (
	"context"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/verify"
)

// ProveForTest runs the auto-pilot (package autopilot) for proofbook's own
// tests whose writer is a prove run (the digest kept by its writes, a
// stored proof re-checked before it is reported). Package autopilot
// imports proofbook, so these tests cannot import it: autopilothook_test.go
// (package proofbook_test, in this test binary) sets the hook.
var ProveForTest func(ctx context.Context, bk *Book, id PosID, v verify.Verifier, a game.Color, lambda, calls int) (ProveRun, error)

// ProveRun is what these tests read of a prove run's result.
type ProveRun struct {
	Status       c6book.ProveStatus
	Calls, Added int
}

// prove runs the auto-pilot below id for attacker a at λ lambda, at most
// calls verifier calls, one job, 3,000 nodes a solver call.
func prove(ctx context.Context, t *testing.T, bk *Book, id PosID, v verify.Verifier, a game.Color, lambda, calls int) (ProveRun, error) {
	t.Helper()
	if ProveForTest == nil {
		t.Fatal("no auto-pilot: autopilothook_test.go sets ProveForTest")
	}
	return ProveForTest(ctx, bk, id, v, a, lambda, calls)
}
