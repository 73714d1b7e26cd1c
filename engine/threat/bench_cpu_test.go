package threat

import (
	"testing"

	"c6book/internal/cputime"
)

// cpuMetric reports CPU nanoseconds per operation next to ns/op: on a
// machine shared with other work the wall-clock ns/op is inflated by the
// time the benchmark waits for a core; the CPU time is not. Nothing is
// reported where the CPU time cannot be read. Call the returned function
// when the timed loop ends.
func cpuMetric(b *testing.B) func() {
	start, ok := cputime.Process()
	return func() {
		if ok && b.N > 0 && start > 0 {
			now, _ := cputime.Process()
			b.ReportMetric(float64(now-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
