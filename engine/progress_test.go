package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// stuckCallback returns a progress callback that never returns from its
// first call (until the test ends), and a channel closed once it is in it.
func stuckCallback[T any](t *testing.T) (func(T), <-chan struct{}, func() int) {
	entered, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	var mu sync.Mutex
	calls := 0
	var once sync.Once
	fn := func(T) {
		mu.Lock()
		calls++
		mu.Unlock()
		once.Do(func() { close(entered) })
		<-release
	}
	return fn, entered, func() int { mu.Lock(); defer mu.Unlock(); return calls }
}

// A progress callback that never returns neither stalls the search nor
// keeps Solve from returning once the context is cancelled: if a report
// were sent blocking, the search could not see the cancellation and this
// test would hang until go test's timeout.
func TestSolveProgressCallbackNeverBlocks(t *testing.T) {
	b := mustReplay(t, solveLongTurns)
	fn, entered, calls := stuckCallback[Progress](t)
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

func TestVerifyProgressCallbackNeverBlocks(t *testing.T) {
	b := mustReplay(t, "j10 j9l10 k11l9")
	fn, entered, calls := stuckCallback[VerifyProgress](t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Verify(ctx, b, VerifyOptions{Lambda: 3, Limits: Limits{MaxNodes: 5_000_000}, Workers: 2}, fn)
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if n := calls(); n != 1 {
		t.Fatalf("a stuck callback was called %d times", n)
	}
}

// The same for JobSearch, the auto-pilot's search (proofbook's Prove runs
// it): a stuck callback is called once, and a cancelled search returns.
func TestJobSearchProgressCallbackNeverBlocks(t *testing.T) {
	ft := newFake(map[string]*fakeNode{"root": {run: true}})
	ft.gate = make(chan struct{}) // the job never finishes on its own
	fn, entered, calls := stuckCallback[JobProgress[string]](t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := JobSearch[string](ctx, ft, "root", JobOptions{Jobs: 1}, fn)
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if n := calls(); n != 1 {
		t.Fatalf("a stuck callback was called %d times", n)
	}
}
