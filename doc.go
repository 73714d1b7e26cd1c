// Package c6book holds the domain types every part of the workbench speaks:
// a position's proof status, its proof, the stored form of a verifier
// verdict (with their JSON), the game statistics of a position, the shape
// of a board mark, and a prove run's (the book's auto-pilot's) progress and
// outcome. The proof book (proofbook), the workbench (session, ui, app) and
// the command line (cmd/c6) use these types directly, under these names.
//
// The package depends only on the engine (rules, moves, squares, the
// verifier's raw result) and on proofcheck (certificates). The engine does
// not import it: verify.Verdict stays the prover's raw output, with its
// strategies, and FromEngine is the one place that turns it into a Verdict.
package c6book
