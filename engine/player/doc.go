// Package player chooses moves: Play (an alpha-beta search over candidate
// moves, with the threat solver for forced wins), the learned pattern
// weights that rank squares and moves, the attacker candidates the
// prover tries first (PlayerCandidates, ShapeCandidates, MixCandidates),
// and the table of LittleGolem games moves (GameMoves).
//
// It imports the standard library, engine/game, engine/board,
// engine/threat and internal/latest (progress reports) only.
package player
