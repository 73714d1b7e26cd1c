package autopilot

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	playerpkg "c6book/engine/player"
	"c6book/engine/verify"
	"c6book/internal/booktest"
	"c6book/proofbook"
)

// randomLocal sets up a Connect6 position with a few stones of each colour
// around (cx, cy) and picks an attacker move of two empty squares among
// them, from rng.
func randomLocal(t *testing.T, rng *rand.Rand, cx, cy int) (*board.Board, game.Move) {
	t.Helper()
	r := game.Connect6()
	taken := map[game.Square]bool{}
	pick := func() game.Square {
		for {
			s := r.Sq(cx+rng.Intn(7)-3, cy+rng.Intn(7)-3)
			if !taken[s] {
				taken[s] = true
				return s
			}
		}
	}
	var black, white []game.Square
	for range 4 {
		black = append(black, pick())
		white = append(white, pick())
	}
	b, err := board.SetUp(r, black, white, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	return b, game.NewMove(pick(), pick())
}

// shifted is b's stones and m moved by (dx, dy).
func shifted(t *testing.T, b *board.Board, m game.Move, dx, dy int) (*board.Board, game.Move) {
	t.Helper()
	r := b.Rules()
	mv := func(s game.Square) game.Square {
		x, y := r.XY(s)
		return r.Sq(x+dx, y+dy)
	}
	var black, white []game.Square
	for _, s := range b.StoneList(game.Black) {
		black = append(black, mv(s))
	}
	for _, s := range b.StoneList(game.White) {
		white = append(white, mv(s))
	}
	nb, err := board.SetUp(r, black, white, b.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	return nb, game.NewMove(mv(m.At(0)), mv(m.At(1)))
}

// A move's shape key does not change under the board's symmetries or a
// translation that keeps the neighbourhood on the board, and changes when
// a stone inside the neighbourhood changes or the board's edge comes into
// it; a stone outside it changes nothing.
func TestShapeKey(t *testing.T) {
	r := game.Connect6()
	rng := rand.New(rand.NewSource(33))
	for i := range 200 {
		b, m := randomLocal(t, rng, 9, 9)
		key := shapeKey(b, game.Black, m)
		for sym := 1; sym < 8; sym++ {
			if k := shapeKey(b.Transformed(sym), game.Black, r.TransformMove(sym, m)); k != key {
				t.Fatalf("case %d: symmetry %d changes the key of %s", i, sym, game.MoveName(r, m))
			}
		}
		sb, sm := shifted(t, b, m, 2, -3)
		if shapeKey(sb, game.Black, sm) != key {
			t.Fatalf("case %d: a translation changes the key of %s", i, game.MoveName(r, m))
		}
		// To the edge: the move's first stone two squares from column a
		// puts the edge inside the neighbourhood.
		x, _ := r.XY(m.At(0))
		x1, _ := r.XY(m.At(1))
		eb, em := shifted(t, b, m, -min(x, x1)+1, 0)
		if shapeKey(eb, game.Black, em) == key {
			t.Fatalf("case %d: the edge next to %s does not change the key", i, game.MoveName(r, em))
		}
	}
	// A stone inside the neighbourhood changes the key, one outside does
	// not.
	b, err := board.SetUp(r, []game.Square{r.Sq(9, 9)}, []game.Square{r.Sq(3, 3)}, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	m := game.NewMove(r.Sq(10, 9), r.Sq(11, 10))
	key := shapeKey(b, game.Black, m)
	far, _ := board.SetUp(r, []game.Square{r.Sq(9, 9), r.Sq(16, 16)}, []game.Square{r.Sq(3, 3)}, game.Black)
	near, _ := board.SetUp(r, []game.Square{r.Sq(9, 9)}, []game.Square{r.Sq(3, 3), r.Sq(12, 11)}, game.Black)
	if shapeKey(far, game.Black, m) != key {
		t.Error("a stone far from the move changes its key")
	}
	if shapeKey(near, game.Black, m) == key {
		t.Error("a defender stone next to the move does not change its key")
	}
	// The same stone as the attacker's or as the defender's.
	own, _ := board.SetUp(r, []game.Square{r.Sq(9, 9), r.Sq(12, 11)}, []game.Square{r.Sq(3, 3)}, game.Black)
	if shapeKey(own, game.Black, m) == shapeKey(near, game.Black, m) {
		t.Error("the key does not tell the attacker's stones from the defender's")
	}
}

// The table holds at most its bound, and still counts the shapes it has.
func TestShapeTableBound(t *testing.T) {
	s := NewShapeTable(3)
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		s.record(k, true)
	}
	s.record("a", false)
	if s.Len() != 3 {
		t.Fatalf("%d shapes, want the bound 3", s.Len())
	}
	if r, ok := s.rate("a"); !ok || r != 0.5 {
		t.Fatalf("rate of a after 1 proof in 2: %v %v, want 0.5 true", r, ok)
	}
	if _, ok := s.rate("e"); ok {
		t.Fatal("a shape beyond the bound was learned")
	}
}

// What a run learns moves candidates up: once the player's last candidate
// at a position has proved (learnFrom on its child), a later run with the
// same table offers it first there; a verification that did not prove
// teaches nothing that moves it, and a run that does not learn keeps the
// player's order.
func TestShapeTableLearnsAndPromotes(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	root := booktest.Add(t, bk, "b2 d4e6")
	opts := ProveOptions{Attacker: game.Black, Candidates: 6, MaxCandidates: 6, Shapes: 4, NoSiblings: true, NoReuse: true,
		Verify: verify.VerifyOptions{Lambda: 2}}
	tr := newBookTree(bk, &recordingVerifier{}, opts)
	if n, err := tr.Expand(ctx, root); err != nil || n == 0 {
		t.Fatalf("expand: %d %v", n, err)
	}
	cands := tr.cands[root]
	last := cands[len(cands)-1].Move
	edges, err := bk.AutoMoves(ctx, root, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(edges, func(e proofbook.AutoEdge) bool { return e.Move == last })
	if i < 0 {
		t.Fatalf("the last candidate %s is not stored", game.MoveName(r, last))
	}
	kid := edges[i].Child
	b, err := bk.Board(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	firstOf := func(o ProveOptions) game.Move {
		c, err := newBookTree(bk, &recordingVerifier{}, o).candidates(ctx, b, nil, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		return c[0].Move
	}

	failed := NewShapeTable(0)
	o := opts
	o.Learned = failed
	tf := newBookTree(bk, &recordingVerifier{}, o)
	tf.learnFrom(ctx, kid, false)
	if failed.Len() == 0 {
		t.Fatal("a verification was not recorded")
	}
	if got := firstOf(o); got != cands[0].Move {
		t.Fatalf("a shape that never proved changed the order: %s first, want the player's %s", game.MoveName(r, got), game.MoveName(r, cands[0].Move))
	}

	lastKey := shapeKey(b, game.Black, last)
	if shapeKey(b, game.Black, cands[0].Move) == lastKey {
		t.Fatal("the first and last candidates have one shape: the fixture cannot tell")
	}
	tr.learnFrom(ctx, kid, true)
	o = opts
	o.Learned = tr.shapes
	if got := firstOf(o); shapeKey(b, game.Black, got) != lastKey {
		t.Fatalf("after the proof of %s, %s (another shape) comes first", game.MoveName(r, last), game.MoveName(r, got))
	}
	o.NoLearn = true
	if got := firstOf(o); got != cands[0].Move {
		t.Fatalf("without learning, %s comes first, want the player's %s", game.MoveName(r, got), game.MoveName(r, cands[0].Move))
	}
}

// At a position with a sibling's proving move, the first expansion offers
// it and the shape moves without asking the player; the next one asks it.
// Without Postpone the first expansion holds the player's moves.
func TestExpandPostponesPlayer(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	const shapes = 3
	expand := func(postpone bool) (first, second []playerpkg.ScoredMove, allowed map[game.Move]bool, postponed int) {
		bk := booktest.NewBook(t, r)
		booktest.Add(t, bk, "d4 c3e5 d5d6 a1b1 d7d8")
		id := booktest.Add(t, bk, "d4 c3e5 d5d6 h8g1")
		tr := newBookTree(bk, &recordingVerifier{}, ProveOptions{Attacker: game.Black, Candidates: 8, MaxCandidates: 8, Shapes: shapes,
			Postpone: postpone, NoLearn: true, Verify: verify.VerifyOptions{Lambda: 2}})
		b, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		sib, err := tr.firstMoves(ctx, id, b)
		if err != nil {
			t.Fatal(err)
		}
		allowed = map[game.Move]bool{}
		for _, m := range sib {
			allowed[m] = true
		}
		for _, s := range playerpkg.ShapeCandidates(b, shapes) {
			allowed[s.Move] = true
		}
		if len(sib) == 0 {
			t.Fatal("no sibling move: the fixture is broken")
		}
		if _, err := tr.Expand(ctx, id); err != nil {
			t.Fatal(err)
		}
		first = tr.cands[id]
		if _, err := tr.Expand(ctx, id); err != nil {
			t.Fatal(err)
		}
		return first, tr.cands[id], allowed, tr.postponed
	}
	others := func(c []playerpkg.ScoredMove, allowed map[game.Move]bool) int {
		n := 0
		for _, x := range c {
			if !allowed[x.Move] {
				n++
			}
		}
		return n
	}
	first, second, allowed, postponed := expand(true)
	if n := others(first, allowed); n != 0 || postponed != 1 {
		t.Fatalf("first expansion: %d player moves, %d postponed; want 0 and 1", n, postponed)
	}
	if others(second, allowed) == 0 {
		t.Fatal("second expansion: no player move")
	}
	first, _, allowed, postponed = expand(false)
	if others(first, allowed) == 0 || postponed != 0 {
		t.Fatalf("without Postpone: first expansion without player moves (%d postponed)", postponed)
	}
}
