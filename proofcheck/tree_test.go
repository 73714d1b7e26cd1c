package proofcheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/internal/testenv"
)

type solvedCase struct {
	r     game.Rules
	b     *boardpkg.Board
	a     game.Color
	mode  threat.Mode
	tol   int
	res   threat.Result
	zone  []game.Square // the checker's
	black []game.Square
	white []game.Square
}

func (sc *solvedCase) String() string {
	return fmt.Sprintf("%v %v tol=%d attacker=%v black=%s white=%s", sc.r, sc.mode, sc.tol, sc.a,
		squaresName(sc.r, sc.black), squaresName(sc.r, sc.white))
}

func squaresName(r game.Rules, sq []game.Square) string {
	var parts []string
	for _, s := range sq {
		parts = append(parts, game.SquareName(r, s))
	}
	return strings.Join(parts, ",")
}

var solverRules = []struct {
	r      game.Rules
	nA, nD int
	n      int
}{
	{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, 5, 6, 14},
	{game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, 3, 4, 14},
	{game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, 4, 4, 14},
}

var (
	solvedOnce  sync.Once
	solvedList  []*solvedCase
	solvedError string
	solvedLog   []string
)

// solvedCases runs the engine's solver on random positions (both modes,
// tolerances 0..2) and on the seminull fixtures (VCST), and returns the
// wins with the checker's zone for each. It fails the test when the
// checker rejects a win or computes a zone that is not inside the
// engine's. The list is computed once and shared by the tests.
func solvedCases(t *testing.T) []*solvedCase {
	t.Helper()
	solvedOnce.Do(func() { solvedList, solvedError = computeSolvedCases() })
	for _, l := range solvedLog {
		t.Log(l)
	}
	if solvedError != "" {
		t.Fatal(solvedError)
	}
	return solvedList
}

func computeSolvedCases() ([]*solvedCase, string) {
	ctx := context.Background()
	var out []*solvedCase
	try := func(b *boardpkg.Board, mode threat.Mode, tol int, maxNodes int64) string {
		r := b.Rules()
		a := b.ToMove()
		res, err := threat.Solve(ctx, b, threat.Params{Mode: mode, Tolerance: tol, Limits: threat.Limits{MaxNodes: maxNodes}})
		if err != nil {
			return err.Error()
		}
		if res.Outcome != threat.Win {
			return ""
		}
		sc := &solvedCase{r: r, b: b, a: a, mode: mode, tol: tol, res: res,
			black: b.StoneList(game.Black), white: b.StoneList(game.White)}
		z, err := CheckTree(ctx, r, sc.black, sc.white, a, tol, FromStrategy(res.Tree))
		if err != nil {
			return fmt.Sprintf("%v: the checker rejects the solver's win: %v", sc, err)
		}
		sc.zone = z
		for _, s := range z {
			if !slices.Contains(res.Zone, s) {
				return fmt.Sprintf("%v: the checker's zone has %s, the engine's zone does not\nchecker %s\nengine  %s",
					sc, game.SquareName(r, s), squaresName(r, z), squaresName(r, res.Zone))
			}
		}
		out = append(out, sc)
		return ""
	}
	for ci, rc := range solverRules {
		rng := rand.New(rand.NewPCG(uint64(ci)+100, 7))
		n0 := len(out)
		for i := 0; i < rc.n; i++ {
			b, _ := randomPosition(rng, rc.r, rc.nA, rc.nD, i%3 == 2)
			for _, mode := range []threat.Mode{threat.VCDT, threat.VCST} {
				for tol := 0; tol <= 2; tol++ {
					if msg := try(b, mode, tol, 5000); msg != "" {
						return nil, msg
					}
				}
			}
		}
		solvedLog = append(solvedLog, fmt.Sprintf("%v: %d wins", rc.r, len(out)-n0))
		if len(out) == n0 {
			return nil, fmt.Sprintf("%v: no wins: adjust the generator", rc.r)
		}
	}
	n0, semi := len(out), 0
	for _, fx := range seminullFixtures {
		b := parseFixture(nil, fx)
		for tol := 0; tol <= 2; tol++ {
			if msg := try(b, threat.VCST, tol, 30000); msg != "" {
				return nil, msg
			}
		}
	}
	for _, sc := range out[n0:] {
		if seminullCount(FromStrategy(sc.res.Tree)) > 0 {
			semi++
		}
	}
	solvedLog = append(solvedLog, fmt.Sprintf("seminull fixtures: %d wins, %d with seminull replies", len(out)-n0, semi))
	if semi < 10 {
		return nil, fmt.Sprintf("only %d wins with seminull replies", semi)
	}
	return out, ""
}

func seminullCount(t *Tree) int {
	if t == nil {
		return 0
	}
	n := 0
	for _, r := range t.Replies {
		if r.Seminull {
			n++
		}
		n += seminullCount(r.Then)
	}
	return n
}

// Every win the solver returns passes the checker at the same tolerance,
// and the checker's zone is inside the engine's. Then, independently of
// the engine's zone code, the checker's zone is put to the test: tol extra
// defender stones anywhere outside it, and the engine's exhaustive replay
// (CheckStrategy) of the same strategy must still win.
func TestSolverWinsCheckAndZonesHold(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	cases := solvedCases(t)
	rng := rand.New(rand.NewPCG(9, 9))
	trials := 0
	for _, sc := range cases {
		if sc.tol == 0 {
			continue
		}
		in := zoneOf(sc.r.Squares(), sc.zone)
		var outside []game.Square
		for s := 0; s < sc.r.Squares(); s++ {
			if sc.b.At(game.Square(s)) == game.Empty && !in.has(game.Square(s)) {
				outside = append(outside, game.Square(s))
			}
		}
		// Every single square outside, then random sets of tol squares.
		var sets [][]game.Square
		for _, s := range outside {
			sets = append(sets, []game.Square{s})
		}
		for trial := 0; trial < 8 && sc.tol > 1 && len(outside) >= sc.tol; trial++ {
			var extra []game.Square
			for _, i := range rng.Perm(len(outside))[:sc.tol] {
				extra = append(extra, outside[i])
			}
			sets = append(sets, extra)
		}
		for _, extra := range sets {
			black, white := sc.black, sc.white
			if sc.a == game.Black {
				white = append(slices.Clone(white), extra...)
			} else {
				black = append(slices.Clone(black), extra...)
			}
			nb, err := boardpkg.SetUp(sc.r, black, white, sc.a)
			if err != nil {
				t.Fatal(err)
			}
			trials++
			if err := threat.CheckStrategy(ctx, nb, sc.res.Tree, 2_000_000); err != nil {
				t.Fatalf("%v: extra defender stones %s outside the checker's zone %s break the strategy: %v",
					sc, squaresName(sc.r, extra), squaresName(sc.r, sc.zone), err)
			}
		}
	}
	t.Logf("%d wins, %d zone trials", len(cases), trials)
	if trials < 50 {
		t.Errorf("only %d zone trials", trials)
	}
}

// The zones are not trivially large: a zone that covers the whole board
// would pass every test above. At least some zones leave most of the
// board out.
func TestZonesAreNotTheWholeBoard(t *testing.T) {
	small := 0
	cases := solvedCases(t)
	for _, sc := range cases {
		if 2*len(sc.zone) < sc.r.Squares() {
			small++
		}
	}
	if small == 0 {
		t.Fatalf("every one of %d zones covers half of the board or more", len(cases))
	}
}

func mustCheck(t *testing.T, sc *solvedCase, tr *Tree) ([]game.Square, error) {
	t.Helper()
	return CheckTree(context.Background(), sc.r, sc.black, sc.white, sc.a, sc.tol, tr)
}

func wantLineError(t *testing.T, what string, err error) *LineError {
	t.Helper()
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("%s: got %v, want a *LineError", what, err)
	}
	if le.Reason == "" {
		t.Fatalf("%s: no reason", what)
	}
	return le
}

// Mutated strategies are rejected, with the line where they break.
func TestTreeMutationsRejected(t *testing.T) {
	ctx := context.Background()
	cases := solvedCases(t)
	dropped, moved, sixes, short := 0, 0, 0, 0
	for _, sc := range cases {
		tr := FromStrategy(sc.res.Tree)
		// Drop a reply the checker needed: find a node with replies.
		for path := range replyPaths(tr) {
			mt := cloneTree(tr)
			n := nodeAt(mt, path.nodes)
			n.Replies = slices.Delete(n.Replies, path.reply, path.reply+1)
			_, err := mustCheck(t, sc, mt)
			if err == nil {
				// The reply may be redundant (another covers its moves);
				// then the check must still pass with an unchanged or
				// smaller zone. Only count real drops.
				continue
			}
			le := wantLineError(t, "dropped reply", err)
			if len(le.Line) < 1 {
				t.Fatalf("%v: dropped reply: empty line", sc)
			}
			dropped++
			break
		}
		// Move an attacker stone to another empty square.
		if tr.Move.Len() > 0 && !tr.Six {
			mt := cloneTree(tr)
			sq := mt.Move.Squares()
			for s := 0; s < sc.r.Squares(); s++ {
				if sc.b.At(game.Square(s)) == game.Empty && !slices.Contains(sq, game.Square(s)) {
					sq[0] = game.Square(s)
					break
				}
			}
			mt.Move = game.NewMove(sq...)
			if _, err := mustCheck(t, sc, mt); err == nil {
				// A different first move can still win by the same replies
				// only by luck; require the engine's exhaustive replay to
				// agree before accepting it.
				nb, _ := boardpkg.SetUp(sc.r, sc.black, sc.white, sc.a)
				if err := threat.CheckStrategy(ctx, nb, ToStrategy(mt), 2_000_000); err != nil {
					t.Fatalf("%v: moved attacker stone accepted by the checker, refuted by the replay: %v", sc, err)
				}
			} else {
				wantLineError(t, "moved stone", err)
				moved++
			}
		}
		// A wrong Six flag: mark a non-winning move as a six.
		if !tr.Six {
			mt := cloneTree(tr)
			mt.Six = true
			_, err := mustCheck(t, sc, mt)
			wantLineError(t, "wrong six", err)
			sixes++
		}
		// A one-stone attacker move that does not win (p = 2).
		if sc.r.P == 2 && !tr.Six {
			mt := cloneTree(tr)
			mt.Move = game.NewMove(tr.Move.At(0))
			_, err := mustCheck(t, sc, mt)
			wantLineError(t, "short move", err)
			short++
		}
	}
	if dropped == 0 || moved == 0 || sixes == 0 || short == 0 {
		t.Fatalf("mutations tested: dropped %d moved %d six %d short %d", dropped, moved, sixes, short)
	}
	t.Logf("mutations rejected: dropped reply %d, moved stone %d, wrong six %d, short move %d", dropped, moved, sixes, short)
}

// A three-stone attacker move under Connect6-like rules is rejected.
func TestThreeStoneMoveRejected(t *testing.T) {
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	black := []game.Square{r.Sq(4, 4)}
	white := []game.Square{r.Sq(0, 0)}
	// Black has 1 + 3 stones on a row with the three-stone move: not k.
	tr := &Tree{Move: game.NewMove(r.Sq(1, 4), r.Sq(2, 4), r.Sq(3, 4))}
	_, err := CheckTree(context.Background(), r, black, white, game.Black, 0, tr)
	le := wantLineError(t, "three stones", err)
	if !strings.Contains(le.Reason, "more than 2") {
		t.Fatalf("reason %q", le.Reason)
	}
	// Even a three-stone move that makes five is refused.
	tr.Move = game.NewMove(r.Sq(1, 4), r.Sq(2, 4), r.Sq(3, 4), r.Sq(5, 4))
	tr.Six = true
	_, err = CheckTree(context.Background(), r, black, white, game.Black, 0, tr)
	wantLineError(t, "four stones making five", err)
}

// A short move that makes k in a row is accepted with the six zone: the
// move and the defender windows with at most tol empties.
func TestShortSix(t *testing.T) {
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	black := []game.Square{r.Sq(0, 4), r.Sq(1, 4), r.Sq(2, 4), r.Sq(3, 4)}
	// White has four on row 1 with the fifth square empty: at tol 1 that
	// window's empty square is in the zone, at tol 0 it is not.
	white := []game.Square{r.Sq(0, 0), r.Sq(1, 0), r.Sq(2, 0), r.Sq(3, 0)}
	tr := &Tree{Move: game.NewMove(r.Sq(4, 4)), Six: true}
	z, err := CheckTree(context.Background(), r, black, white, game.Black, 0, tr)
	if err != nil || !slices.Equal(z, []game.Square{r.Sq(4, 4)}) {
		t.Fatalf("tol 0: zone %v, %v", z, err)
	}
	z, err = CheckTree(context.Background(), r, black, white, game.Black, 1, tr)
	if err != nil || !slices.Equal(z, []game.Square{r.Sq(4, 0), r.Sq(4, 4)}) {
		t.Fatalf("tol 1: zone %s, %v", squaresName(r, z), err)
	}
	// Not marked six: fine either way.
	tr.Six = false
	if _, err := CheckTree(context.Background(), r, black, white, game.Black, 0, tr); err != nil {
		t.Fatal(err)
	}
}

func TestCheckTreeInputErrors(t *testing.T) {
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	ctx := context.Background()
	tr := &Tree{Move: game.NewMove(1, 2)}
	for name, f := range map[string]func() error{
		"off board": func() error {
			_, err := CheckTree(ctx, r, []game.Square{81}, nil, game.Black, 0, tr)
			return err
		},
		"overlap": func() error {
			_, err := CheckTree(ctx, r, []game.Square{5}, []game.Square{5}, game.Black, 0, tr)
			return err
		},
		"attacker": func() error {
			_, err := CheckTree(ctx, r, nil, nil, game.Empty, 0, tr)
			return err
		},
		"nil tree": func() error {
			_, err := CheckTree(ctx, r, nil, nil, game.Black, 0, nil)
			return err
		},
		"occupied": func() error {
			_, err := CheckTree(ctx, r, []game.Square{1}, nil, game.Black, 0, tr)
			return err
		},
		"off-board move": func() error {
			_, err := CheckTree(ctx, r, nil, nil, game.Black, 0, &Tree{Move: game.NewMove(1, 500)})
			return err
		},
	} {
		if f() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Cancellation is reported as the context's error.
func TestCheckTreeCancelled(t *testing.T) {
	cases := solvedCases(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, sc := range cases {
		_, err := CheckTree(ctx, sc.r, sc.black, sc.white, sc.a, sc.tol, FromStrategy(sc.res.Tree))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
	}
}

type replyPath struct {
	nodes []int // reply indices from the root to the node
	reply int
}

// replyPaths yields, for every node with replies, each of its replies.
func replyPaths(tr *Tree) func(func(replyPath) bool) {
	return func(yield func(replyPath) bool) {
		var walk func(n *Tree, nodes []int) bool
		walk = func(n *Tree, nodes []int) bool {
			for i := range n.Replies {
				if !yield(replyPath{nodes: slices.Clone(nodes), reply: i}) {
					return false
				}
			}
			for i, r := range n.Replies {
				if r.Then != nil && !walk(r.Then, append(nodes, i)) {
					return false
				}
			}
			return true
		}
		walk(tr, nil)
	}
}

func nodeAt(tr *Tree, nodes []int) *Tree {
	for _, i := range nodes {
		tr = tr.Replies[i].Then
	}
	return tr
}

func cloneTree(t *Tree) *Tree {
	if t == nil {
		return nil
	}
	out := &Tree{Move: t.Move, Six: t.Six}
	for _, r := range t.Replies {
		out.Replies = append(out.Replies, Reply{Move: r.Move, Seminull: r.Seminull, Then: cloneTree(r.Then)})
	}
	return out
}

// enumerateHitting lists exactly the n-subsets of the empties that hit
// every window, in increasing order: compared with the plain enumeration
// of every subset, filtered, on random sets of empties and windows (boards
// of one to several 64-bit words, windows crossing the word boundaries).
func TestEnumerateHittingMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 623))
	for iter := 0; iter < 400; iter++ {
		size := []int{49, 64, 81, 130, 361}[rng.IntN(5)]
		var empties []game.Square
		for s := 0; s < size; s++ {
			if rng.IntN(4) != 0 {
				empties = append(empties, game.Square(s))
			}
		}
		var wins []zone
		for w := rng.IntN(4); w > 0; w-- {
			z := newZone(size)
			base := rng.IntN(size)
			for i := 0; i < 6; i++ {
				z.add(game.Square((base + i*(1+rng.IntN(20))) % size))
			}
			wins = append(wins, z)
		}
		n := 1 + rng.IntN(2)
		var want []game.Move
		for i := range empties {
			for j := i + 1; j <= len(empties); j++ {
				var m game.Move
				if n == 1 {
					if j > i+1 {
						break
					}
					m = game.NewMove(empties[i])
				} else {
					if j == len(empties) {
						break
					}
					m = game.NewMove(empties[i], empties[j])
				}
				ok := true
				for _, w := range wins {
					hit := false
					for k := 0; k < m.Len(); k++ {
						hit = hit || w.has(m.At(k))
					}
					ok = ok && hit
				}
				if ok {
					want = append(want, m)
				}
			}
		}
		var got []game.Move
		if err := enumerateHitting(empties, n, wins, size, func(m game.Move) error {
			got = append(got, m)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("iteration %d (size %d, n %d, %d windows): %d moves, want %d", iter, size, n, len(wins), len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("iteration %d: move %d is %v, want %v", iter, i, got[i], want[i])
			}
		}
	}
}
