package threat

import (
	"context"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
)

// Positions where VCST needs single threats and its proof holds seminull
// replies (found by scanning random positions once; fixed inputs, not
// answers): "rules to-move B squares… W squares…".
var seminullFixtures = []string{
	"8,8,5,2,1 B B a1 d1 h6 W f1 a3 g3 f4 b6",
	"8,8,5,2,1 B B a1 c5 h7 W c1 e1 g5 b7 f7",
	"7,7,5,2,1 B B a3 e4 b7 W c1 b2 c2 g2 g6",
	"10,10,6,2,1 B B h1 b4 e5 c6 c7 e9 f10 W i3 i4 a5 a7 i9 a10 i10",
	"8,8,5,2,1 B B f1 g4 d5 W c2 e2 e4 b5 f8",
	"8,8,5,2,1 W B e3 a4 a5 f6 d8 W a6 e6 h6",
	"8,8,5,2,1 B B e1 c7 g7 W g2 a4 g5 b7 h8",
	"8,8,5,2,1 B B a2 e4 g7 W b3 f3 b7 c7 h7",
	"7,7,5,2,1 B B c5 g6 b7 W g2 b4 b5 f7 g7",
	"7,7,5,2,1 B B b2 c3 f3 W e3 e6 f6 a7 g7",
	"7,7,5,2,1 B B d2 e3 b7 W e1 g1 f2 a5 g5",
	"8,8,5,2,1 W B f1 a2 b4 h6 f7 g7 W b3 c4 h5 g6",
}

func parseFixture(t *testing.T, text string) *board.Board {
	t.Helper()
	f := strings.Fields(text)
	r, err := game.ParseRules(f[0])
	if err != nil {
		t.Fatal(err)
	}
	toMove, err := game.ParseColor(f[1])
	if err != nil {
		t.Fatal(err)
	}
	var lists [3][]game.Square
	c := game.Empty
	for _, w := range f[2:] {
		switch w {
		case "B":
			c = game.Black
			continue
		case "W":
			c = game.White
			continue
		}
		s, err := game.ParseSquare(r, w)
		if err != nil {
			t.Fatal(err)
		}
		lists[c] = append(lists[c], s)
	}
	b, err := board.SetUp(r, lists[game.Black], lists[game.White], toMove)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seminullCount(st *Strategy) int {
	if st == nil {
		return 0
	}
	n := 0
	for _, r := range st.Replies {
		if r.Seminull {
			n++
		}
		n += seminullCount(r.Then)
	}
	return n
}

// VCST wins with seminull replies: the tree survives every defender move,
// so each seminull reply's zone is put to the test on every second stone.
// Where the root is also solved at tolerance 1, every single extra
// defender stone outside the root zone leaves the tree winning.
func TestVCSTSeminullStrategies(t *testing.T) {
	ctx := context.Background()
	withSemi, tol1 := 0, 0
	tolFixture := map[int]bool{}
	for i := range seminullFixtures {
		tolFixture[i] = true
	}
	for i, fx := range seminullFixtures {
		b := parseFixture(t, fx)
		res, err := Solve(ctx, b, Params{Mode: VCST, Limits: Limits{MaxNodes: 30000}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != Win {
			t.Logf("%s: no win (%s)", fx, res.Reason)
			continue
		}
		if seminullCount(res.Tree) > 0 {
			withSemi++
		}
		if err := CheckStrategy(ctx, b, res.Tree, 3_000_000); err != nil {
			t.Fatalf("%s: unsound: %v", fx, err)
		}
		if !tolFixture[i] {
			continue
		}
		res, err = Solve(ctx, b, Params{Mode: VCST, Tolerance: 1, Limits: Limits{MaxNodes: 20000}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != Win {
			continue
		}
		tol1++
		d := b.ToMove().Opp()
		outsideSets(b, res.Zone, 1, func(set []game.Square) bool {
			nb := b.Clone()
			nb.Place(set[0], d)
			if err := CheckStrategy(ctx, nb, res.Tree, 3_000_000); err != nil {
				t.Fatalf("%s tol 1: stone %s outside the zone breaks the strategy: %v\n%s", fx, squareList(b.Rules(), set), err, nb.Diagram())
			}
			return true
		})
	}
	t.Logf("%d of %d proofs hold seminull replies; %d tolerance-1 zones checked", withSemi, len(seminullFixtures), tol1)
	if withSemi < len(seminullFixtures)/2 {
		t.Errorf("only %d proofs with seminull replies: the fixtures no longer exercise them", withSemi)
	}
}

// The oracle can fail: a tree with one defender reply removed (one not
// covered by a seminull reply) is rejected by CheckStrategy.
func TestCheckStrategyRejectsHoles(t *testing.T) {
	ctx := context.Background()
	rejected := 0
	for _, fx := range seminullFixtures {
		b := parseFixture(t, fx)
		res, err := Solve(ctx, b, Params{Mode: VCST, Limits: Limits{MaxNodes: 30000}})
		if err != nil || res.Outcome != Win {
			continue
		}
		st := res.Tree
		for i, r := range st.Replies {
			if r.Seminull {
				continue
			}
			covered := false
			for _, o := range st.Replies {
				if o.Seminull && r.Move.Contains(o.Move.At(0)) {
					covered = true
				}
			}
			if covered {
				continue
			}
			holed := *st
			holed.Replies = append(append([]Reply(nil), st.Replies[:i]...), st.Replies[i+1:]...)
			if err := CheckStrategy(ctx, b, &holed, 3_000_000); err == nil {
				t.Fatalf("%s: tree without reply %s passes the check", fx, game.MoveName(b.Rules(), r.Move))
			}
			rejected++
			break
		}
		// A seminull reply given a wrong strategy (its sibling's) must fail
		// somewhere too, unless the sibling happens to work.
	}
	t.Logf("%d holed trees rejected", rejected)
	if rejected == 0 {
		t.Error("no tree to hole")
	}
}

// A position where VCST runs out of any small budget (Connect6, public).
const solveLongTurns = "j10 j9l10 k11l9 l12m11 k13k9 k10i11 m12i8 h11g12 j8k8 j7h8 n11o10 n9l13 n8o12 m10m8 o11o9 o7o13 m7p10 l6r12 p9l8 n6r7 p12p11 p14p8 n12q9 l14r8 l15n10 m9n13 q13q10"

func TestSolveCancelAndBudget(t *testing.T) {
	b, err := board.ReplayText(game.Connect6(), solveLongTurns)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, b, Params{Mode: VCST, Limits: Limits{MaxNodes: 50_000_000}})
	if err != nil || res.Outcome != Unknown || res.Reason != ReasonCancelled {
		t.Fatalf("cancelled context: %v %q %v", res.Outcome, res.Reason, err)
	}
	res, err = Solve(context.Background(), b, Params{Mode: VCST, Limits: Limits{MaxNodes: 20000}})
	if err != nil || res.Outcome != Unknown || res.Reason != ReasonBudget || res.Nodes < 20000 || len(res.Line) == 0 {
		t.Fatalf("node budget: %v %q nodes %d line %v %v", res.Outcome, res.Reason, res.Nodes, res.Line, err)
	}
	if b.Key() != enginetest.MustReplay(t, solveLongTurns).Key() {
		t.Fatal("Solve changed the board")
	}
}
