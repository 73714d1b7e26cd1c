// Package enginecert copies the prover's results into the checker's types:
// an engine strategy into a proofcheck.Tree and back, a verifier verdict
// into a certificate (proofcheck.Cert) and its items. It is the one place
// that knows both sides, so that proofcheck itself imports from the engine
// only the plain types of engine/game. Nothing the engine computed beyond
// the claimed moves and zones is trusted: proofcheck re-checks all of it.
package enginecert

import (
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

// FromStrategy copies an engine strategy (its moves, Six flags and replies;
// not its zones or threat counts) into a Tree. It returns nil for nil.
func FromStrategy(st *threat.Strategy) *proofcheck.Tree {
	if st == nil {
		return nil
	}
	t := &proofcheck.Tree{Move: st.Move, Six: st.Six}
	if len(st.Replies) > 0 {
		t.Replies = make([]proofcheck.Reply, len(st.Replies))
		for i, r := range st.Replies {
			t.Replies[i] = proofcheck.Reply{Move: r.Move, Seminull: r.Seminull, Then: FromStrategy(r.Then)}
		}
	}
	return t
}

// ToStrategy copies a proofcheck.Tree back into an engine strategy (moves, Six flags,
// replies only: no zones or threat counts). It returns nil for nil.
func ToStrategy(t *proofcheck.Tree) *threat.Strategy {
	if t == nil {
		return nil
	}
	st := &threat.Strategy{Move: t.Move, Six: t.Six}
	if len(t.Replies) > 0 {
		st.Replies = make([]threat.Reply, len(t.Replies))
		for i, r := range t.Replies {
			st.Replies[i] = threat.Reply{Move: r.Move, Seminull: r.Seminull, Then: ToStrategy(r.Then)}
		}
	}
	return st
}

// FromVerdict copies the argument of a verifier verdict into a certificate:
// the attacker, AllUnsolved, the null tree and zone, the seminull zones and
// trees, the covered moves and trees, the unsolved moves and the open
// seminull stones. It returns nil for nil.
func FromVerdict(v *verify.Verdict) *proofcheck.Cert {
	if v == nil {
		return nil
	}
	c := &proofcheck.Cert{
		Attacker:    v.Attacker,
		AllUnsolved: v.AllUnsolved,
		NullTree:    FromStrategy(v.NullTree),
		NullZone:    copySquares(v.NullZone),
	}
	if len(v.SeminullZones) > 0 {
		c.Seminull = make([]proofcheck.SeminullCert, len(v.SeminullZones))
		for i, z := range v.SeminullZones {
			c.Seminull[i] = proofcheck.SeminullCert{Stone: z.Stone, Zone: copySquares(z.Zone), Tree: FromStrategy(z.Tree)}
		}
	}
	if len(v.Covered) > 0 {
		c.Covered = make([]proofcheck.CoveredCert, len(v.Covered))
		for i, m := range v.Covered {
			c.Covered[i] = proofcheck.CoveredCert{Move: m.Move, Tree: FromStrategy(m.Tree)}
		}
	}
	if len(v.Unsolved) > 0 {
		c.Unsolved = make([]game.Move, len(v.Unsolved))
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
// VerdictResult.CheckItems. It returns the zero proofcheck.Items for nil.
func ItemsOf(v *verify.Verdict) proofcheck.Items {
	if v == nil {
		return proofcheck.Items{}
	}
	return proofcheck.ItemsFrom(v.AllUnsolved, v.Unsolved, v.OpenSeminull, func(u verify.UnsolvedMove) game.Move { return u.Move })
}

func copySquares(sq []game.Square) []game.Square {
	if len(sq) == 0 {
		return nil
	}
	return append([]game.Square(nil), sq...)
}
