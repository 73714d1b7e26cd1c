package verify

import (
	"context"

	"c6book/engine/board"
)

// Verifier runs verifier jobs. LocalVerifier calls Verify in this process;
// a job queue may run them on other machines. A Verifier need not be
// trusted: whoever stores a verdict re-checks its certificate first (the
// proof book does, with proofcheck), so a wrong or forged verdict is
// refused, never stored as a proof.
//
// Verify has the contract of the package function Verify: b is the
// position with the defender to move (it is not modified), the verdict is
// in b's frame, progress (may be nil) must never block the caller, and a
// cancelled ctx returns ctx's error.
type Verifier interface {
	Verify(ctx context.Context, b *board.Board, opts VerifyOptions, progress func(VerifyProgress)) (Verdict, error)
}

// LocalVerifier runs Verify in this process.
type LocalVerifier struct{}

// Verify calls the package function Verify.
func (LocalVerifier) Verify(ctx context.Context, b *board.Board, opts VerifyOptions, progress func(VerifyProgress)) (Verdict, error) {
	return Verify(ctx, b, opts, progress)
}
