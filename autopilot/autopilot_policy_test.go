package autopilot

import (
	"c6book"
	"c6book/internal/booktest"
	"c6book/internal/lambda3oracle"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/jobsearch"
	"c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// gamesStore is a book whose positions' game counts are set by the test
// (as an import would store them): the auto-pilot reads them through
// AutoMoves and AutoParents only.
type gamesStore struct {
	*proofbook.Book
	games map[PosID]c6book.GameStats
}

func withGames(bk *proofbook.Book) *gamesStore {
	return &gamesStore{Book: bk, games: map[PosID]c6book.GameStats{}}
}

// setGames gives position id game counts as an import would.
func (s *gamesStore) setGames(id PosID, bwins, wwins int64) {
	s.games[id] = c6book.GameStats{Games: bwins + wwins, BlackWins: bwins, WhiteWins: wwins}
}

func (s *gamesStore) withStats(es []proofbook.AutoEdge, err error) ([]proofbook.AutoEdge, error) {
	for i := range es {
		if g, ok := s.games[es[i].Child]; ok {
			es[i].Games = g
		}
	}
	return es, err
}

func (s *gamesStore) AutoMoves(ctx context.Context, id PosID, a game.Color) ([]proofbook.AutoEdge, error) {
	return s.withStats(s.Book.AutoMoves(ctx, id, a))
}

func (s *gamesStore) AutoParents(ctx context.Context, id PosID) ([]proofbook.AutoEdge, error) {
	return s.withStats(s.Book.AutoParents(ctx, id))
}

// Imported moves come before the engine's candidates only when the lower
// confidence bound of the attacker's win rate in their games reaches
// GameLCB: the order of an attacker-to-move position's moves is hand-made,
// imported and vouched for, the auto-pilot's by rank, the other imported;
// and the first position the auto-pilot verifies follows it.
func TestProveImportedMovesByLCB(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	gs := withGames(bk)
	root := booktest.Add(t, bk, "")
	hand := booktest.Add(t, bk, "b2")
	good := booktest.Add(t, bk, "c3")
	poor := booktest.Add(t, bk, "d4")
	gs.setGames(good, 30, 5)  // Black's bound ~0.73
	gs.setGames(poor, 10, 12) // ~0.28: played often, but not good for Black
	_, _, kids, err := bk.AddAutoMoves(ctx, root, booktest.Turns(t, r, "b4"), nil)
	if err != nil || len(kids) != 1 || kids[0] == 0 {
		t.Fatalf("auto move: %v %v", kids, err)
	}
	auto := kids[0]
	opts := smallProve(game.Black, 2, 1)
	opts.GameLCB, opts.GameZ = 0.5, 1.645
	tr := newBookTree(gs, &recordingVerifier{}, opts)
	got, err := tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []PosID{hand, good, auto, poor}; !slices.Equal(got, want) {
		t.Fatalf("children %v, want hand %d, good %d, auto %d, poor %d", got, hand, good, auto, poor)
	}
	// For White the same games vouch for neither: both after the
	// auto-pilot's move, the better bound (d4: 12 of 22) first.
	opts.Attacker = game.White
	tr = newBookTree(gs, &recordingVerifier{}, opts)
	got, err = tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []PosID{hand, auto, poor, good}; !slices.Equal(got, want) {
		t.Fatalf("children for White %v, want hand %d, auto %d, then the imported %d, %d", got, hand, auto, poor, good)
	}

	// Without a hand-made move the first verified position is the
	// imported move the games vouch for, not the one played more often.
	bk = booktest.NewBook(t, r)
	gs = withGames(bk)
	root = booktest.Add(t, bk, "")
	poor = booktest.Add(t, bk, "b2")
	good = booktest.Add(t, bk, "c3")
	gs.setGames(poor, 40, 60)
	gs.setGames(good, 20, 2)
	rv := &recordingVerifier{}
	if _, err := Prove(ctx, gs, root, rv, smallProve(game.Black, 2, 1), nil); err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 1 || rv.keys[0] != posKeyOf(t, bk, good) {
		t.Fatalf("first verified: %v, want the vouched-for import (%d)", rv.keys, good)
	}

	// When the games vouch for neither, the player's moves come first.
	bk = booktest.NewBook(t, r)
	gs = withGames(bk)
	root = booktest.Add(t, bk, "")
	p1 := booktest.Add(t, bk, "b2")
	p2 := booktest.Add(t, bk, "c3")
	gs.setGames(p1, 40, 60)
	gs.setGames(p2, 3, 3)
	rv = &recordingVerifier{}
	if _, err := Prove(ctx, gs, root, rv, smallProve(game.Black, 2, 1), nil); err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 1 || rv.keys[0] == posKeyOf(t, bk, p1) || rv.keys[0] == posKeyOf(t, bk, p2) {
		t.Fatalf("first verified: %v, want one of the player's moves, not the imports %d, %d", rv.keys, p1, p2)
	}
}

// New positions start from the numbers the player's scores expect: the
// auto-pilot's moves at a position (the player's, in its order) lead to
// positions whose Look reports ExpectedNumbers of the move's score.
func TestProveEvalInit(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	root := booktest.Add(t, bk, "b2 d4e6") // Black to move, no symmetry
	tr := newBookTree(bk, &recordingVerifier{}, ProveOptions{Attacker: game.Black, Candidates: 6, MaxCandidates: 6,
		Verify: verify.VerifyOptions{Lambda: 2}})
	if n, err := tr.Expand(ctx, root); err != nil || n == 0 {
		t.Fatalf("expand: %d %v", n, err)
	}
	cands := tr.cands[root]
	kids, err := tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != len(cands) || len(kids) < 2 {
		t.Fatalf("%d children for %d candidates", len(kids), len(cands))
	}
	for i, k := range kids {
		n, err := tr.Look(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if n.Work != jobsearch.JobRun {
			t.Fatalf("child %d: work %v, want a verifier run", k, n.Work)
		}
		wpn, wdn := player.ExpectedNumbers(cands[i].Score)
		if n.PN != wpn || n.DN != wdn {
			t.Fatalf("child %d (score %.2f): expects %d/%d, want %d/%d", k, cands[i].Score, n.PN, n.DN, wpn, wdn)
		}
	}
}

// budgetVerifier is the local verifier that records every call: the
// position's canonical key, the node budget of its solver calls and
// whether its verdict left a move unsolved for want of budget.
type budgetVerifier struct {
	mu    sync.Mutex
	calls []budgetCall
}

type budgetCall struct {
	key    uint64
	nodes  int64
	proved bool
	short  bool // a move unsolved for want of budget, or every move open
}

func (v *budgetVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	k, _ := b.CanonicalKey()
	vd, err := verify.Verify(ctx, b, opts, progress)
	c := budgetCall{key: k, nodes: opts.Limits.MaxNodes, proved: vd.Status == verify.StatusProved, short: vd.AllUnsolved}
	for _, u := range append(slices.Clone(vd.Unsolved), vd.OpenSeminull...) {
		c.short = c.short || u.Reason == threat.ReasonBudget
	}
	if err == nil {
		v.mu.Lock()
		v.calls = append(v.calls, c)
		v.mu.Unlock()
	}
	return vd, err
}

// The schedule of node budgets: 50, ×4, up to 3000 ends at 3000; 0 or a
// first budget at least the largest is the largest alone.
func TestBudgetSchedule(t *testing.T) {
	for _, c := range []struct {
		first, most int64
		want        []int64
	}{
		{50, 3000, []int64{50, 200, 800, 3000}},
		{25000, 200000, []int64{25000, 100000, 200000}},
		{1000, 4000, []int64{1000, 4000}},
		{0, 3000, []int64{3000}},
		{3000, 3000, []int64{3000}},
		{5000, 3000, []int64{3000}},
	} {
		if got := BudgetSchedule(c.first, c.most); !slices.Equal(got, c.want) {
			t.Errorf("BudgetSchedule(%d, %d) = %v, want %v", c.first, c.most, got, c.want)
		}
	}
}

// The widening schedule with the local verifier on small boards: a
// position is verified first at FirstNodes; it is verified again only
// after a verdict that left a move unsolved for want of budget (or every
// move open), each time at the schedule's next budget; a position proved
// at some budget is never verified again; some position is verified
// again (the schedule acts); the result counts the calls at each budget;
// the book checks, and every proved position is a true win (brute force).
// Without FirstNodes every call is at MaxNodes.
func TestProveBudgetSchedule(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		rules  game.Rules
		line   string
		lambda int
	}{
		{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, "e5 d4f6", 3},
		{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, "d4", 3},
		{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, "", 2},
	}
	again := 0
	for _, c := range cases {
		bk := booktest.NewBook(t, c.rules)
		id := booktest.Add(t, bk, c.line)
		a := game.Black
		opts := smallProve(a, c.lambda, 40)
		opts.FirstNodes = 50
		sch := BudgetSchedule(opts.FirstNodes, opts.Verify.Limits.MaxNodes)
		bv := &budgetVerifier{}
		res, err := Prove(ctx, bk, id, bv, opts, nil)
		if err != nil {
			t.Fatalf("%v %q: %v", c.rules, c.line, err)
		}
		last := map[uint64]budgetCall{}
		calls := make([]int, len(sch))
		caseAgain := 0
		for i, call := range bv.calls {
			step := slices.Index(sch, call.nodes)
			if step < 0 {
				t.Fatalf("%v %q: call %d at %d nodes, not in the schedule %v", c.rules, c.line, i, call.nodes, sch)
			}
			calls[step]++
			prev, seen := last[call.key]
			switch {
			case !seen && step != 0:
				t.Fatalf("%v %q: call %d: a first verification at %d nodes, want %d", c.rules, c.line, i, call.nodes, sch[0])
			case seen && prev.proved:
				t.Fatalf("%v %q: call %d: a position proved at %d nodes verified again at %d", c.rules, c.line, i, prev.nodes, call.nodes)
			case seen && !prev.short:
				t.Fatalf("%v %q: call %d: verified again at %d nodes though nothing was left for want of budget at %d", c.rules, c.line, i, call.nodes, prev.nodes)
			case seen && call.nodes != sch[min(slices.Index(sch, prev.nodes)+1, len(sch)-1)]:
				t.Fatalf("%v %q: call %d: verified again at %d nodes after %d, want the schedule's next", c.rules, c.line, i, call.nodes, prev.nodes)
			case seen:
				caseAgain++
			}
			last[call.key] = call
		}
		if !slices.Equal(res.Budgets, sch) || !slices.Equal(res.CallsAt, calls) || res.Again != caseAgain {
			t.Fatalf("%v %q: result schedule %v calls %v again %d, want %v %v again %d", c.rules, c.line, res.Budgets, res.CallsAt, res.Again, sch, calls, caseAgain)
		}
		again += caseAgain
		booktest.MustCheck(t, bk)
		for _, pos := range lambda3oracle.ProvedPositions(t, bk, a) {
			lambda3oracle.MustWin(ctx, t, bk, a, pos, fmt.Sprintf("%v %q", c.rules, c.line))
		}
		t.Logf("%v %q λ%d: %s, calls at %v: %v, %d verified again", c.rules, c.line, c.lambda, res.Status, res.Budgets, res.CallsAt, res.Again)
	}
	if again == 0 {
		t.Fatal("no position was verified again at a larger budget")
	}

	// Without FirstNodes: every call at MaxNodes.
	bk := booktest.NewBook(t, cases[0].rules)
	id := booktest.Add(t, bk, cases[0].line)
	bv := &budgetVerifier{}
	if _, err := Prove(ctx, bk, id, bv, smallProve(game.Black, 3, 10), nil); err != nil {
		t.Fatal(err)
	}
	for _, call := range bv.calls {
		if call.nodes != 3000 {
			t.Fatalf("a call at %d nodes without a schedule, want 3000", call.nodes)
		}
	}
}
