package verify

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
)

// waitQueued yields until n calls wait at g.
func waitQueued(g *Gate, n int) {
	for {
		g.mu.Lock()
		k := len(g.waiting)
		g.mu.Unlock()
		if k == n {
			return
		}
		runtime.Gosched()
	}
}

// A freed slot goes to the waiting call of the lowest priority, whatever
// the order the calls arrived in; a call whose ctx ends leaves the queue.
func TestGateLowestPriorityFirst(t *testing.T) {
	g := NewGate(1)
	if err := g.acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for i, p := range []int64{3, 1, 2} {
		wg.Add(1)
		go func(p int64) {
			defer wg.Done()
			if err := g.acquire(context.Background(), p); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
			g.release()
		}(p)
		waitQueued(g, i+1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error)
	go func() { gone <- g.acquire(ctx, 0) }()
	waitQueued(g, 4)
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait returned %v", err)
	}
	g.release()
	wg.Wait()
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("slots went to priorities %v, want [1 2 3]", got)
	}
	if g.free != 1 || len(g.waiting) != 0 {
		t.Fatalf("after all: %d free, %d waiting; want 1, 0", g.free, len(g.waiting))
	}
}
