package c6book

import (
	"fmt"
	"time"
)

// ProveStatus is how a run of the book's auto-pilot (proofbook's Prove)
// ended. Its bytes are what the CLI prints and its JSON writes.
type ProveStatus string

// Auto-pilot outcomes.
const (
	ProveProved ProveStatus = "proved" // the target is proved
	// ProveFailed: every attacker move the auto-pilot tried failed. It is
	// the auto-pilot's dead end, not a disproof stored in the book (the
	// engine's job search says "disproved").
	ProveFailed  ProveStatus = "failed"
	ProveBudget  ProveStatus = "budget"  // out of calls or time
	ProveStuck   ProveStatus = "stuck"   // nothing left the auto-pilot may work on
	ProveStopped ProveStatus = "stopped" // its context was done
	ProveError   ProveStatus = "error"   // a job failed (the error is returned)
)

// Describe says, for people, how a run of the auto-pilot ended (the
// workbench's and the CLI's one wording).
func (s ProveStatus) Describe() string {
	switch s {
	case ProveProved:
		return "proved the position"
	case ProveFailed:
		return "failed: every attacker move it tried failed"
	case ProveBudget:
		return "out of time"
	case ProveStuck:
		return "stuck: nothing left it may work on"
	}
	return string(s)
}

// ProveProgress is reported while a prove run (the book's auto-pilot)
// runs: the one progress type from proofbook's Prove through the session
// to the workbench and the CLI.
type ProveProgress struct {
	Calls int // verifier calls finished (and stored)
	// Proved counts the positions proved during the run: the book's
	// positions proved for the attacker now less those at the start (read
	// from the book after each verifier call stored).
	Proved int
	// SearchProved counts the nodes of the search tree proved as the
	// search last saw it (a proved node's subtree is not looked at again:
	// not a count of proofs).
	SearchProved int
	Open         int // positions with work left
	Added        int // positions the auto-pilot stored (moves and items)
	PN, DN       int64
	InFlight     []int64 // the book ids of the positions being verified
	// Working says, for the jobs in flight that run a verifier call, how
	// far that call is (its latest progress report), in InFlight's order.
	Working []VerifyWork
	Held    int // the positions the search holds (its cache of the tree)
	Elapsed time.Duration
}

// VerifyWork is how far the verifier call of a job in flight is: the
// latest progress report of the call running for the job (a screen runs
// several at once: the latest report of any of them).
type VerifyWork struct {
	ID int64 // the job's position (InFlight)
	// Phase is the verifier's phase ("null", "seminull" or "moves"; ""
	// before the call's first report), Done and Total the defender moves
	// solved and known so far, Unsolved those left unsolved so far.
	Phase              string
	Done, Total        int
	Unsolved           int
	Elapsed            time.Duration // the call's time so far
	Finished, Verifies int           // the job's calls finished, and all it has (a family job, a screen: several; 0: not known)
}

// Describe is the work in a few words: "moves 1200/3552, 12 unsolved",
// with "2/11 calls done; " first when the job makes several calls.
func (w VerifyWork) Describe() string {
	s := "starting"
	if w.Phase != "" {
		s = fmt.Sprintf("%s %d/%d", w.Phase, w.Done, w.Total)
		if w.Unsolved > 0 {
			s += fmt.Sprintf(", %d unsolved", w.Unsolved)
		}
	}
	if w.Verifies > 1 {
		s = fmt.Sprintf("%d/%d calls done; %s", w.Finished, w.Verifies, s)
	}
	return s
}

// StuckReason says why the auto-pilot cannot work at a position for an
// attacker (proofbook's Book.Stuck). Its bytes are what the CLI's JSON
// writes.
type StuckReason string

// Why the auto-pilot is stuck.
const (
	NotStuck  StuckReason = ""     // it can work there
	StuckHeld StuckReason = "held" // left to the expert
	// StuckDeadEnd: the position's verdict leaves every defender move
	// open (no zone bounds the defence).
	StuckDeadEnd StuckReason = "dead end"
)

// Describe says, for people, why the auto-pilot is stuck at a position
// (the workbench's and the CLI's one wording).
func (r StuckReason) Describe() string {
	switch r {
	case StuckHeld:
		return "left to the expert"
	case StuckDeadEnd:
		return "a verifier dead end (every defender move open)"
	}
	return string(r)
}
