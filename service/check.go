package service

import (
	"context"

	"c6book/proofbook"
)

// Check runs the book's check: integrity, positions, moves and statuses,
// then every proof re-checked from its certificates by proofcheck.
// progress (may be nil) gets how many proofs are re-checked.
func (bk *Book) Check(ctx context.Context, progress func(proofbook.CheckProgress)) (proofbook.CheckReport, error) {
	if progress == nil {
		return bk.pb.Check(ctx)
	}
	return bk.pb.CheckWithProgress(ctx, progress)
}
