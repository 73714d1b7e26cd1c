package threat

import (
	"context"
	"testing"

	"c6book/engine/internal/enginetest"
)

// A transposition-table entry is used only by the position it was made
// for: an entry under the same Zobrist hash with another check hash (a
// 64-bit collision) neither proves nor disproves a node, and is replaced,
// not shared, when the colliding position stores its own result.
func TestTranspositionCollisionIgnored(t *testing.T) {
	b := enginetest.MustReplay(t, "j10 j9l10 k11l9")
	s := newSearch(context.Background(), b, Params{Mode: VCDT})
	proven := &pnode{pn: 0, dn: pnInf}
	key, chk := s.b.Hashes()

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

// In a VCST search that caps the single threats of a line, a disproof
// holds only for lines with at most as many single threats left: a
// position disproven with none left (double threats only) is searched
// again where a single threat is still allowed, and a disproof with one
// left stands for none left. A proof of an earlier stage (a seed) is used.
func TestTranspositionSingleCap(t *testing.T) {
	b := enginetest.MustReplay(t, "j10 j9l10 k11l9")
	s := newSearch(context.Background(), b, Params{Mode: VCST})
	s.singleCap = 1
	key, chk := s.b.Hashes()
	e := s.entry()
	e.disKnown, e.disTol, e.disRem = true, 0, 0

	fresh := &pnode{tol: 0, singles: 0} // one single threat left
	s.ttInit(fresh, key, chk)
	if fresh.pn != 1 || fresh.dn != 1 {
		t.Fatalf("a disproof with no single threat left was used with one left: pn %d dn %d", fresh.pn, fresh.dn)
	}
	used := &pnode{tol: 0, singles: 1} // none left
	s.ttInit(used, key, chk)
	if used.dn != 0 {
		t.Fatalf("a disproof with no single threat left was not used with none left: pn %d dn %d", used.pn, used.dn)
	}

	// A disproof with one single threat left holds with one left.
	e.disRem = 1
	s.ttInit(fresh, key, chk)
	if fresh.dn != 0 {
		t.Fatalf("a disproof with one single threat left was not used with one left: pn %d dn %d", fresh.pn, fresh.dn)
	}
	unc := newSearch(context.Background(), b, Params{Mode: VCST}) // no cap
	unc.tt[key] = &ttEntry{check: chk, disKnown: true, disTol: 0, disRem: 1}
	n := &pnode{}
	unc.ttInit(n, key, chk)
	if n.pn != 1 || n.dn != 1 {
		t.Fatalf("a capped search's disproof was used by an uncapped search: pn %d dn %d", n.pn, n.dn)
	}

	// A later stage uses the earlier stage's proofs, at a tolerance at
	// least the node's.
	proven := &pnode{pn: 0, dn: pnInf}
	e.node, e.provTol = proven, 1
	next := newSearch(context.Background(), b, Params{Mode: VCST})
	next.seedProofs(s)
	for tol, want := range []bool{true, true, false} {
		n := &pnode{tol: int8(tol)}
		next.ttInit(n, key, chk)
		if got := n.pn == 0 && n.alias == proven; got != want {
			t.Errorf("seeded proof at tolerance 1 used at tolerance %d: %v, want %v", tol, got, want)
		}
	}
}
