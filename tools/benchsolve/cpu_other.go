//go:build !unix

package main

import "time"

// cpuTime is not available here: node rates per CPU second are left out.
func cpuTime() (time.Duration, bool) { return 0, false }
