package jobqueue

import (
	"context"
	"errors"
	"fmt"

	"c6book/engine"
	"c6book/proofcheck"
)

// CheckVerdict is the check every result passes before a caller sees it:
// vd must be a verdict on b (the defender to move) for b's attacker at
// opts' tolerance and λ, and its certificate (proofcheck.FromVerdict) must
// check with proofcheck.CheckVerdict, the independent checker, and its
// items pass proofcheck's CheckItems, as in the proof book's StoreVerdict:
// open verdicts as strictly as proved ones (every item a legal defender
// move of the position, listed once; every defender move the certificate
// does not refute an item). A proved verdict leaves no item, an open one
// at least one.
func CheckVerdict(ctx context.Context, b *engine.Board, opts engine.VerifyOptions, vd *engine.Verdict) error {
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
	case vd.Status != engine.StatusProved && vd.Status != engine.StatusOpen:
		return fmt.Errorf("verdict status %q", vd.Status)
	case vd.Status == engine.StatusProved && (vd.AllUnsolved || len(vd.Unsolved) > 0 || len(vd.OpenSeminull) > 0):
		return errors.New("verdict says proved but leaves defender moves open")
	case vd.Status == engine.StatusProved && (vd.Order < 1 || vd.Order > lambda):
		return fmt.Errorf("verdict proves order %d, outside 1..%d", vd.Order, lambda)
	case vd.Status == engine.StatusOpen && (vd.AllUnsolved && vd.Order != 0 || vd.Order < 0 || vd.Order > 3 || !vd.AllUnsolved && len(vd.Unsolved) == 0 && len(vd.OpenSeminull) == 0):
		return errors.New("verdict says open but leaves no defender move open (or claims an order it cannot have)")
	}
	res, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(engine.Black), b.StoneList(engine.White), defender, opts.Tolerance, proofcheck.FromVerdict(vd))
	if err != nil {
		return fmt.Errorf("certificate does not check: %w", err)
	}
	if err := res.CheckOrder(vd.Order); err != nil {
		return fmt.Errorf("certificate does not check: %w", err)
	}
	return res.CheckItems(proofcheck.ItemsOf(vd))
}
