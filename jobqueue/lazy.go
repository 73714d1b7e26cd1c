package jobqueue

import (
	"context"
	"errors"
	"sync"

	"c6book/engine/board"
	"c6book/engine/verify"
)

// Queue is a verifier queue as a program holds it: Embedded or remote.
type Queue interface {
	verify.Verifier
	Stats(ctx context.Context) (Stats, error)
	URL() string
	Close() error
}

var (
	_ Queue = (*Embedded)(nil)
	_ Queue = (*remote)(nil)
)

// Stats reads the queue's state (see Client.Stats).
func (e *Embedded) Stats(ctx context.Context) (Stats, error) { return e.client.Stats(ctx) }

// Lazy is a verify.Verifier that opens its queue on the first Verify, so
// that a program that verifies nothing starts no server and creates no
// storage folder. When the queue cannot be opened (a storage folder that
// cannot be written, a server that cannot be reached) and a fallback is
// set, Lazy says why once, through note, and verifies with the fallback
// from then on. Lazy is safe for concurrent use.
type Lazy struct {
	open     func(context.Context) (Queue, error)
	fallback verify.Verifier
	note     func(error)

	mu     sync.Mutex
	q      Queue
	failed bool // the fallback answers
	closed bool
}

// ErrClosed is returned by a Lazy's Verify after Close.
var ErrClosed = errors.New("jobqueue: the verifier queue is closed")

// newLazy returns a Lazy that opens its queue with open. fallback (may be
// nil: the error is returned instead) verifies when open fails, and note
// (may be nil) is told why, once.
func newLazy(open func(context.Context) (Queue, error), fallback verify.Verifier, note func(error)) *Lazy {
	return &Lazy{open: open, fallback: fallback, note: note}
}

// verifier opens the queue if needed and returns what answers.
func (l *Lazy) verifier(ctx context.Context) (verify.Verifier, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, ErrClosed
	case l.q != nil:
		return l.q, nil
	case l.failed:
		return l.fallback, nil
	}
	q, err := l.open(ctx)
	if err != nil {
		if ctx.Err() != nil || l.fallback == nil {
			return nil, err // tried again by the next Verify
		}
		l.failed = true
		if l.note != nil {
			l.note(err)
		}
		return l.fallback, nil
	}
	l.q = q
	return q, nil
}

// Verify verifies b through the queue (opening it first if needed).
func (l *Lazy) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	v, err := l.verifier(ctx)
	if err != nil {
		return verify.Verdict{}, err
	}
	return v.Verify(ctx, b, opts, progress)
}

// Queue is the open queue, nil before the first Verify, after Close, or
// when the fallback answers.
func (l *Lazy) Queue() Queue {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q
}

// Stats reads the open queue's state; ok is false when no queue is open.
func (l *Lazy) Stats(ctx context.Context) (st Stats, ok bool, err error) {
	q := l.Queue()
	if q == nil {
		return Stats{}, false, nil
	}
	st, err = q.Stats(ctx)
	return st, err == nil, err
}

// Close closes the queue if it was opened; a later Verify returns
// ErrClosed. The caller cancels and waits for its Verify calls first.
func (l *Lazy) Close() error {
	l.mu.Lock()
	q := l.q
	l.q, l.closed = nil, true
	l.mu.Unlock()
	if q != nil {
		return q.Close()
	}
	return nil
}
