//go:build unix

package jobqueue

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time (benchmarks report node
// rates per CPU second, which other load on the machine does not skew).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
