package jobqueue

import (
	"context"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/verify"
	"c6book/proofcheck/enginecert"
)

// checkShape is the part of checkVerdict that does not read the
// certificate: vd must be a verdict on b (the defender to move) for b's
// attacker at opts' tolerance and λ, with a status and an order that fit
// what it leaves open.
func checkShape(b *board.Board, opts verify.VerifyOptions, vd *verify.Verdict) error {
	defender := b.ToMove()
	lambda := opts.Lambda
	if lambda == 0 {
		lambda = 2
	}
	switch {
	case vd.Attacker != defender.Opp():
		return fmt.Errorf("verdict for attacker %v on a position with %v to move", vd.Attacker, defender)
	case vd.Tolerance != opts.Tolerance:
		return fmt.Errorf("verdict at tolerance %d, the job asked for %d", vd.Tolerance, opts.Tolerance)
	case vd.Lambda != lambda:
		return fmt.Errorf("verdict for λ%d, the job asked for λ%d", vd.Lambda, lambda)
	case vd.Status != verify.StatusProved && vd.Status != verify.StatusOpen:
		return fmt.Errorf("verdict status %q", vd.Status)
	case vd.Status == verify.StatusProved && (vd.AllUnsolved || len(vd.Unsolved) > 0 || len(vd.OpenSeminull) > 0):
		return errors.New("verdict says proved but leaves defender moves open")
	case vd.Status == verify.StatusProved && (vd.Order < 1 || vd.Order > lambda):
		return fmt.Errorf("verdict proves order %d, outside 1..%d", vd.Order, lambda)
	case vd.Status == verify.StatusOpen && (vd.AllUnsolved && vd.Order != 0 || vd.Order < 0 || vd.Order > 3 || !vd.AllUnsolved && len(vd.Unsolved) == 0 && len(vd.OpenSeminull) == 0):
		return errors.New("verdict says open but leaves no defender move open (or claims an order it cannot have)")
	}
	return nil
}

// checkVerdict is the check every result passes before a caller sees it
// (unless the caller's store checks the certificate: ClientConfig's
// storeChecks): checkShape, then c6book.CheckCertificate, the check the
// proof book's StoreVerdict makes: the certificate (enginecert.FromVerdict)
// must check with proofcheck, the independent checker, and its items pass
// the coverage rule, open verdicts as strictly as proved ones (every item a
// legal defender move of the position, listed once; every defender move the
// certificate does not refute an item). A proved verdict leaves no item, an
// open one at least one.
func checkVerdict(ctx context.Context, b *board.Board, opts verify.VerifyOptions, vd *verify.Verdict) error {
	if err := checkShape(b, opts, vd); err != nil {
		return err
	}
	_, err := c6book.CheckCertificate(ctx, b, opts.Tolerance, enginecert.FromVerdict(vd), enginecert.ItemsOf(vd), vd.Order)
	return err
}
