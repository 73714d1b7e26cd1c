// Package game holds the plain types of Connect(m,n,k,p,q) that every
// layer speaks: the rules (Rules, Connect6), colours, squares and moves,
// their names in LittleGolem notation (SquareName, MoveName, ParseTurns,
// FormatTurns), the board symmetries as maps of squares and moves
// (Rules.Transform, TransformMove, InverseSymmetry), and sets of squares
// (SqSet). It has no board state: that is package board.
//
// It imports the standard library only. It is the one engine package the
// independent checker (proofcheck) may import.
package game
