package board

import (
	"fmt"
	"slices"

	"c6book/engine/game"
)

// The opening atlas: Black's first stone on the centre, every White
// second move (two stones) with both stones within Chebyshev distance d of
// the centre, up to the board symmetries (all of which fix the centre of
// a board of odd sizes), plus "White passes": White's two stones in two
// far corners, which leaves Black a free three-stone start.

// AtlasRow is one class of White's second move: its representative, the
// move with the smallest squares (in the book's square order) among the
// images of the class.
type AtlasRow struct {
	Move game.Move // White's two stones
	// Pass: White's stones are in two far corners (a1 and the opposite
	// one): "White passes".
	Pass bool
	// Near and Far are the Chebyshev distances of White's stones to the
	// centre, the nearer one first; Apart is the Chebyshev distance
	// between the two stones.
	Near, Far, Apart int
	// Size is the number of White moves the class stands for (its images
	// under the symmetries).
	Size int
}

// Name is the row's White move ("i9k9"), or "pass" for the pass row.
func (a AtlasRow) Name(r game.Rules) string {
	if a.Pass {
		return "pass"
	}
	return game.MoveName(r, a.Move)
}

// Turns is the row's position from the empty board: Black's centre stone,
// then White's move.
func (a AtlasRow) Turns(r game.Rules) []game.Move {
	return []game.Move{game.NewMove(AtlasCentre(r)), a.Move}
}

// AtlasCentre is the square of Black's first stone in the atlas: the
// board's centre (j10 on 19×19).
func AtlasCentre(r game.Rules) game.Square { return r.Sq(r.M/2, r.N/2) }

// MaxAtlasDistance is the largest d the atlas takes on the rules' board:
// the pass row's corners must lie beyond distance d of the centre.
func MaxAtlasDistance(r game.Rules) int { return (min(r.M, r.N)-1)/2 - 1 }

// CheckAtlas says why the rules have no atlas of distance d (nil: they
// have one): Black's first turn must be one stone and White's two, and the
// board must have a centre square.
func CheckAtlas(r game.Rules, d int) error {
	switch {
	case r.StonesForTurn(0) != 1 || r.StonesForTurn(1) != 2:
		return fmt.Errorf("the atlas needs Black's first turn of one stone and White's of two (rules %s)", r)
	case r.M%2 == 0 || r.N%2 == 0:
		return fmt.Errorf("the atlas needs a board with a centre square (odd sizes, not %dx%d)", r.M, r.N)
	case d < 1 || d > MaxAtlasDistance(r):
		return fmt.Errorf("atlas distance %d: want 1 to %d on a %dx%d board", d, max(MaxAtlasDistance(r), 1), r.M, r.N)
	}
	return nil
}

// Atlas lists the classes of White's second move within Chebyshev
// distance d of the centre, one row each, nearest first (by the farther
// stone's distance, then the nearer one's, then the stones' distance
// apart, then the representative's squares), and the pass row last.
func Atlas(r game.Rules, d int) ([]AtlasRow, error) {
	if err := CheckAtlas(r, d); err != nil {
		return nil, err
	}
	cx, cy := r.M/2, r.N/2
	var near []game.Square
	for y := cy - d; y <= cy+d; y++ {
		for x := cx - d; x <= cx+d; x++ {
			if x != cx || y != cy {
				near = append(near, r.Sq(x, y))
			}
		}
	}
	dist := func(s game.Square) int {
		x, y := r.XY(s)
		return chebyshev(x, y, cx, cy)
	}
	seen := map[game.Move]bool{}
	var rows []AtlasRow
	for i, s := range near {
		for _, t := range near[i+1:] {
			m := game.NewMove(s, t)
			if seen[m] {
				continue
			}
			rep, size := m, 0
			for id := 0; id < r.SymmetryCount(); id++ {
				im := r.TransformMove(id, m)
				if !seen[im] {
					seen[im] = true
					size++
				}
				if game.MoveLess(im, rep) {
					rep = im
				}
			}
			a, b := rep.At(0), rep.At(1)
			ax, ay := r.XY(a)
			bx, by := r.XY(b)
			rows = append(rows, AtlasRow{Move: rep, Near: min(dist(a), dist(b)), Far: max(dist(a), dist(b)),
				Apart: chebyshev(ax, ay, bx, by), Size: size})
		}
	}
	slices.SortFunc(rows, func(p, q AtlasRow) int {
		switch {
		case p.Far != q.Far:
			return p.Far - q.Far
		case p.Near != q.Near:
			return p.Near - q.Near
		case p.Apart != q.Apart:
			return p.Apart - q.Apart
		case game.MoveLess(p.Move, q.Move):
			return -1
		case game.MoveLess(q.Move, p.Move):
			return 1
		}
		return 0
	})
	pass := game.NewMove(r.Sq(0, 0), r.Sq(r.M-1, r.N-1))
	size := 0
	passSeen := map[game.Move]bool{}
	for id := 0; id < r.SymmetryCount(); id++ {
		if im := r.TransformMove(id, pass); !passSeen[im] {
			passSeen[im] = true
			size++
		}
	}
	dc := dist(pass.At(0))
	return append(rows, AtlasRow{Move: pass, Pass: true, Near: dc, Far: dc, Apart: max(r.M, r.N) - 1, Size: size}), nil
}

// chebyshev is the Chebyshev distance between (x1, y1) and (x2, y2).
func chebyshev(x1, y1, x2, y2 int) int {
	return max(x1-x2, x2-x1, y1-y2, y2-y1)
}
