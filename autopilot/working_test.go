package autopilot

import (
	"context"
	"slices"
	"sync"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/internal/booktest"
)

// progressVerifier makes each call report progress first (its call number
// as Done), then wait for the run's next progress report, and only then
// verify (the engine's verifier): the report it waited for is kept, to
// show what the run said while the call was under way.
type progressVerifier struct {
	serial  sync.Mutex // one call at a time (the screen makes several at once)
	mu      sync.Mutex
	calls   int
	waiting int                    // the call waiting for a report (0: none)
	skipped bool                   // the first report after waiting was set passed by
	next    chan struct{}          // closed by the report it waits for
	seen    []c6book.ProveProgress // the reports the calls waited for
}

func (v *progressVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v.serial.Lock()
	defer v.serial.Unlock()
	v.mu.Lock()
	v.calls++
	c := v.calls
	v.mu.Unlock()
	if progress != nil {
		progress(verify.VerifyProgress{Phase: verify.PhaseMoves, Done: c, Total: 100 + c, Unsolved: 3})
	}
	next := make(chan struct{})
	v.mu.Lock()
	v.waiting, v.next, v.skipped = c, next, false
	v.mu.Unlock()
	select {
	case <-next: // the run's reports come at least every second
	case <-ctx.Done():
		return verify.Verdict{}, ctx.Err()
	}
	return verify.Verify(ctx, b, opts, nil)
}

// report is the run's progress callback: it hands the report to the call
// waiting for one, if any. Not the first report that comes after the call
// began to wait: the run may have read the work in flight for it before
// the call's own report (on a busy machine it did); reports come one after
// the other, so the second was read after the call's report.
func (v *progressVerifier) report(p c6book.ProveProgress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.waiting == 0 {
		return
	}
	if !v.skipped {
		v.skipped = true
		return
	}
	v.seen = append(v.seen, p)
	close(v.next)
	v.waiting = 0
}

// While a verifier call runs, the run's progress reports say how far it
// is: the job in flight carries the call's latest report (phase, moves
// done and known, unsolved so far), and only jobs in flight do.
func TestProveProgressShowsTheCallInFlight(t *testing.T) {
	bk := booktest.NewBook(t, game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1})
	id := booktest.Add(t, bk, "d4")
	v := &progressVerifier{}
	opts := smallProve(game.Black, 3, 4)
	if _, err := Prove(context.Background(), bk, id, v, opts, v.report); err != nil {
		t.Fatal(err)
	}
	if len(v.seen) == 0 {
		t.Fatal("no verifier call waited for a report")
	}
	for i, p := range v.seen {
		if len(p.Working) == 0 {
			t.Fatalf("report %d, during a call: no work in flight (in flight %v)", i, p.InFlight)
		}
		found := false
		for _, w := range p.Working {
			if !slices.Contains(p.InFlight, w.ID) {
				t.Errorf("report %d: work of %d, not in flight %v", i, w.ID, p.InFlight)
			}
			// The call that waited is the latest one; its report is
			// the one with Done = its number.
			if w.Phase == string(verify.PhaseMoves) && w.Total == 100+w.Done && w.Unsolved == 3 {
				found = true
			}
		}
		if !found {
			t.Errorf("report %d: the waiting call's report is not among %+v", i, p.Working)
		}
	}
	t.Logf("%d calls, %d reports seen during them; the first: %s", v.calls, len(v.seen), v.seen[0].Working[0].Describe())
}

func TestVerifyWorkDescribe(t *testing.T) {
	cases := []struct {
		w    c6book.VerifyWork
		want string
	}{
		{c6book.VerifyWork{}, "starting"},
		{c6book.VerifyWork{Phase: "null", Done: 0, Total: 1}, "null 0/1"},
		{c6book.VerifyWork{Phase: "moves", Done: 1200, Total: 3552, Unsolved: 12}, "moves 1200/3552, 12 unsolved"},
		{c6book.VerifyWork{Phase: "seminull", Done: 3, Total: 80, Finished: 2, Verifies: 11}, "2/11 calls done; seminull 3/80"},
		{c6book.VerifyWork{Finished: 0, Verifies: 1}, "starting"},
	}
	for _, c := range cases {
		if got := c.w.Describe(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}
