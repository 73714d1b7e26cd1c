package proofcheck

import (
	"context"
	"fmt"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
)

// The order a certificate supports (VerifyResult.Order): every verdict of
// the engine claims at least it and CheckOrder accepts the claim; a claim
// one lower is refused. Orders known by construction: more than p threats
// is order 1; fewer than p (and not none) is order 2; a null strategy that
// is a VCDT (every attacker move leaves at least p threats) makes 2, one
// that is not makes 3; an open seminull item makes 3.
func TestCertificateOrder(t *testing.T) {
	ctx := context.Background()
	kinds := map[string]int{}
	for _, vc := range verdictCases(t) {
		c := FromVerdict(&vc.v)
		res, err := CheckVerdict(ctx, vc.r, vc.black, vc.white, vc.b.ToMove(), 0, c)
		if err != nil {
			t.Fatalf("%v: %v", vc, err)
		}
		if err := res.CheckOrder(vc.v.Order); err != nil {
			t.Fatalf("%v: the engine's order is refused: %v", vc, err)
		}
		if res.Order > 0 {
			if err := res.CheckOrder(res.Order - 1); err == nil {
				t.Fatalf("%v: a claim of order %d accepted, the certificate supports %d", vc, res.Order-1, res.Order)
			}
		}
		th := vc.b.Threats(vc.v.Attacker)
		want := -1
		switch {
		case vc.v.AllUnsolved:
			want = 0
		case th > vc.r.P:
			want = 1
		case len(c.OpenSeminull) > 0:
			want = 3
		case th >= 1 && th < vc.r.P:
			want = 2
		case c.NullTree != nil:
			want = 2
			if !vcdtTree(vc.b, vc.v.Attacker, nil, c.NullTree) {
				want = 3
			}
		}
		if want >= 0 && res.Order != want {
			t.Fatalf("%v: certificate order %d, want %d (threats %d)", vc, res.Order, want, th)
		}
		kinds[fmt.Sprintf("order%d", res.Order)]++
		if vc.v.Order != res.Order {
			kinds["engine-claims-higher"]++
		}
	}
	t.Logf("%v", kinds)
	if kinds["order1"] == 0 || kinds["order2"] == 0 {
		t.Errorf("the sample does not exercise orders 1 and 2: %v", kinds)
	}
}

// vcdtTree reports, with the engine's threat count (not the checker's),
// whether every attacker move of strategy tr from b plus the defender
// stones def leaves at least p threats or makes k in a row.
func vcdtTree(b *boardpkg.Board, a game.Color, def []game.Square, tr *Tree) bool {
	nb := b.Clone()
	for _, s := range def {
		nb.Place(s, a.Opp())
	}
	var rec func(t *Tree) bool
	rec = func(t *Tree) bool {
		if t == nil {
			return true
		}
		for i := 0; i < t.Move.Len(); i++ {
			nb.Place(t.Move.At(i), a)
		}
		defer func() {
			for i := t.Move.Len() - 1; i >= 0; i-- {
				nb.Remove(t.Move.At(i))
			}
		}()
		if t.Six || nb.Winner() == a {
			return true
		}
		if nb.Threats(a) < nb.Rules().P {
			return false
		}
		for _, rp := range t.Replies {
			if rp.Seminull {
				return false
			}
			for i := 0; i < rp.Move.Len(); i++ {
				nb.Place(rp.Move.At(i), a.Opp())
			}
			ok := rec(rp.Then)
			for i := rp.Move.Len() - 1; i >= 0; i-- {
				nb.Remove(rp.Move.At(i))
			}
			if !ok {
				return false
			}
		}
		return true
	}
	return rec(tr)
}
