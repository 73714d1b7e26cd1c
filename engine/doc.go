// Package engine implements the rules of Connect(m,n,k,p,q), a board with
// incremental threat bookkeeping, notation, Zobrist hashing with the board
// symmetries, threat-space solvers and the relevance-zone verifier.
//
// It uses the standard library only: no GUI, no SQL.
package engine
