package proofbook

import (
	"context"
	"encoding/json"
	"fmt"

	"c6book"
	"c6book/engine"
)

func marshalVerdict(v c6book.Verdict) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func unmarshalVerdict(data string) (c6book.Verdict, error) {
	var v c6book.Verdict
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return c6book.Verdict{}, fmt.Errorf("stored verdict: %w", err)
	}
	return v, nil
}

// Stored is what StoreVerdict added to the book.
type Stored struct {
	// Replies are the defender moves (the position's canonical frame, as
	// stored) the verdict's items added as new moves of the position.
	Replies []engine.Move
	// Positions counts the positions the store added (items, and the
	// moves of closed seminull items).
	Positions int
	// Before and After are the position's status for the verdict's
	// attacker before and after the store.
	Before, After c6book.Status
}

// Verified is what Book.Verify did: the verdict it stored (the position's
// canonical frame) and what storing it added.
type Verified struct {
	Verdict c6book.Verdict
	Stored
}

// StoreError is Book.Verify's error when the verifier answered but the
// book did not store its verdict: refused (its certificate does not check,
// it forgets a defender move…), or the store failed (busy, read-only,
// cancelled). Err says which.
type StoreError struct {
	ID  PosID
	Err error
}

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// Verify is the one "verify a book position" path (the CLI's `book
// verify`, the auto-pilot, the workbench): it runs ver (nil:
// engine.LocalVerifier) on position id in its canonical frame, with the
// defender to move, at the position's defender stone deficit
// (c6book.VerifyBoard; opts.Tolerance is set there), and stores the
// verdict with StoreVerdict, which re-checks its certificate. An error
// from the store is a *StoreError.
func (bk *Book) Verify(ctx context.Context, id PosID, ver engine.Verifier, opts engine.VerifyOptions, progress func(engine.VerifyProgress)) (Verified, error) {
	cb, err := bk.Board(ctx, id)
	if err != nil {
		return Verified{}, err
	}
	_, csym := cb.CanonicalKey()
	v, err := c6book.VerifyBoard(ctx, cb, ver, csym, opts, progress)
	if err != nil {
		return Verified{}, err
	}
	st, err := bk.StoreVerdict(ctx, id, v)
	if err != nil {
		return Verified{Verdict: v}, &StoreError{ID: id, Err: err}
	}
	return Verified{Verdict: v, Stored: st}, nil
}
