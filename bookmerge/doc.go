// Package bookmerge moves proofs between books: Merge adds another book
// to one (positions, moves, notes, games, verdicts, the expert's flags
// and holds), Split writes a position's subtree to a new book. Every
// verdict goes in through proofbook's StoreVerdict, which re-checks its
// certificate with proofcheck: a proof that does not check is refused and
// listed with a typed reason (Refusal), never stored. Statuses are never
// copied; the receiving book derives them.
//
// It reads and writes the books only through proofbook's exported methods
// (ReadPositions and CopyPositions, StoredVerdict, SameVerdict,
// ExpertFlags, GamesToCopy and StoreGames): no SQL here. It may import the
// root package, engine, proofbook, internal/idset and internal/latest
// (docs/ARCHITECTURE.md); proofbook does not import it. The result
// (Summary) is typed; it says itself (Counts, Describe,
// RefusedVerdict.String) for the callers that print it.
package bookmerge
