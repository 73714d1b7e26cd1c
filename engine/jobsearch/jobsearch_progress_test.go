package jobsearch

import (
	"context"
	"errors"
	"testing"

	"c6book/engine/internal/enginetest"
)

// The same for JobSearch: a stuck callback is called once, and a cancelled
// search returns.
func TestJobSearchProgressCallbackNeverBlocks(t *testing.T) {
	ft := newFake(map[string]*fakeNode{"root": {run: true}})
	ft.gate = make(chan struct{}) // the job never finishes on its own
	fn, entered, calls := enginetest.StuckCallback[JobProgress[string]](t)
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
