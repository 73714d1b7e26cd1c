package main

import (
	"os"
	"runtime/debug"
)

// verifierGCPercent is the garbage collector's target (GOGC) for the
// commands that run the verifier. Each solver call allocates its search
// tree (up to --max-nodes nodes) and drops it; the live heap stays small
// (about 30 MB for a Connect(6,2,3) opening verify), so with the default
// 100 the collector ran 225 times and took 8 % of the CPU of that verify;
// with 400, 46 times and 1 %, for about 50 MB more memory at its peak.
const verifierGCPercent = 400

// verifierMemoryLimit is the soft memory limit (GOMEMLIMIT) of the
// commands that run the verifier. With the target of verifierGCPercent
// the heap may grow to five times what is live before a collection, so a
// live peak of a few hundred MB (two solver calls' trees, a verdict with
// thousands of replies on its way into the book) made a peak RSS in GB
// (6.9 GB in a 55-minute prove run). Near the limit the collector runs
// as often as it must, whatever the target; the live heap itself stays
// far below it.
const verifierMemoryLimit = 1 << 30

// runsVerifier reports whether the command line args (without the program
// name) is a command that runs the verifier in this process.
func runsVerifier(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "verify", "worker":
		return true
	case "book":
		return len(args) > 1 && (args[1] == "prove" || args[1] == "verify")
	}
	return false
}

// setVerifierGC sets the collector's target to verifierGCPercent and its
// soft memory limit to verifierMemoryLimit for a command that runs the
// verifier, unless the environment sets GOGC (GOMEMLIMIT).
func setVerifierGC(args []string) {
	if !runsVerifier(args) {
		return
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(verifierGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(verifierMemoryLimit)
	}
}
