package session

import "context"

// Every book call of the session goes through call: it runs off the UI
// goroutine, in the order the calls were made (one after the other, so a
// read made after a write sees it), with the context of the current book
// (cancelled when the book is switched), and its result is delivered on
// the UI goroutine through Do. Long work goes through Start (jobs.go)
// instead, so that it never holds up the short calls. Both start their
// goroutine with Session.spawn.

// callQueue is the order of the book calls (UI goroutine only).
type callQueue struct {
	pending int           // book calls not yet delivered
	tail    chan struct{} // closed when the last queued call has returned
}

// call runs work(ctx, store) off the UI goroutine and then, on the UI
// goroutine, the function it returns (nil: nothing to deliver).
func (s *Session) call(work func(ctx context.Context, store BookStore) func()) {
	store, ctx := s.store, s.storeCtx
	s.calls.pending++
	deliver := func(f func()) {
		s.calls.pending--
		if f != nil && store == s.store {
			f()
		}
	}
	if s.inline {
		deliver(work(ctx, store))
		return
	}
	prev, done := s.calls.tail, make(chan struct{})
	s.calls.tail = done
	s.spawn(func() func() {
		if prev != nil {
			<-prev
		}
		f := work(ctx, store)
		close(done)
		return func() { deliver(f) }
	})
}

// spawn runs work on a goroutine of its own and the function it returns
// on the UI goroutine: the one place the workbench leaves the UI goroutine
// (book calls, jobs, and Go for the app).
func (s *Session) spawn(work func() func()) {
	do := s.do
	go func() {
		if then := work(); then != nil {
			do(then)
		}
	}()
}

// Go runs work off the UI goroutine and then, on the UI goroutine, the
// function it returns (nil: nothing), whatever book is shown by then: for
// the app's work that is not on the shown book (opening another one, its
// damage check). With Config.Inline both run at once, before Go returns.
// Work on the book goes through its calls or a Job instead.
func (s *Session) Go(work func() func()) {
	if s.inline {
		if then := work(); then != nil {
			then()
		}
		return
	}
	s.spawn(work)
}

// Busy reports how many book calls are queued or running (their results
// not yet delivered).
func (s *Session) Busy() int { return s.calls.pending }

// drain waits until every book call made so far has returned (their
// results, for the old book, are then dropped).
func (q *callQueue) drain() {
	if q.tail != nil {
		<-q.tail
	}
}
