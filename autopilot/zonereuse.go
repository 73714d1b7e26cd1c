package autopilot

import (
	"context"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Zone reuse (ALGORITHMS.md, "Zone reuse"): a proved attacker-to-move
// position P, its proving move m and its relevance zone Z say that the
// defender's moves outside Z do not refute m. A position P' that holds the
// same stones and empty squares on Z (after a symmetry and a translation
// that keep Z and m on the board) and whose defender stones outside Z are
// no stronger is usually won by the same move. Usually, not always (a
// stone already on the board is not a move), so a reuse is only a
// proposal: reuseOffer says where m lands in P', and the auto-pilot tries
// that move first (zoneReuseMoves); it counts only when the verifier
// proves it in P' and proofcheck re-checks the certificate, like every
// move.

// reuseOffer returns the image in nb of move m that proved pb (both
// attacker-to-move boards of attacker a, the same defender deficit) with
// zone z (pb's frame), under the first placement (one of the board's
// symmetries, then a translation; the identity first) at which:
//   - every square of z and of m lands on the board and holds in nb what it
//     holds in pb;
//   - every attacker stone of pb on a window (k squares in a line) that
//     meets z lands on an attacker stone of nb (extra attacker stones never
//     hurt, missing ones may);
//   - every defender stone of nb on a window without attacker stones that
//     meets z's image, or that holds k−p or more defender stones (a
//     defender threat), is the image of a defender stone of pb: no defender
//     window into the fight, and no defender threat, that pb lacked.
//
// ok is false when no placement passes.
func reuseOffer(pb *board.Board, z []game.Square, m game.Move, nb *board.Board, a game.Color) (game.Move, bool) {
	r := pb.Rules()
	if nb.Rules() != r || m.Len() == 0 || pb.ToMove() != a || nb.ToMove() != a {
		return game.Move{}, false
	}
	if dp, ok := pb.DefenderDeficit(a); !ok {
		return game.Move{}, false
	} else if dn, ok := nb.DefenderDeficit(a); !ok || dn != dp {
		return game.Move{}, false
	}
	d := a.Opp()
	inZ := make([]bool, r.Squares())
	for _, s := range z {
		inZ[s] = true
	}
	// The attacker stones of pb that must stay: those on a window meeting z.
	var keep []game.Square
	for _, s := range pb.StoneList(a) {
		if onWindowMeeting(r, s, inZ) {
			keep = append(keep, s)
		}
	}
	// The squares whose content must agree: z and m.
	agree := append(append([]game.Square(nil), z...), m.Squares()...)
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		// Bounds of the transformed squares, to range the translations.
		minX, minY, maxX, maxY := r.M, r.N, -1, -1
		for _, s := range append(agree, keep...) {
			x, y := r.XY(r.Transform(sym, s))
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		if maxX < 0 {
			continue
		}
		// Identity translation first.
		dxs := translations(-minX, r.M-1-maxX)
		dys := translations(-minY, r.N-1-maxY)
		for _, dy := range dys {
			for _, dx := range dxs {
				// place maps a square of pb's frame into nb's (NoSquare: off
				// the board).
				place := func(s game.Square) game.Square {
					x, y := r.XY(r.Transform(sym, s))
					if !r.OnBoard(x+dx, y+dy) {
						return game.NoSquare
					}
					return r.Sq(x+dx, y+dy)
				}
				if placementAgrees(r, pb, nb, a, d, z, inZ, agree, keep, place) {
					out := make([]game.Square, m.Len())
					for i := range out {
						out[i] = place(m.At(i))
					}
					return game.NewMove(out...), true
				}
			}
		}
	}
	return game.Move{}, false
}

// translations lists lo..hi with 0 first when it is among them.
func translations(lo, hi int) []int {
	if lo > hi {
		return nil
	}
	out := make([]int, 0, hi-lo+1)
	if lo <= 0 && 0 <= hi {
		out = append(out, 0)
	}
	for v := lo; v <= hi; v++ {
		if v != 0 {
			out = append(out, v)
		}
	}
	return out
}

// placementAgrees checks reuseOffer's conditions for one placement.
func placementAgrees(r game.Rules, pb, nb *board.Board, a, d game.Color, z []game.Square, inZ []bool, agree, keep []game.Square, place func(game.Square) game.Square) bool {
	for _, s := range agree {
		if nb.At(place(s)) != pb.At(s) {
			return false
		}
	}
	for _, s := range keep {
		if nb.At(place(s)) != a {
			return false
		}
	}
	// The inverse of the placement on nb's squares (-1: no preimage).
	pre := make([]game.Square, r.Squares())
	for i := range pre {
		pre[i] = game.NoSquare
	}
	for s := game.Square(0); int(s) < r.Squares(); s++ {
		if t := place(s); t != game.NoSquare {
			pre[t] = s
		}
	}
	inZimg := make([]bool, r.Squares())
	for _, s := range z {
		inZimg[place(s)] = true
	}
	ok := true
	forWindows(r, func(w []game.Square) bool {
		meets, atk, def := false, false, 0
		for _, s := range w {
			meets = meets || inZimg[s]
			switch nb.At(s) {
			case a:
				atk = true
			case d:
				def++
			}
		}
		if atk || def == 0 || !meets && def < r.K-r.P {
			return true
		}
		for _, s := range w {
			if nb.At(s) == d && (pre[s] == game.NoSquare || pb.At(pre[s]) != d) {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}

// onWindowMeeting reports whether square s lies on a window (k squares
// in a line on the board) holding a square of inZ.
func onWindowMeeting(r game.Rules, s game.Square, inZ []bool) bool {
	x0, y0 := r.XY(s)
	for _, dir := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for off := 0; off < r.K; off++ {
			sx, sy := x0-off*dir[0], y0-off*dir[1]
			ex, ey := sx+(r.K-1)*dir[0], sy+(r.K-1)*dir[1]
			if !r.OnBoard(sx, sy) || !r.OnBoard(ex, ey) {
				continue
			}
			for i := 0; i < r.K; i++ {
				if inZ[r.Sq(sx+i*dir[0], sy+i*dir[1])] {
					return true
				}
			}
		}
	}
	return false
}

// forWindows calls f with every window of the board (k squares in a line)
// until f returns false.
func forWindows(r game.Rules, f func([]game.Square) bool) {
	w := make([]game.Square, r.K)
	for _, dir := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				ex, ey := x+(r.K-1)*dir[0], y+(r.K-1)*dir[1]
				if !r.OnBoard(ex, ey) {
					continue
				}
				for i := range w {
					w[i] = r.Sq(x+i*dir[0], y+i*dir[1])
				}
				if !f(w) {
					return
				}
			}
		}
	}
}

// maxReuseSources bounds the proved positions zoneReuseMoves looks at.
const maxReuseSources = 64

// zoneReuseMoves returns the zone-reuse proposals for the attacker-to-move
// position id (board b, canonical frame): for the proved siblings of id
// (the other defender replies of id's parents, at most maxReuseSources),
// the move that proved each (bestAnswer) placed into b by reuseOffer, when
// a placement passes. They are candidates only, verified like any move.
func zoneReuseMoves(ctx context.Context, bk Store, id PosID, b *board.Board, a game.Color) ([]game.Move, error) {
	ups, err := bk.AutoParents(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []game.Move
	seen := map[game.Move]bool{}
	done := map[PosID]bool{}
	looked := 0
	for _, u := range ups[:min(len(ups), maxSiblingParents)] {
		if u.ParentToMove != a.Opp() || done[u.Parent] {
			continue
		}
		done[u.Parent] = true
		sibs, err := bk.AutoMoves(ctx, u.Parent, a)
		if err != nil {
			return nil, err
		}
		for _, sib := range sibs {
			if looked == maxReuseSources {
				return out, nil
			}
			if sib.Child == id || sib.Proof.Status != c6book.StatusProved || sib.Proof.How != c6book.HowMove {
				continue
			}
			looked++
			n, err := bk.AutoNode(ctx, sib.Child, a) // the zone
			if err != nil {
				return nil, err
			}
			if n.Proof.Zone == nil {
				continue
			}
			m, ok, err := bestAnswer(ctx, bk, sib.Child, a)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			sb, err := bk.Board(ctx, sib.Child)
			if err != nil {
				return nil, err
			}
			if mm, ok := reuseOffer(sb, n.Proof.Zone, m, b, a); ok && !seen[mm] {
				seen[mm] = true
				out = append(out, mm)
			}
		}
	}
	return out, nil
}
