package service

import (
	"context"
	"errors"

	"c6book/bookmerge"
	"c6book/engine/board"
)

// Why a merge or split did not store a verdict (bookmerge's typed
// reasons, named here so that the callers need only this package).
type (
	// Refusal is why a merge or split did not store a verdict.
	Refusal = bookmerge.Refusal
	// RefusedVerdict is a verdict the merge did not store: the line to
	// its position, the attacker, why (typed) and the store's error.
	RefusedVerdict = bookmerge.RefusedVerdict
)

// The reasons a verdict is refused.
const (
	RefusedOther       = bookmerge.RefusedOther
	RefusedCertificate = bookmerge.RefusedCertificate
	RefusedUnreadable  = bookmerge.RefusedUnreadable
	RefusedNoPosition  = bookmerge.RefusedNoPosition
)

// MergeResult is what a merge or split added, with its refused verdicts
// typed (Summary.Refused).
type MergeResult struct {
	bookmerge.Summary
	// Cancelled: the context ended it; what was committed before is kept
	// (the summary's counts).
	Cancelled bool
}

func mergeResult(sum bookmerge.Summary, err error) (MergeResult, error) {
	return MergeResult{Summary: sum, Cancelled: errors.Is(err, context.Canceled)}, err
}

// Merge merges the book at path into this one, every certificate
// re-checked on the way in; refused verdicts are listed with why.
func (bk *Book) Merge(ctx context.Context, path string, progress func(MergeProgress)) (MergeResult, error) {
	return mergeResult(bookmerge.Merge(ctx, bk.pb, path, progress))
}

// Split writes position b's subtree, with its proofs and the games through
// it, to a new book at path.
func (bk *Book) Split(ctx context.Context, b *board.Board, path string, progress func(MergeProgress)) (MergeResult, error) {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return MergeResult{}, err
	}
	return mergeResult(bookmerge.Split(ctx, bk.pb, id, path, progress))
}
