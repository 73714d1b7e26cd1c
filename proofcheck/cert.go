package proofcheck

import "c6book/engine/game"

// A certificate is everything needed to re-check a verifier verdict without
// search. It is stored with the verdict, in the frame of the position it
// belongs to (the book's canonical frame), and re-checked by this package,
// which uses only the rules and a board of its own: none of the engine's
// threat generator, solvers or zone code.
//
// Tolerance. A position is proved "at tolerance t" when the attacker wins
// even if up to t extra defender stones are placed on empty squares outside
// the position's zone (at the start: see the package doc). A book position's
// tolerance is its defender stone deficit (Deficit): 0 for positions reached
// by full turns, 1 below a seminull move, p below a null move.

// Tree is an attacker strategy from a position with the attacker to move:
// the attacker plays Move; after it, every defender reply the strategy
// covers has a sub-strategy. A Seminull reply (one stone s) stands for
// every defender move (s, x) whose other stone x is outside the zone of its
// sub-strategy (computed at tolerance + 1 on the board with s and without
// x); the moves (s, x) with x inside that zone need replies of their own.
// Six is set when Move makes k in a row (it may then have fewer stones than
// a turn places).
type Tree struct {
	Move    game.Move
	Six     bool
	Replies []Reply
}

// Reply is a defender reply in a Tree.
type Reply struct {
	Move     game.Move
	Seminull bool
	Then     *Tree
}

// Cert is the certificate of a verdict on a position D with the defender to
// move. Every defender move must be accounted for by one of:
//   - it leaves an attacker threat window without a defender stone (the
//     attacker makes k in a row next);
//   - Covered: a full move refuted by its own strategy (from D+move, at the
//     position's tolerance);
//   - Seminull: it contains stone s of an entry and its other stone is
//     outside that entry's Zone; the entry's Tree (from D+s, attacker to
//     move) must hold at tolerance + 1, and Zone must contain the zone the
//     checker computes for it;
//   - Null: none of its stones is in NullZone; NullTree (from D with the
//     attacker to move) must hold at tolerance + p, and NullZone must
//     contain the zone the checker computes for it;
//   - the book: Unsolved moves and OpenSeminull stones are left to the book
//     (children of D that must be proved on their own).
//
// AllUnsolved means that no argument bounds the defence: every defender
// move is left to the book.
type Cert struct {
	Attacker     game.Color
	AllUnsolved  bool
	NullTree     *Tree
	NullZone     []game.Square
	Seminull     []SeminullCert
	Covered      []CoveredCert
	Unsolved     []game.Move
	OpenSeminull []game.Square
}

// SeminullCert is a refuted seminull move s with its claimed zone.
type SeminullCert struct {
	Stone game.Square
	Zone  []game.Square
	Tree  *Tree
}

// CoveredCert is a full defender move refuted one by one.
type CoveredCert struct {
	Move game.Move
	Tree *Tree
}
