package proofcheck

import (
	"c6book/engine/game"
)

// The conversions below only copy data out of the engine's types: nothing
// the engine computed (zones aside from the claimed ones, threats, modes) is
// trusted by the checker.

func transformSquares(r game.Rules, sym int, sq []game.Square) []game.Square {
	if len(sq) == 0 {
		return nil
	}
	out := make([]game.Square, len(sq))
	for i, s := range sq {
		out[i] = r.Transform(sym, s)
	}
	sortSquares(out)
	return out
}

// Transform returns a deep copy of the tree with every move mapped by
// symmetry sym of r. It returns nil for nil.
func (t *Tree) Transform(r game.Rules, sym int) *Tree {
	if t == nil {
		return nil
	}
	out := &Tree{Move: r.TransformMove(sym, t.Move), Six: t.Six}
	if len(t.Replies) > 0 {
		out.Replies = make([]Reply, len(t.Replies))
		for i, rp := range t.Replies {
			out.Replies[i] = Reply{Move: r.TransformMove(sym, rp.Move), Seminull: rp.Seminull, Then: rp.Then.Transform(r, sym)}
		}
	}
	return out
}

// Transform returns a deep copy of the certificate with every square, move,
// zone and tree mapped by symmetry sym of r (zones come out sorted; list
// order is kept). It returns nil for nil.
func (c *Cert) Transform(r game.Rules, sym int) *Cert {
	if c == nil {
		return nil
	}
	out := &Cert{
		Attacker:     c.Attacker,
		AllUnsolved:  c.AllUnsolved,
		NullTree:     c.NullTree.Transform(r, sym),
		NullZone:     transformSquares(r, sym, c.NullZone),
		OpenSeminull: transformSquares(r, sym, c.OpenSeminull),
	}
	if len(c.Seminull) > 0 {
		out.Seminull = make([]SeminullCert, len(c.Seminull))
		for i, z := range c.Seminull {
			out.Seminull[i] = SeminullCert{Stone: r.Transform(sym, z.Stone), Zone: transformSquares(r, sym, z.Zone), Tree: z.Tree.Transform(r, sym)}
		}
	}
	if len(c.Covered) > 0 {
		out.Covered = make([]CoveredCert, len(c.Covered))
		for i, m := range c.Covered {
			out.Covered[i] = CoveredCert{Move: r.TransformMove(sym, m.Move), Tree: m.Tree.Transform(r, sym)}
		}
	}
	if len(c.Unsolved) > 0 {
		out.Unsolved = make([]game.Move, len(c.Unsolved))
		for i, m := range c.Unsolved {
			out.Unsolved[i] = r.TransformMove(sym, m)
		}
	}
	return out
}

func copySquares(sq []game.Square) []game.Square {
	if len(sq) == 0 {
		return nil
	}
	return append([]game.Square(nil), sq...)
}
