package service

import (
	"context"
	"fmt"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// DefaultVerifyNodes is the node budget of each solver call of a
// verification when none is chosen (c6 verify --max-nodes, the
// Preferences' solver nodes).
const DefaultVerifyNodes = 200_000

// VerifySettings are a verification's options as the user chooses them.
type VerifySettings struct {
	Lambda   int           // 2 or 3
	MaxNodes int64         // nodes per solver call
	Timeout  time.Duration // time per solver call (0: none)
	Workers  int           // parallel solver calls (0: Workers(1))
}

// DefaultVerify is the verification's defaults (λ2).
func DefaultVerify() VerifySettings {
	return VerifySettings{Lambda: 2, MaxNodes: DefaultVerifyNodes}
}

// Validate checks the settings: a *SettingError naming the first bad one.
func (s VerifySettings) Validate() error {
	switch {
	case s.Lambda != 2 && s.Lambda != 3:
		return &SettingError{Setting: "lambda", Value: s.Lambda, Want: "2 or 3"}
	case s.MaxNodes <= 0:
		return &SettingError{Setting: "max-nodes", Value: s.MaxNodes, Want: "a positive number"}
	case s.Timeout < 0:
		return &SettingError{Setting: "timeout", Value: s.Timeout, Want: "a positive duration (0: no limit)"}
	case s.Workers < 0:
		return &SettingError{Setting: "workers", Value: s.Workers, Want: "0 (all cores) or more"}
	}
	return nil
}

// Options are the engine's options for s (Tolerance is set per position
// by the verification). Workers 0 stays 0: the verifier then uses every
// core (verify.VerifyOptions), as Workers(1) says.
func (s VerifySettings) Options() verify.VerifyOptions {
	return verify.VerifyOptions{Lambda: s.Lambda, Workers: s.Workers,
		Limits: threat.Limits{MaxNodes: s.MaxNodes, Timeout: s.Timeout}}
}

// SettingError is a bad setting: its name (as the CLI's flag), the value
// given and what is wanted. The caller says it (the CLI as "--name value:
// want ...").
type SettingError struct {
	Setting string
	Value   any
	Want    string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("--%s %v: want %s", e.Setting, e.Value, e.Want)
}

// Verification is what Verify found.
type Verification struct {
	// Verdict is in the caller's frame (b's); Canonical is the same
	// verdict in the position's canonical frame, as the book stores it.
	Verdict, Canonical c6book.Verdict
	// NullMode and NullLine are how the null move was refuted (NullLine
	// in b's frame; empty when it was not).
	NullMode threat.Mode
	NullLine []game.Move
}

// Verify runs the verifier ver (nil: verify.LocalVerifier) on b, the
// defender to move right after the attacker's turn, at b's defender stone
// deficit (c6book.VerifyBoard). It verifies in the position's canonical
// frame, whatever b's orientation, so every caller (the workbench's
// Verify, c6 verify, c6 book verify) gets the same verdict and node count
// for the same position and options, the one the auto-pilot stores
// (proofbook.Book.Verify verifies the book's canonical board). progress
// (may be nil) gets the engine's progress reports.
func Verify(ctx context.Context, ver verify.Verifier, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (Verification, error) {
	r := b.Rules()
	cb, sym := b.Canonical()
	if ver == nil {
		ver = verify.LocalVerifier{}
	}
	c := &rawVerifier{v: ver}
	v, err := c6book.VerifyBoard(ctx, cb, c, 0, opts, progress) // in cb's frame
	if err != nil {
		return Verification{}, err
	}
	inv := game.InverseSymmetry(sym)
	out := Verification{Verdict: v.Transform(r, inv), Canonical: v, NullMode: c.raw.NullMode}
	for _, m := range c.raw.NullLine {
		out.NullLine = append(out.NullLine, r.TransformMove(inv, m))
	}
	return out, nil
}

// rawVerifier keeps the engine's verdict (its null-move refutation) of the
// call it passes on.
type rawVerifier struct {
	v   verify.Verifier
	raw verify.Verdict
}

func (c *rawVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v, err := c.v.Verify(ctx, b, opts, progress)
	c.raw = v
	return v, err
}

// Verified is what VerifyAndStore did: the verification, the position it
// stored the verdict at and, in the book's frame, the verdict stored and
// what storing it added.
type Verified struct {
	Verification
	ID     proofbook.PosID
	InBook c6book.Verdict
	Stored proofbook.Stored
}

// VerifyAndStore verifies position b (any frame; it must be in the book)
// with Verify and stores the verdict in the book's frame: the book's
// StoreVerdict re-checks its certificate (the trust boundary). It is what
// the workbench's Verify does (the session's store, Store.StoreVerdict,
// maps the verdict the same way) and c6 book verify. An error from the
// store is a *proofbook.StoreError.
func (bk *Book) VerifyAndStore(ctx context.Context, ver verify.Verifier, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (Verified, error) {
	id, sym, err := bk.pb.Locate(ctx, b)
	if err != nil {
		return Verified{}, err
	}
	res, err := Verify(ctx, ver, b, opts, progress)
	if err != nil {
		return Verified{}, err
	}
	out := Verified{Verification: res, ID: id, InBook: res.Verdict.Transform(b.Rules(), sym)}
	st, err := bk.pb.StoreVerdict(ctx, id, out.InBook)
	if err != nil {
		return out, &proofbook.StoreError{ID: id, Err: err}
	}
	out.Stored = st
	return out, nil
}
