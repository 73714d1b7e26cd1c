package latest

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Values put while one delivery is pending replace its content: one
// delivery, of the latest value; after it, the next value is delivered
// again. (Run queues the deliveries, as the workbench's UI goroutine does.)
func TestCoalesces(t *testing.T) {
	var queued []func()
	var got []int64
	b := &Box[int64]{Run: func(f func()) { queued = append(queued, f) }, Deliver: func(n int64) { got = append(got, n) }}
	for n := int64(1); n <= 5; n++ {
		b.Put(n)
	}
	if len(queued) != 1 {
		t.Fatalf("%d deliveries queued for 5 values, want 1", len(queued))
	}
	queued[0]()
	b.Put(6)
	if len(queued) != 2 {
		t.Fatalf("%d deliveries queued after the first ran, want 2", len(queued))
	}
	queued[1]()
	if len(got) != 2 || got[0] != 5 || got[1] != 6 {
		t.Fatalf("delivered %v, want [5 6]", got)
	}
	if v, ok := b.Last(); !ok || v != 6 {
		t.Fatalf("Last = %v %v, want 6 true", v, ok)
	}
}

// A consumer that never returns does not block the producer, and Wait
// gives up on it when its context is done: if Put waited for the
// consumer, or Wait ignored ctx, this test would hang until go test's
// timeout. The stuck consumer is called once.
func TestNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	var mu sync.Mutex
	calls := 0
	b := &Box[int]{Deliver: func(int) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			close(entered)
		}
		<-release
	}}
	defer close(release)
	b.Put(0)
	<-entered
	for i := 1; i <= 100_000; i++ {
		b.Put(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Wait(ctx)
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Fatalf("a stuck consumer was called %d times", calls)
	}
	if v, _ := b.Last(); v != 100_000 {
		t.Fatalf("Last = %d, want the last value put", v)
	}
}

// Many producers at once (run it with -race): the consumer sees values in
// the order they were put by each producer, never one twice, and the last
// value put is delivered by the time Wait returns.
func TestConcurrentProducers(t *testing.T) {
	const producers, each = 4, 2000
	var mu sync.Mutex
	last := make([]int, producers)
	for i := range last {
		last[i] = -1
	}
	var final [2]int
	b := &Box[[2]int]{Deliver: func(v [2]int) {
		mu.Lock()
		defer mu.Unlock()
		if v[1] <= last[v[0]] {
			t.Errorf("producer %d: value %d after %d", v[0], v[1], last[v[0]])
		}
		last[v[0]] = v[1]
		final = v
	}}
	var wg sync.WaitGroup
	for p := 0; p < producers; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b.Put([2]int{p, i})
			}
		}()
	}
	wg.Wait()
	b.Put([2]int{0, each})
	b.Wait(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if final != [2]int{0, each} {
		t.Fatalf("last delivery %v, want the last value put %v", final, [2]int{0, each})
	}
}

// With a gap, a value due before the gap has passed waits on a timer (it
// is not dropped); Wait delivers it at once instead of waiting for the
// timer (here an hour: without that, the test hangs), and Take hands it to
// the caller instead, cancelling the delivery.
func TestGapWaitAndTake(t *testing.T) {
	var mu sync.Mutex
	var got []int
	deliver := func(v int) { mu.Lock(); got = append(got, v); mu.Unlock() }
	b := &Box[int]{Deliver: deliver, Gap: time.Hour}
	b.Put(1)
	b.Wait(context.Background())
	b.Put(2)
	b.Put(3)
	b.Wait(context.Background())
	mu.Lock()
	if len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("delivered %v, want [1 3]", got)
	}
	mu.Unlock()

	b.Put(4)
	if v, ok := b.Take(); !ok || v != 4 {
		t.Fatalf("Take = %v %v, want 4 true", v, ok)
	}
	if _, ok := b.Take(); ok {
		t.Fatal("Take twice: the second found a pending value")
	}
	b.Wait(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("delivered %v after Take, want the taken value not delivered", got)
	}
}

// The zero Box records values and delivers nothing.
func TestZeroBoxRecords(t *testing.T) {
	var b Box[string]
	if _, ok := b.Last(); ok {
		t.Fatal("an empty box has a value")
	}
	b.Put("x")
	b.Wait(context.Background())
	if v, ok := b.Last(); !ok || v != "x" {
		t.Fatalf("Last = %q %v", v, ok)
	}
	if _, ok := b.Take(); ok {
		t.Fatal("a box without Deliver has a pending delivery")
	}
}

// A nil box drops everything.
func TestNilBox(t *testing.T) {
	var b *Box[int]
	b.Put(1)
	b.Wait(context.Background())
	if _, ok := b.Last(); ok {
		t.Fatal("a nil box has a value")
	}
	if _, ok := b.Take(); ok {
		t.Fatal("a nil box has a pending value")
	}
}

// After Close, values put are dropped: no delivery comes after it.
func TestClose(t *testing.T) {
	var mu sync.Mutex
	var got []int
	b := &Box[int]{Deliver: func(v int) { mu.Lock(); got = append(got, v); mu.Unlock() }}
	b.Put(1)
	b.Close(context.Background())
	b.Put(2)
	b.Wait(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != 1 {
		t.Fatalf("delivered %v, want [1]", got)
	}
	if v, _ := b.Last(); v != 1 {
		t.Fatalf("Last = %d after a Put following Close, want 1", v)
	}
}
