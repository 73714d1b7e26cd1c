package autopilot

import (
	"c6book/internal/booktest"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
)

// stopVerifier is the local verifier that records the positions it was
// asked to verify (canonical keys) and, at call stopAt (1 the first; 0:
// never), cancels the run instead: the process "dies" in the middle of a
// job, whose verdict is never stored.
type stopVerifier struct {
	mu     sync.Mutex
	keys   []uint64
	calls  int
	stopAt int
	cancel context.CancelFunc
}

func (v *stopVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v.mu.Lock()
	v.calls++
	if v.calls == v.stopAt {
		v.mu.Unlock()
		v.cancel()
		<-ctx.Done()
		return verify.Verdict{}, ctx.Err()
	}
	k, _ := b.CanonicalKey()
	v.keys = append(v.keys, k)
	v.mu.Unlock()
	return verify.Verify(ctx, b, opts, progress)
}

// A run stopped in the middle of a job and started again (a new Prove on
// the book, as after kill -9: nothing of the first run's memory survives
// but the book) verifies the same positions in the same order as a run
// that was not stopped, and ends with the same root numbers. One job and
// node budgets only, so that both runs are deterministic. It fails when
// the auto-pilot keeps what orders its search only in memory (the
// player's scores of its moves, the positions without further candidates):
// the second run then starts from other numbers.
func TestProveResumesWithSameNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	r := game.Rules{M: 10, N: 10, K: 5, P: 2, Q: 1}
	const calls = 14
	opts := func(n int) ProveOptions {
		o := smallProve(game.Black, 2, n)
		o.PlayerNodes = 2000
		return o
	}
	// The run that is not stopped.
	ref := booktest.NewBook(t, r)
	rv := &stopVerifier{}
	want, err := Prove(context.Background(), ref, rootOf(t, ref), rv, opts(calls), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.Status == "proved" || want.Calls != calls {
		t.Fatalf("the reference run ended %s after %d calls: the test wants an open run of %d", want.Status, want.Calls, calls)
	}
	for _, stop := range []int{2, 6, 11} {
		bk := booktest.NewBook(t, r)
		ctx, cancel := context.WithCancel(context.Background())
		v := &stopVerifier{stopAt: stop, cancel: cancel}
		first, err := Prove(ctx, bk, rootOf(t, bk), v, opts(calls), nil)
		cancel()
		if !errors.Is(err, context.Canceled) || first.Calls != stop-1 {
			t.Fatalf("stop at call %d: the first run ended %s after %d calls (%v)", stop, first.Status, first.Calls, err)
		}
		v2 := &stopVerifier{}
		got, err := Prove(context.Background(), bk, rootOf(t, bk), v2, opts(calls-first.Calls), nil)
		if err != nil {
			t.Fatal(err)
		}
		seq := append(slices.Clone(v.keys), v2.keys...)
		if !slices.Equal(seq, rv.keys) {
			t.Fatalf("stop at call %d: the runs verified %d positions, the reference %d, in another order", stop, len(seq), len(rv.keys))
		}
		if got.PN != want.PN || got.DN != want.DN || got.Status != want.Status {
			t.Fatalf("stop at call %d: the restarted run ends %s at %d/%d, the reference %s at %d/%d",
				stop, got.Status, got.PN, got.DN, want.Status, want.PN, want.DN)
		}
		booktest.MustCheck(t, bk)
	}
	t.Logf("reference: %d calls, root %d/%d", want.Calls, want.PN, want.DN)
}
