package verify

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
)

// SeminullItemFrom turns a refuted seminull stone whose full moves leave
// that many unsolved into an open item, and changes nothing else: on
// random small-board positions (fixed seeds), against the same verdict
// without it,
//   - the solver work is the same (the rule reads results, it solves
//     nothing);
//   - every new item was a refuted seminull stone with at least N
//     unsolved moves, its strategy is gone from SeminullZones, and no
//     move containing it is listed as unsolved or covered;
//   - at N = 1 no unsolved move is left that contains a refuted stone;
//   - every other defender move keeps its argument, and the verdict
//     passes the brute-force soundness check (checkVerdict);
//   - with N above every count the verdict is the same.
func TestVerifySeminullItemFrom(t *testing.T) {
	ctx := context.Background()
	vc := verifyCases[1] // p = 2: seminull moves exist
	r := vc.sc.Rules
	rng := rand.New(rand.NewPCG(3131, 5))
	stat := map[string]int{}
	n := 24
	if testing.Short() {
		n = 8
	}
	for i := 0; i < n; {
		b := verifyPosition(rng, vc.sc, 2)
		if b == nil {
			continue
		}
		i++
		base := VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: vc.maxNode / 8}, Workers: 2}
		want, err := Verify(ctx, b, base, nil)
		if err != nil {
			t.Fatal(err)
		}
		refuted := map[game.Square]bool{}
		for _, sz := range want.SeminullZones {
			refuted[sz.Stone] = true
		}
		unsolvedOf := map[game.Square]int{}
		for _, u := range want.Unsolved {
			for j := 0; j < u.Move.Len(); j++ {
				if refuted[u.Move.At(j)] {
					unsolvedOf[u.Move.At(j)]++
				}
			}
		}
		for _, from := range []int{1, 2, 1 << 20} {
			opts := base
			opts.SeminullItemFrom = from
			got, err := Verify(ctx, b, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Calls != want.Calls || got.Nodes != want.Nodes {
				t.Fatalf("N=%d: %d calls %d nodes, want %d, %d", from, got.Calls, got.Nodes, want.Calls, want.Nodes)
			}
			was := map[game.Square]bool{}
			for _, u := range want.OpenSeminull {
				was[u.Move.At(0)] = true
			}
			items := map[game.Square]bool{}
			for _, u := range got.OpenSeminull {
				s := u.Move.At(0)
				if was[s] {
					continue
				}
				items[s] = true
				if !refuted[s] || unsolvedOf[s] < from {
					t.Fatalf("N=%d: item %s was refuted %v with %d unsolved moves\n%s", from, game.SquareName(r, s), refuted[s], unsolvedOf[s], b.Diagram())
				}
				if slices.ContainsFunc(got.SeminullZones, func(sz SeminullZone) bool { return sz.Stone == s }) {
					t.Fatalf("N=%d: item %s keeps its seminull strategy", from, game.SquareName(r, s))
				}
			}
			if len(got.OpenSeminull) != len(want.OpenSeminull)+len(items) {
				t.Fatalf("N=%d: open items %v, want those of %v and new ones", from, got.OpenSeminull, want.OpenSeminull)
			}
			inItem := func(m game.Move) bool {
				for j := 0; j < m.Len(); j++ {
					if items[m.At(j)] {
						return true
					}
				}
				return false
			}
			for _, u := range got.Unsolved {
				if inItem(u.Move) {
					t.Fatalf("N=%d: unsolved %s contains an item's stone", from, game.MoveName(r, u.Move))
				}
				if from == 1 && (refuted[u.Move.At(0)] || refuted[u.Move.At(1)]) {
					t.Fatalf("N=1: unsolved %s contains a refuted stone that is not an item", game.MoveName(r, u.Move))
				}
			}
			for _, c := range got.Covered {
				if inItem(c.Move) {
					t.Fatalf("N=%d: covered %s contains an item's stone", from, game.MoveName(r, c.Move))
				}
			}
			if len(items) == 0 {
				w, g := want, got
				w.Elapsed, g.Elapsed = 0, 0
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("N=%d: no new item, but the verdict differs\n%s", from, b.Diagram())
				}
				continue
			}
			stat["items"] += len(items)
			if got.Status != StatusOpen || got.Order != 3 {
				t.Fatalf("N=%d: %s order %d with new items", from, got.Status, got.Order)
			}
			d := got.Attacker.Opp()
			for _, dm := range defenderMoves(b, d) {
				gk, _ := got.Argument(b, dm)
				wk, _ := want.Argument(b, dm)
				switch {
				case inItem(dm):
					if gk != ArgOpenSeminull {
						t.Fatalf("N=%d: move %s of an item: %s", from, game.MoveName(r, dm), gk)
					}
					stat["item-move-was-"+wk]++
				case gk != wk:
					t.Fatalf("N=%d: move %s: %s, want %s\n%s", from, game.MoveName(r, dm), gk, wk, b.Diagram())
				}
			}
			checkVerdict(t, ctx, b, got)
		}
	}
	t.Logf("%v", stat)
	if stat["items"] == 0 || stat["item-move-was-"+ArgUnsolved] == 0 {
		t.Errorf("the sample made no item out of a refuted stone with unsolved moves: %v", stat)
	}
}
