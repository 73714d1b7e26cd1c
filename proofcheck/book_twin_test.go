package proofcheck

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"c6book/engine/game"
)

// The twin rule (checkTwin): a full attacker-to-move position whose twin —
// the position less one defender stone x — is proved (at tolerance 1, the
// twin's deficit) with a zone that misses x. Built on the seminull book's
// seminull child D+s as the twin: D+s plus a White stone x outside its
// zone checks; x inside the zone, a stone that is not the defender's, a
// twin that is another position, a position that is itself short of a
// stone, and a claimed zone without x each break it.
func TestCheckBookTwin(t *testing.T) {
	sb := buildSeminullBook(t)
	bb := sb.bb
	r, a := bb.r, bb.a
	d := a.Opp()
	ctx := context.Background()
	tw := bb.world[sb.semChild]
	semZone := zoneOf(r.Squares(), sb.semZone)
	occupied := map[game.Square]bool{}
	for _, s := range append(slices.Clone(tw.black), tw.white...) {
		occupied[s] = true
	}
	var out, in game.Square = -1, -1
	for s := game.Square(0); int(s) < r.Squares(); s++ {
		switch {
		case occupied[s]:
		case !semZone.has(s) && out < 0:
			out = s
		case semZone.has(s) && in < 0:
			in = s
		}
	}
	if out < 0 || in < 0 {
		t.Fatalf("D+s's zone (%d squares) leaves no empty square outside or none inside", len(sb.semZone))
	}
	// twinOf adds D+s plus White's x, its twin D+s by x.
	twinOf := func(x game.Square) int64 {
		black, white := withStones(tw.black, tw.white, d, x)
		claim := append(slices.Clone(sb.semZone), x)
		return bb.add(&wnode{black: black, white: white, toMove: a, claim: claim, twins: []Twin{{Stone: x, ID: sb.semChild}}})
	}
	good, bad := twinOf(out), twinOf(in)
	run := func(root int64, mutate func(src *fakeSource)) error {
		src := store(r, bb.world, a)
		if mutate != nil {
			mutate(src)
		}
		_, err := CheckBook(ctx, src, []Root{{ID: root, Attacker: a}}, nil)
		return err
	}
	if err := run(good, nil); err != nil {
		t.Fatalf("D+s plus %s (outside its zone): %v", game.SquareName(r, out), err)
	}
	var f *Failure
	want := func(what string, err error, reason string) {
		t.Helper()
		if !errors.As(err, &f) || !strings.Contains(f.Reason, reason) {
			t.Errorf("%s: got %v, want a failure saying %q", what, err, reason)
		}
	}
	want("stone inside the twin's zone", run(bad, nil), "its zone holds that square")
	want("an attacker's stone", run(good, func(src *fakeSource) {
		n := src.nodes[good]
		n.Twins = []Twin{{Stone: n.Black[0], ID: sb.semChild}}
	}), "not a defender stone")
	want("another position", run(good, func(src *fakeSource) {
		n := src.nodes[good]
		n.Twins = []Twin{{Stone: n.Twins[0].Stone, ID: sb.root}}
	}), "is not this position less that stone")
	want("a position short of a stone", run(sb.semChild, func(src *fakeSource) {
		n := src.nodes[sb.semChild]
		n.Edges = nil
		n.Twins = []Twin{{Stone: n.White[0], ID: good}}
	}), "not a full position")
	want("a claim without x", run(good, func(src *fakeSource) {
		c := &src.nodes[good].Claims[a-1]
		x := r.Transform(bb.world[good].sym, out)
		c.Zone = slices.DeleteFunc(slices.Clone(c.Zone), func(s game.Square) bool { return s == x })
	}), "misses square")
	want("an unproved twin", run(good, func(src *fakeSource) {
		src.nodes[sb.semChild].Claims[a-1] = Claim{}
	}), "not proved")
}
