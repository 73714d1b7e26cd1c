package proofcheck

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

func TestDeficit(t *testing.T) {
	c6 := game.Connect6()
	r1 := game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}
	r3 := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 3} // Black's first turn places 3
	B, W := game.Black, game.White
	for _, tc := range []struct {
		r                game.Rules
		black, white     int
		toMove, attacker game.Color
		want             int
		wantErr          bool
	}{
		{c6, 0, 0, B, B, 0, false},
		{c6, 0, 0, B, W, 0, false},
		{c6, 0, 0, W, B, 0, true}, // White to move before Black's first turn
		{c6, 1, 0, W, B, 0, false},
		{c6, 1, 0, W, W, 0, false},
		{c6, 0, 0, W, W, 1, false}, // Black's first stone missing (a null first turn)
		{c6, 1, 2, B, B, 0, false},
		{c6, 1, 1, B, B, 1, false}, // seminull by White
		{c6, 1, 0, B, B, 2, false}, // null by White
		{c6, 3, 1, W, B, 1, false},
		{c6, 3, 2, W, B, 0, false},
		{c6, 3, 0, W, B, 2, false},
		{c6, 3, 3, W, B, 0, true}, // the defender has more than its turns
		{c6, 2, 2, W, B, 0, true}, // Black's count is not full turns
		{c6, 1, 2, B, W, 0, false},
		{c6, 2, 4, B, W, 1, false}, // Black (defender) played a seminull
		{c6, 1, 4, B, W, 2, false}, // Black's last turn null
		{c6, 5, 4, W, W, 0, false},
		{c6, 3, 4, W, W, 2, false},
		{c6, 4, 4, W, W, 1, false},
		{c6, 3, 3, W, W, 0, true}, // White's count is not full turns
		{c6, 5, 4, B, W, 0, true}, // Black has more than its turns
		{r1, 3, 2, W, B, 0, false},
		{r1, 3, 1, W, B, 1, false},
		{r1, 3, 3, B, B, 0, false},
		{r1, 3, 2, B, B, 1, false},
		{r1, 2, 2, W, W, 1, false},
		{r1, 3, 3, W, W, 1, false},
		{r3, 3, 0, W, B, 0, false},
		{r3, 5, 2, W, B, 0, false},
		{r3, 4, 2, W, B, 0, true},
		{r3, 5, 2, B, W, 0, true},
		{r3, 3, 2, B, W, 0, false},
		{r3, 1, 2, B, W, 2, false}, // Black's first turn short by 2
		{r3, 3, 2, W, W, 2, false},
		{c6, 1, 0, game.Empty, B, 0, true},
		{c6, 1, 0, W, game.Empty, 0, true},
	} {
		got, err := Deficit(tc.r, tc.black, tc.white, tc.toMove, tc.attacker)
		if (err != nil) != tc.wantErr || (err == nil && got != tc.want) {
			t.Errorf("Deficit(%v, B%d W%d, %v to move, attacker %v) = %d, %v; want %d, error %v",
				tc.r, tc.black, tc.white, tc.toMove, tc.attacker, got, err, tc.want, tc.wantErr)
		}
	}
}

// A book in a "world" frame; each node is stored under a symmetry of its
// own.
type wnode struct {
	id           int64
	black, white []game.Square
	toMove       game.Color
	edges        []Edge // world frame
	cert         *Cert  // world frame
	claim        []game.Square
	sym          int
	twins        []Twin // world frame
}

type fakeSource struct {
	r     game.Rules
	nodes map[int64]*Node
	calls int
}

func (f *fakeSource) Rules() game.Rules { return f.r }

func (f *fakeSource) Node(ctx context.Context, id int64) (*Node, error) {
	f.calls++
	n, ok := f.nodes[id]
	if !ok {
		return nil, fmt.Errorf("no position %d", id)
	}
	return n, nil
}

// store maps the world book into its nodes' frames.
func store(r game.Rules, world map[int64]*wnode, a game.Color) *fakeSource {
	src := &fakeSource{r: r, nodes: map[int64]*Node{}}
	for id, w := range world {
		n := &Node{ID: id, ToMove: w.toMove,
			Black: transformSquares(r, w.sym, w.black), White: transformSquares(r, w.sym, w.white),
			Cert: w.cert.Transform(r, w.sym)}
		for _, e := range w.edges {
			n.Edges = append(n.Edges, Edge{Move: r.TransformMove(w.sym, e.Move), Child: e.Child})
		}
		for _, tw := range w.twins {
			n.Twins = append(n.Twins, Twin{Stone: r.Transform(w.sym, tw.Stone), ID: tw.ID})
		}
		n.Claims[a-1] = Claim{Proved: true, HasZone: true, Zone: transformSquares(r, w.sym, w.claim)}
		src.nodes[id] = n
	}
	return src
}

type bookCase struct {
	r        game.Rules
	a        game.Color
	world    map[int64]*wnode
	root     int64
	children map[game.Move]int64 // unsolved defender move (world) -> child id
	grand    map[game.Move]int64 // unsolved defender move -> grandchild id
	attack   map[game.Move]game.Move
	desc     string
}

func withStones(black, white []game.Square, c game.Color, sq ...game.Square) ([]game.Square, []game.Square) {
	if c == game.Black {
		return append(slices.Clone(black), sq...), slices.Clone(white)
	}
	return slices.Clone(black), append(slices.Clone(white), sq...)
}

// worldZoneOR is the zone the book check computes at an attacker move:
// the move, the defender windows p+tol stones could fill, the child's zone.
func worldZoneOR(r game.Rules, black, white []game.Square, a game.Color, m game.Move, child []game.Square) []game.Square {
	return worldZoneORTol(r, black, white, a, 0, m, child)
}

func worldZoneORTol(r game.Rules, black, white []game.Square, a game.Color, tol int, m game.Move, child []game.Square) []game.Square {
	b, err := setUp(r, black, white)
	if err != nil {
		panic(err)
	}
	z := zoneOf(r.Squares(), child)
	z.addMove(m)
	b.addDefWin(z, int8(a.Opp()), r.P+tol)
	return z.squares()
}

// certFromTree turns the defender replies of strategy t (after the
// attacker's move, on black/white) into a certificate: the full replies
// covered, the seminull replies with the zones the checker computes.
func certFromTree(r game.Rules, black, white []game.Square, a game.Color, t *Tree) (*Cert, error) {
	return certFromTreeTol(r, black, white, a, 0, t)
}

func certFromTreeTol(r game.Rules, black, white []game.Square, a game.Color, tol int, t *Tree) (*Cert, error) {
	c := &Cert{Attacker: a}
	for _, rp := range t.Replies {
		if rp.Seminull {
			bl, wh := withStones(black, white, a.Opp(), rp.Move.At(0))
			z, err := CheckTree(context.Background(), r, bl, wh, a, tol+1, rp.Then)
			if err != nil {
				return nil, err
			}
			c.Seminull = append(c.Seminull, SeminullCert{Stone: rp.Move.At(0), Zone: z, Tree: rp.Then})
		} else {
			c.Covered = append(c.Covered, CoveredCert{Move: rp.Move, Tree: rp.Then})
		}
	}
	return c, nil
}

var (
	bookOnce  sync.Once
	bookList  []*bookCase
	bookError string
	bookLog   []string
)

func bookCases(t *testing.T) []*bookCase {
	t.Helper()
	bookOnce.Do(func() { bookList, bookError = computeBookCases() })
	for _, l := range bookLog {
		t.Log(l)
	}
	if bookError != "" {
		t.Fatal(bookError)
	}
	return bookList
}

// computeBookCases builds small books: a position D (defender to move,
// full turns) verified by the engine with a small budget so that some
// defender moves stay unsolved; each unsolved move's position is solved by
// the engine with a larger budget and stored as a child (attacker to move)
// with the winning move as an edge to a grandchild whose certificate holds
// the strategy's replies. Every node gets a random frame.
func computeBookCases() ([]*bookCase, string) {
	ctx := context.Background()
	var out []*bookCase
	for ci, rc := range []struct {
		r      game.Rules
		t      int  // attacker turns after the first
		threat bool // the attacker holds a threat window
		budget int64
		want   int
	}{
		{game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, 2, true, 60, 3},
		{game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, 3, false, 3, 2},
	} {
		rng := rand.New(rand.NewPCG(uint64(ci)+500, 3))
		found := 0
		for try := 0; try < 400 && found < rc.want; try++ {
			a := game.Color(1 + rng.IntN(2))
			d := a.Opp()
			// Full turns, the defender to move.
			var nb, nw int
			if a == game.Black {
				nb = rc.r.Q + rc.r.P*rc.t
				nw = rc.r.P * rc.t
			} else {
				nw = rc.r.P * (rc.t + 1)
				nb = rc.r.Q + rc.r.P*rc.t
			}
			nD, nA := nb, nw
			if d == game.White {
				nD, nA = nw, nb
			}
			if rc.threat {
				nA -= rc.r.K - rc.r.P
			}
			b, toMove := randomPosition(rng, rc.r, nD, nA, rc.threat)
			if toMove != d {
				continue
			}
			black, white := b.StoneList(game.Black), b.StoneList(game.White)
			if tol, err := Deficit(rc.r, len(black), len(white), d, a); err != nil || tol != 0 {
				return nil, fmt.Sprintf("generator: deficit %d, %v", tol, err)
			}
			v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: rc.budget}}, nil)
			if err != nil {
				return nil, err.Error()
			}
			if v.AllUnsolved || len(v.Unsolved) == 0 || len(v.Unsolved) > 6 {
				continue
			}
			bc := &bookCase{r: rc.r, a: a, world: map[int64]*wnode{}, children: map[game.Move]int64{},
				grand: map[game.Move]int64{}, attack: map[game.Move]game.Move{}, root: 1}
			next := int64(2)
			cert := FromVerdict(&v)
			res, err := CheckVerdict(ctx, rc.r, black, white, d, 0, cert)
			if err != nil {
				return nil, fmt.Sprintf("verdict rejected: %v", err)
			}
			root := &wnode{id: 1, black: black, white: white, toMove: d, cert: cert, sym: rng.IntN(rc.r.SymmetryCount())}
			bc.world[1] = root
			rootZone := zoneOf(rc.r.Squares(), res.Zone)
			ok := true
			for _, u := range cert.Unsolved {
				cb, cw := withStones(black, white, d, u.Squares()...)
				cbd, err := boardpkg.SetUp(rc.r, cb, cw, a)
				if err != nil {
					return nil, err.Error()
				}
				sr, err := threat.Solve(ctx, cbd, threat.Params{Mode: threat.VCST, Limits: threat.Limits{MaxNodes: 20000}})
				if err != nil || sr.Outcome != threat.Win || sr.Tree.Six {
					ok = false
					break
				}
				tr := FromStrategy(sr.Tree)
				gb, gw := withStones(cb, cw, a, tr.Move.Squares()...)
				gcert, err := certFromTree(rc.r, gb, gw, a, tr)
				if err != nil {
					return nil, err.Error()
				}
				gres, err := CheckVerdict(ctx, rc.r, gb, gw, d, 0, gcert)
				if err != nil {
					return nil, fmt.Sprintf("grandchild verdict rejected: %v", err)
				}
				gid, cid := next+1, next
				next += 2
				bc.world[gid] = &wnode{id: gid, black: gb, white: gw, toMove: d, cert: gcert, claim: gres.Zone, sym: rng.IntN(rc.r.SymmetryCount())}
				cz := worldZoneOR(rc.r, cb, cw, a, tr.Move, gres.Zone)
				bc.world[cid] = &wnode{id: cid, black: cb, white: cw, toMove: a, claim: cz, sym: rng.IntN(rc.r.SymmetryCount()),
					edges: []Edge{{Move: tr.Move, Child: gid}}}
				root.edges = append(root.edges, Edge{Move: u, Child: cid})
				rootZone.union(zoneOf(rc.r.Squares(), cz))
				bc.children[u], bc.grand[u], bc.attack[u] = cid, gid, tr.Move
			}
			if !ok {
				continue
			}
			root.claim = rootZone.squares()
			bc.desc = fmt.Sprintf("%v attacker %v black=%s white=%s unsolved %d", rc.r, a, squaresName(rc.r, black), squaresName(rc.r, white), len(cert.Unsolved))
			out = append(out, bc)
			found++
			bookLog = append(bookLog, bc.desc)
		}
		if found < rc.want {
			return nil, fmt.Sprintf("%v: only %d books built", rc.r, found)
		}
	}
	return out, ""
}

func checkBookCase(bc *bookCase, mutate func(src *fakeSource)) (int, error) {
	src := store(bc.r, bc.world, bc.a)
	if mutate != nil {
		mutate(src)
	}
	return CheckBook(context.Background(), src, []Root{{ID: bc.root, Attacker: bc.a}}, nil)
}

func wantFailure(t *testing.T, bc *bookCase, what string, err error, id int64, line []game.Move, reason string) {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("%s: %s: got %v, want a *Failure", bc.desc, what, err)
	}
	// The line is in the root's frame.
	sym := bc.world[bc.root].sym
	var want []game.Move
	for _, m := range line {
		want = append(want, bc.r.TransformMove(sym, m))
	}
	if f.ID != id || !slices.Equal(f.Line, want) || !strings.Contains(f.Reason, reason) || f.Root != bc.root || f.Attacker != bc.a {
		t.Fatalf("%s: %s: got %v (id %d, line %q), want id %d, line %q, reason containing %q",
			bc.desc, what, err, f.ID, game.FormatTurns(bc.r, f.Line), id, game.FormatTurns(bc.r, want), reason)
	}
}

// A small book (a verdict, its unsolved moves as children proved by
// stored strategies, every node in a frame of its own) checks; each
// mutation breaks it with a failure naming the line and the position.
func TestCheckBook(t *testing.T) {
	for _, bc := range bookCases(t) {
		n, err := checkBookCase(bc, nil)
		if err != nil {
			t.Fatalf("%s: the book does not check: %v", bc.desc, err)
		}
		if n != len(bc.world) {
			t.Fatalf("%s: %d positions checked, the book has %d", bc.desc, n, len(bc.world))
		}
		keys := slices.SortedFunc(maps.Keys(bc.children), moveCmp)
		u := keys[len(keys)/2]
		cid, gid, am := bc.children[u], bc.grand[u], bc.attack[u]
		rootSym := bc.world[bc.root].sym

		// Drop an item child: the root's edge for u.
		_, err = checkBookCase(bc, func(src *fakeSource) {
			root := src.nodes[bc.root]
			root.Edges = slices.DeleteFunc(slices.Clone(root.Edges), func(e Edge) bool { return e.Child == cid })
		})
		wantFailure(t, bc, "dropped child", err, bc.root, nil, "defender move "+game.MoveName(bc.r, bc.r.TransformMove(rootSym, u)))

		// A child not proved.
		_, err = checkBookCase(bc, func(src *fakeSource) { src.nodes[cid].Claims[bc.a-1].Proved = false })
		wantFailure(t, bc, "child not proved", err, cid, []game.Move{u}, "not proved")

		// The grandchild not proved (a deeper line).
		_, err = checkBookCase(bc, func(src *fakeSource) { src.nodes[gid].Claims[bc.a-1].Proved = false })
		wantFailure(t, bc, "grandchild not proved", err, gid, []game.Move{u, am}, "not proved")

		// A missing certificate.
		_, err = checkBookCase(bc, func(src *fakeSource) { src.nodes[gid].Cert = nil })
		wantFailure(t, bc, "missing certificate", err, gid, []game.Move{u, am}, "no certificate")

		// The root's zone claim shrunk by one square (each square is needed
		// by construction: the claim is exactly the computed zone).
		for _, i := range []int{0, len(bc.world[bc.root].claim) - 1} {
			_, err = checkBookCase(bc, func(src *fakeSource) {
				c := &src.nodes[bc.root].Claims[bc.a-1]
				c.Zone = slices.Delete(slices.Clone(c.Zone), i, i+1)
			})
			wantFailure(t, bc, "root zone shrunk", err, bc.root, nil, "misses square")
		}
		// The child's zone claim shrunk: the child itself breaks.
		_, err = checkBookCase(bc, func(src *fakeSource) {
			c := &src.nodes[cid].Claims[bc.a-1]
			c.Zone = c.Zone[1:]
		})
		wantFailure(t, bc, "child zone shrunk", err, cid, []game.Move{u}, "claimed zone misses square")

		// An edge that does not lead to its child: the child's stones moved.
		_, err = checkBookCase(bc, func(src *fakeSource) {
			n := src.nodes[cid]
			c := *n
			c.Black, c.White = slices.Clone(n.Black), slices.Clone(n.White)
			if bc.a == game.Black {
				c.White = c.White[1:]
			} else {
				c.Black = c.Black[1:]
			}
			src.nodes[cid] = &c
		})
		wantFailure(t, bc, "edge to a wrong child", err, bc.root, nil, "does not lead to its child")

		// The root itself not proved.
		_, err = checkBookCase(bc, func(src *fakeSource) { src.nodes[bc.root].Claims[bc.a-1].HasZone = false })
		wantFailure(t, bc, "root without zone", err, bc.root, nil, "not proved")
	}
}

// A position symmetric under a mirror: the book stores one child for each
// pair of mirrored defender moves, and the check maps the other onto it.
func TestCheckBookStabilizer(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}
	sq := func(name string) game.Square {
		s, err := game.ParseSquare(r, name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Black (attacker) c3 d4 e3, White b2 f2 to move: symmetric under the
	// left-right mirror (symmetry 1). Black 3 = 3 turns, White 2: full.
	black := []game.Square{sq("c3"), sq("d4"), sq("e3")}
	white := []game.Square{sq("b2"), sq("f2")}
	b, err := boardpkg.SetUp(r, black, white, game.White)
	if err != nil {
		t.Fatal(err)
	}
	v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cert := FromVerdict(&v)
	res, err := CheckVerdict(ctx, r, black, white, game.White, 0, cert)
	if err != nil {
		t.Fatal(err)
	}
	// Children for one move of each mirrored pair.
	world := map[int64]*wnode{1: {id: 1, black: black, white: white, toMove: game.White, cert: cert, sym: 2}}
	zone := zoneOf(r.Squares(), res.Zone)
	stored := map[game.Move]bool{}
	next := int64(2)
	pairs := 0
	for _, u := range cert.Unsolved {
		mu := r.TransformMove(1, u)
		if stored[mu] {
			pairs++
			continue
		}
		cb, cw := withStones(black, white, game.White, u.Squares()...)
		cbd, _ := boardpkg.SetUp(r, cb, cw, game.Black)
		sr, err := threat.Solve(ctx, cbd, threat.Params{Mode: threat.VCST, Limits: threat.Limits{MaxNodes: 20000}})
		if err != nil || sr.Outcome != threat.Win {
			t.Fatalf("unsolved move %s: no win", game.MoveName(r, u))
		}
		tr := FromStrategy(sr.Tree)
		gb, gw := withStones(cb, cw, game.Black, tr.Move.Squares()...)
		gid, cid := next+1, next
		next += 2
		var cz []game.Square
		if tr.Six {
			world[gid] = &wnode{id: gid, black: gb, white: gw, toMove: game.White}
			cz, err = CheckTree(ctx, r, cb, cw, game.Black, 0, tr)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			gcert, err := certFromTree(r, gb, gw, game.Black, tr)
			if err != nil {
				t.Fatal(err)
			}
			gres, err := CheckVerdict(ctx, r, gb, gw, game.White, 0, gcert)
			if err != nil {
				t.Fatal(err)
			}
			world[gid] = &wnode{id: gid, black: gb, white: gw, toMove: game.White, cert: gcert, claim: gres.Zone}
			cz = worldZoneOR(r, cb, cw, game.Black, tr.Move, gres.Zone)
		}
		world[cid] = &wnode{id: cid, black: cb, white: cw, toMove: game.Black, claim: cz, sym: int(cid) % 8,
			edges: []Edge{{Move: tr.Move, Child: gid}}}
		world[1].edges = append(world[1].edges, Edge{Move: u, Child: cid})
		stored[u] = true
		zone.union(zoneOf(r.Squares(), cz))
		zone.union(zoneOf(r.Squares(), transformSquares(r, 1, cz)))
	}
	t.Logf("%d unsolved moves, %d stored as mirror images (all-unsolved %v)", len(cert.Unsolved), pairs, cert.AllUnsolved)
	if pairs == 0 {
		t.Fatalf("no mirrored pair among the %d unsolved moves", len(cert.Unsolved))
	}
	world[1].claim = zone.squares()
	src := store(r, world, game.Black)
	if _, err := CheckBook(ctx, src, []Root{{ID: 1, Attacker: game.Black}}, nil); err != nil {
		t.Fatalf("symmetric book: %v", err)
	}
	// Without the mirror images' zones in the claim it breaks.
	world[1].claim = res.Zone
	src = store(r, world, game.Black)
	if _, err := CheckBook(ctx, src, []Root{{ID: 1, Attacker: game.Black}}, nil); err == nil {
		t.Fatal("a claim without the children's zones passes")
	}
}

// Progress is reported, cancellation stops the check, and a source error
// is returned as it is (not as a broken proof).
func TestCheckBookProgressAndErrors(t *testing.T) {
	bc := bookCases(t)[0]
	src := store(bc.r, bc.world, bc.a)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CheckBook(ctx, src, []Root{{ID: bc.root, Attacker: bc.a}}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	delete(src.nodes, bc.children[slices.SortedFunc(maps.Keys(bc.children), moveCmp)[0]])
	_, err := CheckBook(context.Background(), src, []Root{{ID: bc.root, Attacker: bc.a}}, nil)
	var f *Failure
	if err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), "no position") {
		t.Fatalf("missing position: %v", err)
	}
	// The other attacker has no claim: the root is not proved for it.
	src = store(bc.r, bc.world, bc.a)
	_, err = CheckBook(context.Background(), src, []Root{{ID: bc.root, Attacker: bc.a.Opp()}}, nil)
	if !errors.As(err, &f) || f.ID != bc.root || !strings.Contains(f.Reason, "not proved") {
		t.Fatalf("other attacker: %v", err)
	}
	// Memoised: every position is fetched once.
	src = store(bc.r, bc.world, bc.a)
	n, err := CheckBook(context.Background(), src, []Root{{ID: bc.root, Attacker: bc.a}, {ID: bc.root, Attacker: bc.a}}, func(int) {})
	if err != nil || n != len(bc.world) || src.calls != len(bc.world) {
		t.Fatalf("checked %d, fetched %d, %d positions: %v", n, src.calls, len(bc.world), err)
	}
}

func moveCmp(a, b game.Move) int {
	if a.Len() != b.Len() {
		return a.Len() - b.Len()
	}
	for i := 0; i < a.Len(); i++ {
		if a.At(i) != b.At(i) {
			return int(a.At(i)) - int(b.At(i))
		}
	}
	return 0
}

// Claimed orders: a claim at least what the proof rests on checks; a root
// claiming less than its certificate supports, or an attacker-to-move
// child claiming less than its move's proof, is refused at that position.
func TestCheckBookOrders(t *testing.T) {
	withOrders := func(src *fakeSource, a game.Color, ord int) {
		for _, n := range src.nodes {
			c := &n.Claims[a-1]
			c.Order, c.HasOrder = ord, true
		}
	}
	for _, bc := range bookCases(t) {
		if _, err := checkBookCase(bc, func(src *fakeSource) { withOrders(src, bc.a, 3) }); err != nil {
			t.Fatalf("%s: order 3 claimed everywhere: %v", bc.desc, err)
		}
		_, err := checkBookCase(bc, func(src *fakeSource) {
			withOrders(src, bc.a, 3)
			src.nodes[bc.root].Claims[bc.a-1].Order = 0
		})
		wantFailure(t, bc, "root order 0", err, bc.root, nil, "claimed order 0")
		keys := slices.SortedFunc(maps.Keys(bc.children), moveCmp)
		u := keys[len(keys)/2]
		cid := bc.children[u]
		_, err = checkBookCase(bc, func(src *fakeSource) {
			withOrders(src, bc.a, 3)
			src.nodes[cid].Claims[bc.a-1].Order = 0
		})
		// The child (attacker to move) claims 0 while its move's proof
		// claims 3; or the root claims 3 and the child is refused first.
		var f *Failure
		if !errors.As(err, &f) || !strings.Contains(f.Reason, "claimed order") {
			t.Fatalf("%s: child claiming order 0: %v", bc.desc, err)
		}
	}
}

// A node's Checked result (a check this process made of the same
// certificate) stands for the certificate's check only on the position it
// was made on, for its attacker, at the position's tolerance: there
// CheckBook uses it (a certificate swapped for a broken one behind it is
// not read again), anywhere else it checks the certificate itself.
func TestCheckBookChecked(t *testing.T) {
	ctx := context.Background()
	for _, bc := range bookCases(t) {
		src := store(bc.r, bc.world, bc.a)
		root := src.nodes[bc.root]
		tol, err := Deficit(bc.r, len(root.Black), len(root.White), root.ToMove, bc.a)
		if err != nil {
			t.Fatal(err)
		}
		res, err := CheckVerdict(ctx, bc.r, root.Black, root.White, bc.a.Opp(), tol, root.Cert)
		if err != nil {
			t.Fatalf("%s: %v", bc.desc, err)
		}
		// A certificate that does not check: its null move is on a stone.
		broken := &Cert{Attacker: bc.a, NullTree: &Tree{Move: game.NewMove(append(root.Black, root.White...)[0])}}
		if _, err := checkBookCase(bc, func(src *fakeSource) { src.nodes[bc.root].Cert = broken }); err == nil {
			t.Fatalf("%s: the book checks with a broken certificate at the root", bc.desc)
		}
		// The result of the check of the real certificate, on the root.
		if _, err := checkBookCase(bc, func(src *fakeSource) {
			src.nodes[bc.root].Cert, src.nodes[bc.root].Checked = broken, res
		}); err != nil {
			t.Fatalf("%s: the root's Checked result is not used: %v", bc.desc, err)
		}
		// The same result handed to a position it was not made on: the
		// grandchild of an item (another defender-to-move position).
		var gid int64
		for _, g := range bc.grand {
			gid = g
			break
		}
		_, err = checkBookCase(bc, func(src *fakeSource) {
			src.nodes[gid].Cert, src.nodes[gid].Checked = broken, res
		})
		if f := (*Failure)(nil); !errors.As(err, &f) || f.ID != gid || !strings.Contains(f.Reason, "certificate: ") {
			t.Fatalf("%s: a Checked result made on another position stood for position %d's certificate: %v", bc.desc, gid, err)
		}
		// A result made at another tolerance, on the root.
		if res1, err := CheckVerdict(ctx, bc.r, root.Black, root.White, bc.a.Opp(), tol+1, root.Cert); err == nil {
			_, err = checkBookCase(bc, func(src *fakeSource) {
				src.nodes[bc.root].Cert, src.nodes[bc.root].Checked = broken, res1
			})
			if f := (*Failure)(nil); !errors.As(err, &f) || f.ID != bc.root || !strings.Contains(f.Reason, "certificate: ") {
				t.Fatalf("%s: a Checked result made at tolerance %d stood for the root's at %d: %v", bc.desc, tol+1, tol, err)
			}
		}
	}
}
