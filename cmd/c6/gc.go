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

// setVerifierGC sets the collector's target to verifierGCPercent for a
// command that runs the verifier, unless the environment sets GOGC.
func setVerifierGC(args []string) {
	if runsVerifier(args) && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(verifierGCPercent)
	}
}
