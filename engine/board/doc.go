// Package board is the position: Board, with its incremental threat
// bookkeeping (the windows of k squares, their stone counts, each colour's
// threat and hot windows, updated on every Place and Remove), the rules of
// play (Play, Undo, SetUp, Replay), Zobrist keys and the canonical frame
// under the board symmetries, the threat-move generator (ThreatMoves,
// MoveGen) and critical defences the solvers build on, relevance-zone
// window queries, and the atlas of opening classes.
//
// The threat-move generator lives here, not with the solvers, because it
// reads the window tables of the board on every call.
//
// It imports the standard library and engine/game only.
package board
