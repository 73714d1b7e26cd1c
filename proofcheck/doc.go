// Package proofcheck re-checks stored proofs without the prover: nothing is
// proved unless a stored certificate says why, and this checker, which
// shares no search code with the prover, re-checks it.
//
// It uses only the rules and a board of its own (cells, every window of k
// squares and per-window stone counts, updated incrementally); from the
// engine it takes the plain types (Rules, Square, Move, Color), the board
// symmetries and the notation, nothing else.
//
// Three levels:
//   - CheckTree checks an attacker strategy (Tree) against every defender
//     move, all of them, and computes its zone;
//   - CheckVerdict checks a verdict's certificate (Cert): its null,
//     seminull and covered strategies and its claimed zones, and says
//     which defender moves the certificate refutes;
//   - CheckBook checks stored proofs position by position through a
//     Source, down to the leaves.
//
// Zones and tolerance. A window is active for a colour when it holds no
// stone of the colour's opponent. "defwin(≤ e)" is the set of empty
// squares of every window active for the defender with at most e empty
// squares. The zone of a won position at tolerance t is a set of squares
// such that if up to t extra defender stones are put on empty squares
// outside it (at the start), the attacker still wins by the same strategy.
// The checker builds it bottom-up:
//   - attacker move m making k in a row: m ∪ defwin(≤ t) before m;
//   - other attacker move m: m ∪ defwin(≤ p+t) before m ∪ the zone after m;
//   - after the attacker's move: the empties of the attacker's threat
//     windows ∪ defwin(≤ p+t) ∪ the zones of the replies to every defender
//     move that puts a stone in every threat window (the others lose at
//     once); a seminull reply (one stone s) is checked at t+1 on the board
//     with s, and answers the moves (s, x) with x outside its zone.
//
// A book position's tolerance is its defender stone deficit (Deficit): 0
// for positions reached by full turns, 1 below a seminull move, p below a
// null move.
//
// Twins. By the definition above, a position proved at tolerance 1 with
// zone Z is won with one more defender stone x on any empty square
// outside Z. So CheckBook also accepts, at a full attacker-to-move
// position P, a stored twin (Node.Twins): P's stones less one defender
// stone x, the same side to move (so one stone short: tolerance 1), proved
// with a zone that misses x; P's zone is then the twin's with x. It is the
// rule it applies to the moves (s, x) of an open seminull item s, for a
// position reached any way.
package proofcheck
