package game

import (
	"sort"
)

// Square is a board point, indexed y*M + x (x = column from 0 = 'a', y = row
// from 0 = row 1). NoSquare marks "none".
type Square int16

// NoSquare is the zero-information square.
const NoSquare Square = -1

// Sq returns the square at column x, row y (both from 0).
func (r Rules) Sq(x, y int) Square { return Square(y*r.M + x) }

// XY returns column and row (from 0) of s.
func (r Rules) XY(s Square) (x, y int) { return int(s) % r.M, int(s) / r.M }

// OnBoard reports whether column x, row y lie on the board.
func (r Rules) OnBoard(x, y int) bool { return x >= 0 && y >= 0 && x < r.M && y < r.N }

// symXY maps (x,y) on an m×n board by symmetry id: 0 identity, 1 mirror
// left-right, 2 mirror top-bottom, 3 rotate 180°, 4 transpose, 5 rotate 90°,
// 6 rotate 270°, 7 anti-transpose. Ids 4..7 need m == n.
func symXY(id, x, y, m, n int) (int, int) {
	switch id {
	case 0:
		return x, y
	case 1:
		return m - 1 - x, y
	case 2:
		return x, n - 1 - y
	case 3:
		return m - 1 - x, n - 1 - y
	case 4:
		return y, x
	case 5:
		return n - 1 - y, x
	case 6:
		return y, m - 1 - x
	default:
		return n - 1 - y, m - 1 - x
	}
}

// SymmetryCount is the number of board symmetries for the rules: 8 on a
// square board, 4 otherwise.
func (r Rules) SymmetryCount() int {
	if r.M == r.N {
		return 8
	}
	return 4
}

// Transform maps square s by symmetry id (0..SymmetryCount()-1).
func (r Rules) Transform(id int, s Square) Square {
	x, y := r.XY(s)
	tx, ty := symXY(id, x, y, r.M, r.N)
	return r.Sq(tx, ty)
}

// InverseSymmetry returns the id that undoes symmetry id.
func InverseSymmetry(id int) int {
	switch id {
	case 5:
		return 6
	case 6:
		return 5
	}
	return id
}

// TransformMove maps the stones of m by symmetry sym.
func (r Rules) TransformMove(sym int, m Move) Move {
	sq := make([]Square, m.Len())
	for i := range sq {
		sq[i] = r.Transform(sym, m.At(i))
	}
	return NewMove(sq...)
}

func TransformSquares(r Rules, sym int, list []Square) []Square {
	if list == nil {
		return nil
	}
	out := make([]Square, len(list))
	for i, s := range list {
		out[i] = r.Transform(sym, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func TransformLine(r Rules, sym int, line []Move) []Move {
	if line == nil {
		return nil
	}
	out := make([]Move, len(line))
	for i, m := range line {
		out[i] = r.TransformMove(sym, m)
	}
	return out
}
