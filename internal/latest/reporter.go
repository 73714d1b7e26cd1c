package latest

import (
	"context"
)

// Reporter delivers progress reports from a search to a caller's callback
// on a goroutine of its own, through a Box: Send never blocks; while the
// callback is busy (or stuck) the latest report waits and older ones are
// replaced, so a slow callback never slows the search.
//
// Stop waits for the callback in flight (and the report waiting) to be
// delivered, so that in the normal case no report arrives after the search
// has returned, unless ctx is done: a cancelled search returns at once
// even if the callback never returns.
//
// The nil *Reporter drops everything: NewReporter returns it for a nil
// callback, and every method may be called on it.
type Reporter[T any] struct{ box Box[T] }

// NewReporter returns a reporter delivering to fn, or nil for a nil fn.
func NewReporter[T any](fn func(T)) *Reporter[T] {
	if fn == nil {
		return nil
	}
	return &Reporter[T]{box: Box[T]{Deliver: fn}}
}

// Active reports whether reports are wanted at all.
func (r *Reporter[T]) Active() bool { return r != nil }

// Send hands v over for delivery; it never blocks.
func (r *Reporter[T]) Send(v T) {
	if r == nil {
		return
	}
	r.box.Put(v)
}

// Stop waits for the delivery of the report in flight and of the one
// waiting, or until ctx is done.
func (r *Reporter[T]) Stop(ctx context.Context) {
	if r == nil {
		return
	}
	r.box.Close(ctx)
}
