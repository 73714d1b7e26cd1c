package proofcheck

import "c6book/engine"

// The conversions below only copy data out of the engine's types: nothing
// the engine computed (zones aside from the claimed ones, threats, modes) is
// trusted by the checker.

// FromStrategy copies an engine strategy (its moves, Six flags and replies;
// not its zones or threat counts) into a Tree. It returns nil for nil.
func FromStrategy(st *engine.Strategy) *Tree {
	if st == nil {
		return nil
	}
	t := &Tree{Move: st.Move, Six: st.Six}
	if len(st.Replies) > 0 {
		t.Replies = make([]Reply, len(st.Replies))
		for i, r := range st.Replies {
			t.Replies[i] = Reply{Move: r.Move, Seminull: r.Seminull, Then: FromStrategy(r.Then)}
		}
	}
	return t
}

// ToStrategy copies a Tree back into an engine strategy (moves, Six flags,
// replies only: no zones or threat counts). It returns nil for nil.
func ToStrategy(t *Tree) *engine.Strategy {
	if t == nil {
		return nil
	}
	st := &engine.Strategy{Move: t.Move, Six: t.Six}
	if len(t.Replies) > 0 {
		st.Replies = make([]engine.Reply, len(t.Replies))
		for i, r := range t.Replies {
			st.Replies[i] = engine.Reply{Move: r.Move, Seminull: r.Seminull, Then: ToStrategy(r.Then)}
		}
	}
	return st
}

// FromVerdict copies the argument of a verifier verdict into a certificate:
// the attacker, AllUnsolved, the null tree and zone, the seminull zones and
// trees, the covered moves and trees, the unsolved moves and the open
// seminull stones. It returns nil for nil.
func FromVerdict(v *engine.Verdict) *Cert {
	if v == nil {
		return nil
	}
	c := &Cert{
		Attacker:    v.Attacker,
		AllUnsolved: v.AllUnsolved,
		NullTree:    FromStrategy(v.NullTree),
		NullZone:    copySquares(v.NullZone),
	}
	if len(v.SeminullZones) > 0 {
		c.Seminull = make([]SeminullCert, len(v.SeminullZones))
		for i, z := range v.SeminullZones {
			c.Seminull[i] = SeminullCert{Stone: z.Stone, Zone: copySquares(z.Zone), Tree: FromStrategy(z.Tree)}
		}
	}
	if len(v.Covered) > 0 {
		c.Covered = make([]CoveredCert, len(v.Covered))
		for i, m := range v.Covered {
			c.Covered[i] = CoveredCert{Move: m.Move, Tree: FromStrategy(m.Tree)}
		}
	}
	if len(v.Unsolved) > 0 {
		c.Unsolved = make([]engine.Move, len(v.Unsolved))
		for i, u := range v.Unsolved {
			c.Unsolved[i] = u.Move
		}
	}
	for _, u := range v.OpenSeminull {
		if u.Move.Len() > 0 {
			c.OpenSeminull = append(c.OpenSeminull, u.Move.At(0))
		}
	}
	return c
}

// ItemsOf is what verifier verdict v leaves to the book, for
// VerdictResult.CheckItems. It returns the zero Items for nil.
func ItemsOf(v *engine.Verdict) Items {
	if v == nil {
		return Items{}
	}
	it := Items{All: v.AllUnsolved}
	for _, u := range v.Unsolved {
		it.Unsolved = append(it.Unsolved, u.Move)
	}
	for _, u := range v.OpenSeminull {
		it.OpenSeminull = append(it.OpenSeminull, u.Move)
	}
	return it
}

func copySquares(sq []engine.Square) []engine.Square {
	if len(sq) == 0 {
		return nil
	}
	return append([]engine.Square(nil), sq...)
}

func transformSquares(r engine.Rules, sym int, sq []engine.Square) []engine.Square {
	if len(sq) == 0 {
		return nil
	}
	out := make([]engine.Square, len(sq))
	for i, s := range sq {
		out[i] = r.Transform(sym, s)
	}
	sortSquares(out)
	return out
}

// Transform returns a deep copy of the tree with every move mapped by
// symmetry sym of r. It returns nil for nil.
func (t *Tree) Transform(r engine.Rules, sym int) *Tree {
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
func (c *Cert) Transform(r engine.Rules, sym int) *Cert {
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
		out.Unsolved = make([]engine.Move, len(c.Unsolved))
		for i, m := range c.Unsolved {
			out.Unsolved[i] = r.TransformMove(sym, m)
		}
	}
	return out
}
