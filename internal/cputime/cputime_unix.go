//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process is the process's user+system CPU time so far; ok is false (and
// the time 0) when it cannot be read.
func Process() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
