package autopilot

import (
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/internal/booktest"
	"context"
	"errors"
	"sync"
	"testing"

	"c6book"
)

// blockingVerifier answers its first n calls with the engine's verifier
// and blocks every later one until its context is done (a long job in
// flight), saying so on blocked once.
type blockingVerifier struct {
	n       int
	mu      sync.Mutex
	calls   int
	blocked chan struct{}
	once    sync.Once
}

func (v *blockingVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v.mu.Lock()
	v.calls++
	c := v.calls
	v.mu.Unlock()
	if c <= v.n {
		return verify.Verify(ctx, b, opts, progress)
	}
	v.once.Do(func() { close(v.blocked) })
	<-ctx.Done()
	return verify.Verdict{}, ctx.Err()
}

// Stop (the run's context cancelled) ends a prove run whose job in flight
// never ends on its own: the job is cancelled through its context, Prove
// returns "stopped" with the context's error, and the verdicts stored
// before stay in the book (and are counted).
func TestProveStopCancelsJobInFlight(t *testing.T) {
	bk := booktest.NewBook(t, game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1})
	id := booktest.Add(t, bk, "d4")
	v := &blockingVerifier{n: 1, blocked: make(chan struct{})}
	before, err := bk.CountStatus(context.Background(), game.Black, c6book.StatusProved, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		res ProveResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := Prove(ctx, bk, id, v, smallProve(game.Black, 3, 0), nil)
		done <- out{res, err}
	}()
	select {
	case <-v.blocked:
	case o := <-done:
		t.Fatalf("the run ended before its third verifier call: %s, %d calls, %v", o.res.Status, o.res.Calls, o.err)
	}
	cancel()
	o := <-done // a run that ignores the cancel hangs here (the test binary's timeout)
	if !errors.Is(o.err, context.Canceled) || o.res.Status != c6book.ProveStopped {
		t.Fatalf("after Stop: status %q, error %v; want stopped and context.Canceled", o.res.Status, o.err)
	}
	if o.res.Calls != v.n {
		t.Fatalf("after Stop: %d calls stored, want the %d answered before the job in flight", o.res.Calls, v.n)
	}
	st, err := bk.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stored := int(st.Verdicts)
	if stored < v.n {
		t.Fatalf("after Stop the book holds %d verdicts, want the %d stored before", stored, v.n)
	}
	after, err := bk.CountStatus(context.Background(), game.Black, c6book.StatusProved, 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(o.res.Proved) != after-before || int64(o.res.BookProved) != after {
		t.Fatalf("after Stop: %d proved during the run, %d in the book; the book went from %d to %d", o.res.Proved, o.res.BookProved, before, after)
	}
	booktest.MustCheck(t, bk)
}
