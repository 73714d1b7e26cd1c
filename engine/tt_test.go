package engine

import (
	"context"
	"testing"
)

// A transposition-table entry is used only by the position it was made
// for: an entry under the same Zobrist hash with another check hash (a
// 64-bit collision) neither proves nor disproves a node, and is replaced,
// not shared, when the colliding position stores its own result.
func TestTranspositionCollisionIgnored(t *testing.T) {
	b := mustReplay(t, "j10 j9l10 k11l9")
	s := newSearch(context.Background(), b, Params{Mode: VCDT})
	proven := &pnode{pn: 0, dn: pnInf}
	key, chk := s.b.hash, s.b.chk

	s.tt[key] = &ttEntry{check: chk ^ 1, node: proven, provTol: 2, disKnown: true, disTol: 0}
	n := &pnode{tol: 0}
	s.ttInit(n, key, chk)
	if n.pn != 1 || n.dn != 1 || n.alias != nil {
		t.Fatalf("a colliding entry was used: pn %d dn %d alias %v", n.pn, n.dn, n.alias != nil)
	}
	e := s.entry()
	if e.check != chk || e.node != nil || e.disKnown {
		t.Fatalf("entry() kept the colliding position's results: %+v", e)
	}

	// The position's own entry is used.
	e.node, e.provTol = proven, 2
	n = &pnode{tol: 1}
	s.ttInit(n, key, chk)
	if n.pn != 0 || n.alias != proven {
		t.Fatalf("the position's own proof was not used: pn %d", n.pn)
	}
}
