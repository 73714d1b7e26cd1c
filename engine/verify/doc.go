// Package verify is the relevance-zone verifier: Verify decides a position
// with the defender to move by refuting the null move and, move by move,
// the defender moves inside the zones with the threat solver, and returns
// a Verdict (proved, or the defender moves left unsolved) with the
// argument a certificate is built from. Verifier is the interface local
// and queued verifiers share.
//
// It imports the standard library, engine/game, engine/board,
// engine/threat and internal/latest (progress reports) only.
package verify
