package session

import "context"

// Every book call of the session goes through call: it runs off the UI
// goroutine, in the order the calls were made (one after the other, so a
// read made after a write sees it), with the context of the current book
// (cancelled when the book is switched), and its result is delivered on
// the UI goroutine through Do. Long work goes through Start (jobs.go)
// instead, so that it never holds up the short calls.

// call runs work(ctx, store) off the UI goroutine and then, on the UI
// goroutine, the function it returns (nil: nothing to deliver).
func (s *Session) call(work func(ctx context.Context, store BookStore) func()) {
	store, ctx := s.store, s.storeCtx
	s.pending++
	deliver := func(f func()) {
		s.pending--
		if f != nil && store == s.store {
			f()
		}
	}
	if s.inline {
		deliver(work(ctx, store))
		return
	}
	prev, done := s.tail, make(chan struct{})
	s.tail = done
	do := s.do
	go func() {
		if prev != nil {
			<-prev
		}
		f := work(ctx, store)
		close(done)
		do(func() { deliver(f) })
	}()
}

// Busy reports how many book calls are queued or running (their results
// not yet delivered).
func (s *Session) Busy() int { return s.pending }

// drainCalls waits until every book call made so far has returned (their
// results, for the old book, are then dropped).
func (s *Session) drainCalls() {
	if s.tail != nil {
		<-s.tail
	}
}
