// Package engine implements the rules of Connect(m,n,k,p,q), a board with
// incremental threat bookkeeping, notation, Zobrist hashing with the board
// symmetries, threat-space solvers and the relevance-zone verifier.
//
// It uses the standard library only (and internal/latest, the project's
// progress box, itself standard library only): no GUI, no SQL. What it may
// import is enforced by internal/archtest (docs/ARCHITECTURE.md).
package engine
