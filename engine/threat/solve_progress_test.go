package threat

import (
	"context"
	"testing"
	"time"

	"c6book/engine/internal/enginetest"
)

// A progress callback that never returns neither stalls the search nor
// keeps Solve from returning once the context is cancelled: if a report
// were sent blocking, the search could not see the cancellation and this
// test would hang until go test's timeout.
func TestSolveProgressCallbackNeverBlocks(t *testing.T) {
	b := enginetest.MustReplay(t, solveLongTurns)
	fn, entered, calls := enginetest.StuckCallback[Progress](t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		res Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := Solve(ctx, b, Params{Mode: VCST, Limits: Limits{MaxNodes: 50_000_000}, Progress: fn, ProgressEvery: time.Nanosecond})
		done <- out{res, err}
	}()
	<-entered
	cancel()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.res.Outcome != Win && o.res.Reason != ReasonCancelled {
		t.Fatalf("cancelled search: outcome %v reason %q", o.res.Outcome, o.res.Reason)
	}
	if n := calls(); n != 1 {
		t.Fatalf("a stuck callback was called %d times", n)
	}
}
