package latest

import (
	"context"
	"sync"
	"testing"
)

// A nil callback gives the nil Reporter: inactive, and every method is a
// no-op on it.
func TestNilReporter(t *testing.T) {
	r := NewReporter[int](nil)
	if r != nil || r.Active() {
		t.Fatalf("NewReporter(nil) = %v, active %v; want nil, inactive", r, r.Active())
	}
	r.Send(1)
	r.Stop(context.Background())
}

// Stop waits for the deliveries: after it the callback has seen the last
// value sent, and it is not called again.
func TestReporterStopDelivers(t *testing.T) {
	var mu sync.Mutex
	var got []int
	r := NewReporter(func(v int) {
		mu.Lock()
		got = append(got, v)
		mu.Unlock()
	})
	if !r.Active() {
		t.Fatal("a reporter with a callback is inactive")
	}
	for v := 1; v <= 100; v++ {
		r.Send(v)
	}
	r.Stop(context.Background())
	mu.Lock()
	n, last := len(got), 0
	if n > 0 {
		last = got[n-1]
	}
	mu.Unlock()
	if n == 0 || last != 100 {
		t.Fatalf("after Stop: %d deliveries, the last %d; want the last value, 100", n, last)
	}
	r.Send(101)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n {
		t.Fatalf("a value sent after Stop was delivered: %v", got[n:])
	}
}
