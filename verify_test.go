package c6book

import (
	"context"
	"errors"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// VerifyBoard is FromEngine of the engine's verdict at the position's
// defender deficit, in the frame asked for; Verdict.Check accepts it and
// refuses it tampered with: an item left out (the coverage rule), another
// tolerance, a certificate that does not check.
func TestVerifyBoardAndCheck(t *testing.T) {
	ctx := t.Context()
	r, _ := game.ParseRules("9,9,5,2,1")
	opts := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 60}}
	b, err := board.ReplayText(r, "e5 a1a2 e4d4")
	if err != nil {
		t.Fatal(err)
	}
	_, csym := b.CanonicalKey()
	v, err := VerifyBoard(ctx, b, nil, csym, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := opts
	o.Tolerance = 0
	ev, err := verify.Verify(ctx, b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := FromEngine(r, csym, ev, 2)
	if v.Status != want.Status || v.Order != want.Order || len(v.Unsolved) != len(want.Unsolved) || v.Tolerance != 0 || v.Lambda != 2 {
		t.Errorf("VerifyBoard %s order %d, %d unsolved; FromEngine %s order %d, %d unsolved", v.Status, v.Order, len(v.Unsolved), want.Status, want.Order, len(want.Unsolved))
	}
	// Checked in its own frame.
	plain, err := VerifyBoard(ctx, b, verify.LocalVerifier{}, 0, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Check(ctx, b); err != nil {
		t.Fatalf("the honest verdict is refused: %v", err)
	}
	if len(plain.Unsolved) == 0 {
		t.Fatal("the test needs a verdict with unsolved moves (budget too large?)")
	}
	short := plain
	short.Unsolved = short.Unsolved[1:]
	if _, err := short.Check(ctx, b); err == nil || !strings.Contains(err.Error(), "neither refuted") {
		t.Errorf("a verdict that leaves out an item: %v", err)
	}
	tol := plain
	tol.Tolerance = 1
	if _, err := tol.Check(ctx, b); err == nil || !strings.Contains(err.Error(), "tolerance") {
		t.Errorf("a verdict at another tolerance: %v", err)
	}
	bad := plain
	c := *plain.Cert
	c.Attacker = game.White
	bad.Cert = &c
	if _, err := bad.Check(ctx, b); err == nil {
		t.Error("a certificate for the other attacker is accepted")
	}
	// A position the attacker's stones do not fit: refused before the
	// verifier runs.
	odd, err := board.ReplayText(r, "e5 a1a2")
	if err != nil {
		t.Fatal(err)
	}
	odd.SetToMove(game.White) // Black's turn, but White to move
	if _, err := VerifyBoard(ctx, odd, failVerifier{}, 0, opts, nil); err == nil || errors.Is(err, errRan) {
		t.Errorf("a position of no full turns: %v", err)
	}
}

var errRan = errors.New("the verifier ran")

type failVerifier struct{}

func (failVerifier) Verify(context.Context, *board.Board, verify.VerifyOptions, func(verify.VerifyProgress)) (verify.Verdict, error) {
	return verify.Verdict{}, errRan
}
