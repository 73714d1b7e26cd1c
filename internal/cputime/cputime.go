// Package cputime reads the process's CPU time, for benchmarks that give
// rates per CPU second: other load on the machine inflates wall-clock
// times, not the CPU time.
package cputime

import "time"

var start = time.Now()

// ProcessOrWall is Process, or where the CPU time cannot be read the wall
// time since the program started.
func ProcessOrWall() time.Duration {
	if d, ok := Process(); ok {
		return d
	}
	return time.Since(start)
}
