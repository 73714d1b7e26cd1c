package c6book

import "time"

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
	Held         int     // the positions the search holds (its cache of the tree)
	Elapsed      time.Duration
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
