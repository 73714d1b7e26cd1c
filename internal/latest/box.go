// Package latest is the project's one progress mechanism: a box that keeps
// the latest value put in it and hands it to a consumer, one delivery at a
// time, without ever making the producer wait. A search (the engine's
// solvers, verifier, player and job search), an import or merge of the
// book, a queue client forwarding a worker's reports and the workbench's
// jobs all report through a Box.
//
// Put never blocks: while a delivery is in flight (the consumer is busy, or
// stuck), newer values replace the one waiting, so the consumer always gets
// the latest and the producer never slows down. It imports the standard
// library only, so every package of the module (engine included) may use
// it.
package latest

import (
	"context"
	"sync"
	"time"
)

// Box holds the latest value put and delivers it. Its fields are set
// before the first Put and not changed after; the zero Box records values
// and delivers nothing, and a nil *Box drops them (every method is a no-op).
type Box[T any] struct {
	// Deliver receives the values (nil: values are only recorded, for
	// Last). One call at a time; a value put while a call runs is
	// delivered after it, unless a newer one replaces it first.
	Deliver func(T)
	// Run starts a delivery; nil: on a goroutine of its own. The workbench
	// passes the function that runs code on its UI goroutine.
	Run func(func())
	// Gap is the least time between the starts of two deliveries; a
	// delivery due sooner waits on a timer (it is not dropped).
	Gap time.Duration

	mu      sync.Mutex
	v       T
	has     bool          // a value was put
	pending bool          // v has not been delivered
	running bool          // a delivery is scheduled or in flight
	idle    chan struct{} // closed when running goes back to false
	timer   *time.Timer   // the gap's timer of the scheduled delivery
	sent    time.Time     // when the last delivery started
	waiters int           // Waits in progress: deliveries skip the gap meanwhile
	closed  bool          // Close was called: Put drops values
}

// Put records v as the latest value and makes sure a delivery is on its
// way. It never blocks.
func (b *Box[T]) Put(v T) {
	if b == nil {
		return
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.v, b.has = v, true
	if b.Deliver == nil {
		b.mu.Unlock()
		return
	}
	b.pending = true
	if b.running {
		b.mu.Unlock()
		return
	}
	b.running = true
	b.idle = make(chan struct{})
	start := b.scheduleLocked()
	b.mu.Unlock()
	if start != nil {
		start()
	}
}

// scheduleLocked arranges the next delivery: on the gap's timer when the
// last one started less than Gap ago, else now through the returned
// function (called without the lock: Run may deliver at once).
func (b *Box[T]) scheduleLocked() func() {
	if wait := b.Gap - time.Since(b.sent); b.Gap > 0 && wait > 0 && b.waiters == 0 {
		b.timer = time.AfterFunc(wait, func() { b.run(b.deliver) })
		return nil
	}
	return func() { b.run(b.deliver) }
}

func (b *Box[T]) run(f func()) {
	if b.Run != nil {
		b.Run(f)
		return
	}
	go f()
}

// deliver hands the latest value to Deliver, then schedules the next
// delivery if a newer value came meanwhile.
func (b *Box[T]) deliver() {
	b.mu.Lock()
	b.timer = nil
	if !b.pending {
		b.endLocked()
		b.mu.Unlock()
		return
	}
	v := b.v
	b.pending = false
	b.sent = time.Now()
	b.mu.Unlock()

	b.Deliver(v)

	b.mu.Lock()
	if !b.pending {
		b.endLocked()
		b.mu.Unlock()
		return
	}
	start := b.scheduleLocked()
	b.mu.Unlock()
	if start != nil {
		start()
	}
}

func (b *Box[T]) endLocked() {
	b.running = false
	close(b.idle)
}

// Last returns the latest value put, and whether there is one.
func (b *Box[T]) Last() (T, bool) {
	if b == nil {
		var zero T
		return zero, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v, b.has
}

// Take returns the latest value if its delivery is still pending and
// cancels that delivery, for the caller to deliver it now (the end of a
// job, which must not lose its last report to the gap's timer).
func (b *Box[T]) Take() (T, bool) {
	if b == nil {
		var zero T
		return zero, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.pending {
		var zero T
		return zero, false
	}
	b.pending = false
	b.sent = time.Now()
	return b.v, true
}

// Wait delivers the value still pending without waiting for the gap (and
// so do the deliveries of values put while it waits), and returns once no
// delivery is scheduled or in flight. When ctx is done
// first it gives up: the pending value is dropped, so that at most the
// delivery in flight (a consumer that never returns) outlives the call.
// Values put after Wait began may make it wait for them too.
func (b *Box[T]) Wait(ctx context.Context) {
	if b == nil {
		return
	}
	b.mu.Lock()
	if !b.running {
		b.mu.Unlock()
		return
	}
	b.waiters++
	defer func() {
		b.mu.Lock()
		b.waiters--
		b.mu.Unlock()
	}()
	idle := b.idle
	var start func()
	if b.timer != nil && b.timer.Stop() {
		b.timer = nil
		start = func() { b.run(b.deliver) }
	}
	b.mu.Unlock()
	if start != nil {
		start()
	}
	select {
	case <-idle:
	case <-ctx.Done():
		b.mu.Lock()
		b.pending = false
		b.mu.Unlock()
	}
}

// Close makes every later Put a no-op, then waits as Wait does: once it
// has returned (ctx not done), no delivery comes any more.
func (b *Box[T]) Close(ctx context.Context) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.Wait(ctx)
}
