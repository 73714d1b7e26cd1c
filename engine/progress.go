package engine

import "context"

// reporter delivers progress reports from a search to a caller's callback
// on a goroutine of its own. send never blocks: while the callback is busy,
// at most one report waits and newer ones are dropped, so a slow (or stuck)
// callback never slows the search.
//
// stop waits for the callback in flight to return, so that in the normal
// case no report arrives after the search has returned, unless ctx is done:
// a cancelled search returns at once even if the callback never returns.
type reporter[T any] struct {
	ch   chan T
	done chan struct{}
}

// startReporter returns nil (a reporter that drops everything) for a nil fn.
func startReporter[T any](fn func(T)) *reporter[T] {
	if fn == nil {
		return nil
	}
	r := &reporter[T]{ch: make(chan T, 1), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for v := range r.ch {
			fn(v)
		}
	}()
	return r
}

// active reports whether reports are wanted at all.
func (r *reporter[T]) active() bool { return r != nil }

func (r *reporter[T]) send(v T) {
	if r == nil {
		return
	}
	select {
	case r.ch <- v:
	default: // the callback is busy: drop this report
	}
}

func (r *reporter[T]) stop(ctx context.Context) {
	if r == nil {
		return
	}
	close(r.ch)
	select {
	case <-r.done:
	case <-ctx.Done():
		// Give up on a stuck callback; a report still waiting is
		// discarded so that at most the call in flight outlives us.
		for range r.ch {
		}
	}
}
