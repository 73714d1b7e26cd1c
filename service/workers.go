package service

import "runtime"

// Workers is the number of parallel solver calls each verifier job gets
// when jobs of them run at once and the user asked for none in
// particular: the machine's cores shared among the jobs, at least one.
// It is the one worker count of the product (c6 verify, c6 book verify,
// c6 book prove, the workbench's Verify and auto-pilot, the queue's
// solvers).
func Workers(jobs int) int { return workersOf(runtime.NumCPU(), jobs) }

func workersOf(cpus, jobs int) int {
	return max(1, cpus/max(1, jobs))
}

// QueueSlots is the number of verifier jobs a queue beside the book runs
// at once: a slot a core, at least two, so that one Verify and an
// auto-pilot job run side by side.
func QueueSlots() int { return max(2, runtime.NumCPU()) }
