// Package autopilot is the auto-pilot: it proves a book position for an
// attacker by running the job-level proof-number search (jobsearch.JobSearch)
// over the positions the book stores, a verifier call or a batch of new
// attacker moves being one job.
//
// It reaches the book only through Store, which *proofbook.Book
// implements: read a position (side to move, winner, stored status,
// held, exhausted), its moves and the moves into it (with the
// auto-pilot's rank and score and the games through them), its verdict
// and open items; add attacker moves, mark a position exhausted, and
// verify a position and store the verdict through the book's one verified
// path (StoreVerdict re-checks every certificate with proofcheck). Nothing
// here decides what is proved: a proof is the stored, re-checked
// verdicts, and a proof Prove reports is re-checked once more
// (Store.ConfirmProof).
//
// The policy is here, and only here: the order of the attacker's moves
// (hand-made, vouched for by the games, the player's and the shape moves,
// a twin's or a sibling's proving move first), the expected numbers of new positions,
// the verifier's node-budget schedule, the screen. Results are typed
// (ProveResult, Frontier, Refused): the callers (service, cmd/c6, the
// workbench through service) say them.
//
// It imports the root package, engine and proofbook (for the Store's row
// types); no SQL, no Fyne.
package autopilot
