package c6book

import (
	"context"
	"fmt"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

// VerifyTolerance is the tolerance a verdict on b (the defender to move,
// the attacker b.ToMove().Opp()) must be made at: b's defender stone
// deficit. A verdict at another tolerance proves nothing.
func VerifyTolerance(b *board.Board) (int, error) {
	a := b.ToMove().Opp()
	tol, ok := b.DefenderDeficit(a)
	if !ok {
		return 0, fmt.Errorf("the position's stone counts do not fit full turns of %s, the attacker", a)
	}
	return tol, nil
}

// VerifyBoard runs ver (nil: verify.LocalVerifier) on b, a position with
// the defender to move, for the attacker b.ToMove().Opp(), at
// VerifyTolerance(b) (opts.Tolerance is set here), and returns the verdict
// in the frame symmetry sym maps b to: 0 for b's own, b's CanonicalKey
// symmetry for the proof book's canonical frame. It is the one path from a
// board to a Verdict: the proof book's Verify and the workbench use it;
// `c6 verify`, which also prints the engine verdict's null-move line (not
// kept in a Verdict), calls the verifier at VerifyTolerance itself.
func VerifyBoard(ctx context.Context, b *board.Board, ver verify.Verifier, sym int, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (Verdict, error) {
	tol, err := VerifyTolerance(b)
	if err != nil {
		return Verdict{}, err
	}
	opts.Tolerance = tol
	if ver == nil {
		ver = verify.LocalVerifier{}
	}
	v, err := ver.Verify(ctx, b, opts, progress)
	if err != nil {
		return Verdict{}, err
	}
	return FromEngine(b.Rules(), sym, v, opts.Lambda), nil
}

// CertError is a certificate that proofcheck, the independent checker,
// does not accept (CheckCertificate).
type CertError struct{ Err error }

func (e *CertError) Error() string { return "certificate does not check: " + e.Err.Error() }
func (e *CertError) Unwrap() error { return e.Err }

// CheckCertificate is the one check of a verdict's argument, shared by the
// proof book's store (the trust boundary) and the verifier queue's client:
// on b (the defender to move; the verdict's frame) at tolerance tol,
// proofcheck must accept cert (a *CertError otherwise), the verdict's
// items must pass the coverage rule (every item a legal defender move,
// listed once, and every defender move the certificate does not refute an
// item: proofcheck's VerdictResult.CheckItems), and the claimed order may
// not be lower than the certificate supports. It returns the checker's
// result (its Zone is the zone the checker computed).
func CheckCertificate(ctx context.Context, b *board.Board, tol int, cert *proofcheck.Cert, items proofcheck.Items, order int) (*proofcheck.VerdictResult, error) {
	res, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), tol, cert)
	if err != nil {
		return nil, &CertError{err}
	}
	if err := res.CheckItems(items); err != nil {
		return nil, err
	}
	if err := res.CheckOrder(order); err != nil {
		return nil, err
	}
	return res, nil
}

// Check checks verdict v (b's frame; b with the defender, v.Attacker's
// opponent, to move) as the proof book does before storing it: its
// tolerance is b's defender stone deficit, its certificate is for its
// attacker, and CheckCertificate accepts it. It returns the checker's
// result (its Zone is the zone the checker computed). A verdict without a
// certificate is an error.
func (v *Verdict) Check(ctx context.Context, b *board.Board) (*proofcheck.VerdictResult, error) {
	tol, ok := b.DefenderDeficit(v.Attacker)
	if !ok {
		return nil, fmt.Errorf("verdict: the position's stone counts do not fit full turns of attacker %s", v.Attacker)
	}
	if v.Tolerance != tol {
		return nil, fmt.Errorf("verdict made at tolerance %d; this position needs %d (the defender's missing stones)", v.Tolerance, tol)
	}
	if v.Cert == nil {
		return nil, fmt.Errorf("verdict: no certificate")
	}
	if v.Cert.Attacker != v.Attacker {
		return nil, fmt.Errorf("verdict: the certificate is for the other attacker")
	}
	res, err := CheckCertificate(ctx, b, tol, v.Cert, v.CheckedItems(), v.Order)
	if err != nil {
		return nil, fmt.Errorf("verdict refused: %w", err)
	}
	return res, nil
}
