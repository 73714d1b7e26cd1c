//go:build unix

package engine

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time (user+system) used by the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMetric reports CPU nanoseconds per operation next to ns/op: on a
// machine shared with other work the wall-clock ns/op is inflated by the
// time the benchmark waits for a core; the CPU time is not. Call the
// returned function when the timed loop ends.
func cpuMetric(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 && start > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
