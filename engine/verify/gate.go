package verify

import (
	"context"
	"sync"
)

// Gate shares a fixed number of solver slots among verifications that run
// at the same time (a worker's jobs): each solver call of a verification
// whose options name the gate takes a slot first and gives it back after.
// A slot that frees goes to the waiting call of the lowest Priority (the
// oldest job, when priorities are start numbers), so a lone or first job
// uses every slot while the others wait, instead of each job keeping its
// share of the cores while another's are idle. It changes no verdict: the
// verifier's results never depend on how many calls run at once.
type Gate struct {
	mu      sync.Mutex
	free    int
	seq     int64
	waiting []*gateWaiter // by priority, then arrival
}

type gateWaiter struct {
	prio, seq int64
	ch        chan struct{} // closed when the slot is handed over
}

// NewGate is a gate of n slots (at least 1).
func NewGate(n int) *Gate { return &Gate{free: max(1, n)} }

// acquire takes a slot, waiting behind the calls of lower priority; it
// fails only when ctx is done first.
func (g *Gate) acquire(ctx context.Context, prio int64) error {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	g.seq++
	w := &gateWaiter{prio: prio, seq: g.seq, ch: make(chan struct{})}
	i := len(g.waiting)
	for i > 0 && g.waiting[i-1].prio > prio {
		i--
	}
	g.waiting = append(g.waiting, nil)
	copy(g.waiting[i+1:], g.waiting[i:])
	g.waiting[i] = w
	g.mu.Unlock()
	select {
	case <-w.ch:
		return nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	for j, x := range g.waiting {
		if x == w {
			g.waiting = append(g.waiting[:j], g.waiting[j+1:]...)
			g.mu.Unlock()
			return ctx.Err()
		}
	}
	g.mu.Unlock()
	g.release() // handed over as ctx ended: pass it on
	return ctx.Err()
}

// release gives a slot back: to the first waiting call, or to the pool.
func (g *Gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) > 0 {
		w := g.waiting[0]
		g.waiting = g.waiting[1:]
		close(w.ch)
		return
	}
	g.free++
}
