//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time, so that node rates can be
// given per CPU second, which other load on the machine does not skew.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
