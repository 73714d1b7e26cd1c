// Package threat is the threat-space solver: Solve runs a proof-number
// search over attacker moves that make threats (VCDT: two or more; VCST:
// single threats too) and the defender's critical replies, and returns a
// winning Strategy with its relevance zones (the squares outside which
// extra defender stones change nothing). CheckStrategy re-plays a strategy
// against every defence.
//
// It imports the standard library, engine/game, engine/board and
// internal/latest (progress reports) only.
package threat
