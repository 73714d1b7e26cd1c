//go:build unix

package engine

import "testing"

// cpuMetric reports CPU nanoseconds per operation next to ns/op: on a
// machine shared with other work the wall-clock ns/op is inflated by the
// time the benchmark waits for a core; the CPU time is not. Call the
// returned function when the timed loop ends.
func cpuMetric(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 && start > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
