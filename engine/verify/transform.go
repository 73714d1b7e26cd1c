package verify

import (
	"sort"

	"c6book/engine/game"
)

// Frames. The prover runs in one frame everywhere: Verify maps the position
// onto its canonical image (CanonicalKey's symmetry), verifies it there and
// maps the verdict back, so a position entered in any of its orientations
// gets the same verdict up to symmetry.

// Transform returns a copy of the verdict with every move, zone and
// strategy mapped by symmetry sym, its lists in the canonical order.
func (vd Verdict) Transform(r game.Rules, sym int) Verdict {
	out := vd
	tm := func(list []UnsolvedMove) []UnsolvedMove {
		if list == nil {
			return nil
		}
		o := make([]UnsolvedMove, len(list))
		for i, u := range list {
			o[i] = UnsolvedMove{Move: r.TransformMove(sym, u.Move), Reason: u.Reason}
		}
		sort.Slice(o, func(i, j int) bool { return game.MoveLess(o[i].Move, o[j].Move) })
		return o
	}
	out.Unsolved = tm(vd.Unsolved)
	out.OpenSeminull = tm(vd.OpenSeminull)
	out.Zone = game.TransformSquares(r, sym, vd.Zone)
	out.NullZone = game.TransformSquares(r, sym, vd.NullZone)
	out.NullLine = game.TransformLine(r, sym, vd.NullLine)
	out.NullTree = vd.NullTree.Transform(r, sym)
	if vd.SeminullZones != nil {
		out.SeminullZones = make([]SeminullZone, len(vd.SeminullZones))
		for i, z := range vd.SeminullZones {
			out.SeminullZones[i] = SeminullZone{Stone: r.Transform(sym, z.Stone), Zone: game.TransformSquares(r, sym, z.Zone),
				Mode: z.Mode, Line: game.TransformLine(r, sym, z.Line), Tree: z.Tree.Transform(r, sym)}
		}
		sort.Slice(out.SeminullZones, func(i, j int) bool { return out.SeminullZones[i].Stone < out.SeminullZones[j].Stone })
	}
	if vd.Covered != nil {
		out.Covered = make([]CoveredMove, len(vd.Covered))
		for i, c := range vd.Covered {
			out.Covered[i] = CoveredMove{Move: r.TransformMove(sym, c.Move), Mode: c.Mode, Line: game.TransformLine(r, sym, c.Line),
				Tree: c.Tree.Transform(r, sym)}
		}
		sort.Slice(out.Covered, func(i, j int) bool { return game.MoveLess(out.Covered[i].Move, out.Covered[j].Move) })
	}
	return out
}
