package engine

import (
	"context"

	"c6book/internal/latest"
)

// reporter delivers progress reports from a search to a caller's callback
// on a goroutine of its own, through the project's one progress mechanism
// (latest.Box): send never blocks; while the callback is busy (or stuck)
// the latest report waits and older ones are replaced, so a slow callback
// never slows the search.
//
// stop waits for the callback in flight (and the report waiting) to be
// delivered, so that in the normal case no report arrives after the search
// has returned, unless ctx is done: a cancelled search returns at once
// even if the callback never returns.
type reporter[T any] struct{ box latest.Box[T] }

// startReporter returns nil (a reporter that drops everything) for a nil fn.
func startReporter[T any](fn func(T)) *reporter[T] {
	if fn == nil {
		return nil
	}
	return &reporter[T]{box: latest.Box[T]{Deliver: fn}}
}

// active reports whether reports are wanted at all.
func (r *reporter[T]) active() bool { return r != nil }

func (r *reporter[T]) send(v T) {
	if r == nil {
		return
	}
	r.box.Put(v)
}

func (r *reporter[T]) stop(ctx context.Context) {
	if r == nil {
		return
	}
	r.box.Close(ctx)
}
