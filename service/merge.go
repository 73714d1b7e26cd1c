package service

import (
	"context"
	"errors"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// Refusal is why a merge or split did not store a verdict.
type Refusal int

const (
	// RefusedOther: the store refused it for another reason (it forgets
	// a defender move, claims more than it proves...).
	RefusedOther Refusal = iota
	// RefusedCertificate: its certificate does not check (proofcheck).
	RefusedCertificate
	// RefusedUnreadable: the source's verdict or certificate cannot be
	// read.
	RefusedUnreadable
	// RefusedNoPosition: its position was not merged.
	RefusedNoPosition
)

func (r Refusal) String() string {
	switch r {
	case RefusedCertificate:
		return "certificate does not check"
	case RefusedUnreadable:
		return "unreadable"
	case RefusedNoPosition:
		return "position not merged"
	}
	return "refused by the book"
}

// RefusedVerdict is a verdict the merge did not store: the line to its
// position, the attacker, why (typed) and the store's words.
type RefusedVerdict struct {
	Line     string
	Attacker game.Color
	Why      Refusal
	Detail   string
}

// MergeResult is what a merge or split added, with its refused verdicts
// typed.
type MergeResult struct {
	proofbook.MergeSummary
	Refused []RefusedVerdict
	// Cancelled: the context ended it; what was committed before is kept
	// (the summary's counts).
	Cancelled bool
}

func mergeResult(sum proofbook.MergeSummary, err error) (MergeResult, error) {
	res := MergeResult{MergeSummary: sum, Cancelled: errors.Is(err, context.Canceled)}
	for _, r := range sum.Refused {
		why := RefusedOther
		var ce *c6book.CertError
		switch {
		case errors.As(r.Err, &ce):
			why = RefusedCertificate
		case r.Err == nil:
			why = RefusedNoPosition
		case r.Attacker == game.Empty:
			why = RefusedUnreadable
		}
		res.Refused = append(res.Refused, RefusedVerdict{Line: r.Line, Attacker: r.Attacker, Why: why, Detail: r.Reason})
	}
	return res, err
}

// Merge merges the book at path into this one, every certificate
// re-checked on the way in; refused verdicts are listed with why.
func (bk *Book) Merge(ctx context.Context, path string, progress func(proofbook.MergeProgress)) (MergeResult, error) {
	return mergeResult(bk.pb.Merge(ctx, path, progress))
}

// Split writes position b's subtree, with its proofs and the games through
// it, to a new book at path.
func (bk *Book) Split(ctx context.Context, b *board.Board, path string, progress func(proofbook.MergeProgress)) (MergeResult, error) {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return MergeResult{}, err
	}
	return mergeResult(bk.pb.Split(ctx, id, path, progress))
}
