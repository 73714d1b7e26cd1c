package proofcheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// bookBuilder adds proved positions to a world book.
type bookBuilder struct {
	r     game.Rules
	a     game.Color
	world map[int64]*wnode
	next  int64
	rng   *rand.Rand
}

func (bb *bookBuilder) add(w *wnode) int64 {
	bb.next++
	w.id = bb.next
	w.sym = bb.rng.IntN(bb.r.SymmetryCount())
	bb.world[w.id] = w
	return w.id
}

// prove solves the position (attacker to move, deficit tol) with the
// engine and stores it with its winning move as an edge to a position
// whose certificate holds the strategy's replies; it returns the position's
// id and claimed zone (world frame).
func (bb *bookBuilder) prove(black, white []game.Square, tol int) (int64, []game.Square, error) {
	ctx := context.Background()
	r, a := bb.r, bb.a
	b, err := boardpkg.SetUp(r, black, white, a)
	if err != nil {
		return 0, nil, err
	}
	sr, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCST, Tolerance: tol, Limits: threat.Limits{MaxNodes: 20000}})
	if err != nil {
		return 0, nil, err
	}
	if sr.Outcome != threat.Win {
		return 0, nil, fmt.Errorf("no win (%s)", sr.Reason)
	}
	tr := FromStrategy(sr.Tree)
	gb, gw := withStones(black, white, a, tr.Move.Squares()...)
	var gid int64
	var claim []game.Square
	if tr.Six {
		gid = bb.add(&wnode{black: gb, white: gw, toMove: a.Opp()})
		if claim, err = CheckTree(ctx, r, black, white, a, tol, tr); err != nil {
			return 0, nil, err
		}
	} else {
		gcert, err := certFromTreeTol(r, gb, gw, a, tol, tr)
		if err != nil {
			return 0, nil, err
		}
		gres, err := CheckVerdict(ctx, r, gb, gw, a.Opp(), tol, gcert)
		if err != nil {
			return 0, nil, err
		}
		gid = bb.add(&wnode{black: gb, white: gw, toMove: a.Opp(), cert: gcert, claim: gres.Zone})
		claim = worldZoneORTol(r, black, white, a, tol, tr.Move, gres.Zone)
	}
	cid := bb.add(&wnode{black: black, white: white, toMove: a, claim: claim, edges: []Edge{{Move: tr.Move, Child: gid}}})
	return cid, claim, nil
}

type seminullBook struct {
	bb       *bookBuilder
	root     int64
	open     game.Square
	semChild int64
	semZone  []game.Square
	inside   map[game.Move]int64 // (s, x) with x in the seminull child's zone -> its child
	desc     string
}

// buildSeminullBook looks for a λ3 verdict with an open seminull item and
// proves the book below it: the seminull child D+s at tolerance 1, every
// (s, x) with x in that child's zone on its own, and the unsolved moves.
func buildSeminullBook(t *testing.T) *seminullBook {
	ctx := context.Background()
	r := game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(77, 1))
	for try := 0; try < 300; try++ {
		a := game.Black
		d := a.Opp()
		// Black (attacker) 5 stones = 3 turns, White 4, White to move;
		// Black holds a threat window (3 of its stones).
		b, toMove := randomPosition(rng, r, 4, 5-(r.K-r.P), true)
		if toMove != d {
			continue
		}
		v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 40}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.AllUnsolved || len(v.OpenSeminull) != 1 || len(v.Unsolved) > 4 {
			continue
		}
		black, white := b.StoneList(game.Black), b.StoneList(game.White)
		cert := FromVerdict(&v)
		res, err := CheckVerdict(ctx, r, black, white, d, 0, cert)
		if err != nil {
			t.Fatalf("verdict rejected: %v", err)
		}
		bb := &bookBuilder{r: r, a: a, world: map[int64]*wnode{}, rng: rng}
		root := &wnode{black: black, white: white, toMove: d, cert: cert}
		rootID := bb.add(root)
		zone := zoneOf(r.Squares(), res.Zone)
		sb := &seminullBook{bb: bb, root: rootID, open: cert.OpenSeminull[0], inside: map[game.Move]int64{}}
		ok := true
		child := func(dm game.Move, tol int) (int64, []game.Square) {
			cb, cw := withStones(black, white, d, dm.Squares()...)
			id, z, err := bb.prove(cb, cw, tol)
			if err != nil {
				ok = false
				return 0, nil
			}
			root.edges = append(root.edges, Edge{Move: dm, Child: id})
			return id, z
		}
		s := sb.open
		sb.semChild, sb.semZone = child(game.NewMove(s), 1)
		if !ok {
			continue
		}
		zone.union(zoneOf(r.Squares(), sb.semZone))
		for _, x := range sb.semZone {
			dm := game.NewMove(s, x)
			if x == s || b.At(x) != game.Empty || res.Refutes(dm) || slices.Contains(cert.Unsolved, dm) {
				continue
			}
			id, z := child(dm, 0)
			if !ok {
				break
			}
			sb.inside[dm] = id
			zone.union(zoneOf(r.Squares(), z))
		}
		for _, u := range cert.Unsolved {
			if !ok {
				break
			}
			_, z := child(u, 0)
			zone.union(zoneOf(r.Squares(), z))
		}
		if !ok || len(sb.inside) == 0 {
			continue
		}
		root.claim = zone.squares()
		sb.desc = fmt.Sprintf("%v black=%s white=%s open %s, %d moves inside its zone, %d unsolved",
			r, squaresName(r, black), squaresName(r, white), game.SquareName(r, s), len(sb.inside), len(cert.Unsolved))
		return sb
	}
	t.Fatal("no λ3 verdict with an open seminull item whose book could be proved")
	return nil
}

// An open seminull item: its child (one defender stone, tolerance 1 by the
// deficit) proves every move (s, x) with x outside its zone; the moves
// with x inside need children of their own.
func TestCheckBookOpenSeminull(t *testing.T) {
	sb := buildSeminullBook(t)
	t.Log(sb.desc)
	bb := sb.bb
	ctx := context.Background()
	roots := []Root{{ID: sb.root, Attacker: bb.a}}
	run := func(mutate func(src *fakeSource)) error {
		src := store(bb.r, bb.world, bb.a)
		if mutate != nil {
			mutate(src)
		}
		_, err := CheckBook(ctx, src, roots, nil)
		return err
	}
	if err := run(nil); err != nil {
		t.Fatalf("the book does not check: %v", err)
	}
	rootSym := bb.world[sb.root].sym
	// Dropping a move inside the seminull zone breaks it: the seminull
	// child does not cover (s, x) with x in its zone.
	var dm game.Move
	for m := range sb.inside {
		if dm.Len() == 0 || moveCmp(m, dm) < 0 {
			dm = m
		}
	}
	id := sb.inside[dm]
	err := run(func(src *fakeSource) {
		root := src.nodes[sb.root]
		root.Edges = slices.DeleteFunc(slices.Clone(root.Edges), func(e Edge) bool { return e.Child == id })
	})
	var f *Failure
	want := "defender move " + game.MoveName(bb.r, bb.r.TransformMove(rootSym, dm))
	if !errors.As(err, &f) || f.ID != sb.root || !strings.Contains(f.Reason, want) {
		t.Fatalf("dropped (s, x) child: got %v, want a failure at the root naming %q", err, want)
	}
	// The seminull child's claim shrunk so that it no longer holds: it
	// breaks itself, on the line s.
	err = run(func(src *fakeSource) {
		c := &src.nodes[sb.semChild].Claims[bb.a-1]
		c.Zone = c.Zone[1:]
	})
	wantLine := []game.Move{bb.r.TransformMove(rootSym, game.NewMove(sb.open))}
	if !errors.As(err, &f) || f.ID != sb.semChild || !slices.Equal(f.Line, wantLine) {
		t.Fatalf("shrunk seminull child claim: got %v", err)
	}
	// Without the seminull child every (s, x) outside its zone is open.
	err = run(func(src *fakeSource) {
		root := src.nodes[sb.root]
		root.Edges = slices.DeleteFunc(slices.Clone(root.Edges), func(e Edge) bool { return e.Child == sb.semChild })
	})
	if !errors.As(err, &f) || f.ID != sb.root || !strings.Contains(f.Reason, "neither refuted") {
		t.Fatalf("without the seminull child: %v", err)
	}
	// A root claim without the seminull child's zone breaks at the root.
	err = run(func(src *fakeSource) {
		c := &src.nodes[sb.root].Claims[bb.a-1]
		semZone := zoneOf(bb.r.Squares(), transformSquares(bb.r, rootSym, sb.semZone))
		c.Zone = slices.DeleteFunc(slices.Clone(c.Zone), func(s game.Square) bool { return semZone.has(s) })
	})
	if !errors.As(err, &f) || f.ID != sb.root || !strings.Contains(f.Reason, "misses square") {
		t.Fatalf("root claim without the seminull zone: %v", err)
	}
}
