//go:build !unix

package cputime

import "time"

// Process is the process's CPU time, which cannot be read here: ok is
// false and the time 0.
func Process() (d time.Duration, ok bool) { return 0, false }
