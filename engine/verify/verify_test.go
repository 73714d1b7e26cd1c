package verify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
	"c6book/engine/threat"
)

// verifyPosition returns a position with the defender to move, the attacker
// having just played: a threat move with at least minT threats (kind 0: two
// or more, kind 1: exactly one) or a quiet move next to its stones (kind 2).
// It returns nil when the random position offers no such move.
func verifyPosition(rng *rand.Rand, sc enginetest.SolverCase, kind int) *board.Board {
	nA, nD := sc.NA, sc.ND
	if kind == 2 {
		nA, nD = nA+4, nD-2 // a stronger attacker, so that quiet moves are proved too
	}
	b := enginetest.RandomSolverPosition(rng, sc.Rules, nA, nD)
	a := b.ToMove()
	d := a.Opp()
	var m game.Move
	if kind == 0 && sc.Rules.P == 1 {
		kind = 1 // one stone a turn: a threat move leaves one threat
	}
	switch kind {
	case 0, 1:
		var cands []game.Move
		for _, tm := range b.ThreatMoves(a, 1, board.FreeNear) {
			if tm.Threats > sc.Rules.P {
				continue // six or unstoppable: trivial
			}
			if (kind == 0) == (tm.Threats >= 2) {
				cands = append(cands, tm.Move)
			}
		}
		if len(cands) == 0 {
			return nil
		}
		m = cands[rng.IntN(len(cands))]
	default:
		if b.Threats(d) > 0 {
			return nil // the attacker would have to block: not quiet
		}
		var near []game.Square
		r := sc.Rules
		for s := range b.Rules().Squares() {
			c := b.At(game.Square(s))
			if c != game.Empty {
				continue
			}
			x, y := r.XY(game.Square(s))
			ok := false
			for dx := -1; dx <= 1 && !ok; dx++ {
				for dy := -1; dy <= 1; dy++ {
					if r.OnBoard(x+dx, y+dy) && b.At(r.Sq(x+dx, y+dy)) == a {
						ok = true
						break
					}
				}
			}
			if ok {
				near = append(near, game.Square(s))
			}
		}
		if len(near) < r.P {
			return nil
		}
		// Prefer a quiet move after which the null move loses to VCDT (a
		// λ2 candidate), so that quiet moves are proved too, not only open.
		for try := 0; try < 12; try++ {
			rng.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
			m = game.NewMove(near[:r.P]...)
			nb := b.Clone()
			for i := 0; i < m.Len(); i++ {
				nb.Place(m.At(i), a)
			}
			if nb.Winner() != game.Empty || nb.Threats(a) > 0 {
				continue
			}
			res, err := threat.Solve(context.Background(), nb, threat.Params{Mode: threat.VCDT, Tolerance: r.P, Limits: threat.Limits{MaxNodes: 2000}})
			if err == nil && res.Outcome == threat.Win {
				break
			}
		}
	}
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), a)
	}
	b.SetToMove(d)
	if b.Winner() != game.Empty || b.HasThreat(d) || b.Threats(a) > sc.Rules.P {
		return nil
	}
	return b
}

// checkVerdict checks a verdict by brute force: every defender move, all of
// them, is accounted for, and every move the verdict claims refuted is
// refuted by the strategy it names, replayed by CheckStrategy against every
// defender reply. It returns the count of moves per argument kind.
func checkVerdict(t *testing.T, ctx context.Context, b *board.Board, vd Verdict) map[string]int {
	t.Helper()
	r := b.Rules()
	a := b.ToMove().Opp()
	stat := map[string]int{}
	if vd.Status != StatusProved && vd.Status != StatusOpen {
		t.Fatalf("bad status %q", vd.Status)
	}
	if vd.Status == StatusProved && (vd.Order < 1 || vd.Order > 3) {
		t.Fatalf("proved with order %d", vd.Order)
	}
	if vd.Status == StatusOpen && (vd.AllUnsolved && vd.Order != 0 || !vd.AllUnsolved && (vd.Order < 1 || vd.Order > 3)) {
		t.Fatalf("open with order %d (all unsolved: %v)", vd.Order, vd.AllUnsolved)
	}
	if !vd.AllUnsolved {
		// The order by its definition (README, "Orders"): more than p
		// threats: 1; p threats: 1 unless a covered move needed a VCST;
		// 1..p-1 threats: 2; none: 2 with a VCDT null strategy, 3 with a
		// VCST one; an open seminull item makes it 3.
		want := 0
		th := b.Threats(a)
		switch {
		case th > r.P:
			want = 1
		case len(vd.OpenSeminull) > 0:
			want = 3
		case th == r.P:
			want = 1
			for _, c := range vd.Covered {
				if c.Mode == threat.VCST {
					want = 2
				}
			}
		case th >= 1:
			want = 2
		case vd.NullMode == threat.VCST:
			want = 3
		default:
			want = 2
		}
		if vd.Order != want {
			t.Fatalf("order %d, want %d (threats %d, null mode %v, open seminull %d)", vd.Order, want, th, vd.NullMode, len(vd.OpenSeminull))
		}
	}
	seen := map[game.Move]bool{}
	for _, u := range vd.Unsolved {
		if seen[u.Move] || u.Move.Len() != r.P || u.Reason == "" {
			t.Fatalf("bad unsolved entry %s (%q) or duplicate", game.MoveName(r, u.Move), u.Reason)
		}
		seen[u.Move] = true
	}
	fc := newFastChecker(a)
	sampled := map[string]int{}
	empt := b.StoneList(game.Empty)
	enginetest.ForEachCombo(empt, r.P, func(sq []game.Square) bool {
		dm := game.NewMove(sq...)
		kind, st := vd.Argument(b, dm)
		stat[kind]++
		nb := b.Clone()
		for _, s := range sq {
			nb.Place(s, a.Opp())
		}
		nb.SetToMove(a)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%v λ%d %s verdict, defender move %s (%s): "+format+"\n%s", append([]any{r, vd.Lambda, vd.Status, game.MoveName(r, dm), kind}, append(args, b.Diagram())...)...)
		}
		switch kind {
		case "":
			fail("the verdict does not account for this move")
		case ArgAllOpen, ArgUnsolved, ArgOpenSeminull:
			if vd.Status == StatusProved {
				fail("a proved verdict leaves a move open")
			}
			if kind == ArgUnsolved && !seen[dm] {
				fail("not in the unsolved list")
			}
		case ArgImmediate, ArgTrivial:
			if !nb.HasThreat(a) || nb.Winner() != game.Empty {
				fail("the attacker cannot make %d in a row at once", r.K)
			}
		case ArgExplicit, ArgSeminull, ArgNull:
			if st == nil {
				fail("no strategy")
			}
			if err := fc.check(nb, st); err != nil {
				fail("the strategy does not refute it: %v", err)
			}
			// CheckStrategy, the product's checker, on the first move of
			// each kind and then every 32nd.
			if sampled[kind]%32 == 0 {
				if err := threat.CheckStrategy(ctx, nb, st, 20_000_000); err != nil {
					fail("CheckStrategy: the strategy does not refute it: %v", err)
				}
			}
			sampled[kind]++
		default:
			fail("unknown argument kind")
		}
		return true
	})
	return stat
}

type verifyCase struct {
	sc      enginetest.SolverCase
	n       int // positions per λ
	maxNode int64
}

var verifyCases = []verifyCase{
	{enginetest.SolverCase{Rules: game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, NA: 4, ND: 4}, 9, 4000},
	{enginetest.SolverCase{Rules: game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, NA: 6, ND: 6}, 9, 4000},
}

// Verify is sound: for proved and open verdicts alike, every defender move
// (all of them) outside the unsolved list is refuted by the argument the
// verdict carries, checked against every defender reply.
func TestVerifySoundAgainstEveryDefence(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	for ci, vc := range verifyCases {
		rng := rand.New(rand.NewPCG(uint64(ci)+300, 11))
		stat := map[string]int{}
		for _, lambda := range []int{2, 3} {
			for i := 0; i < vc.n; {
				b := verifyPosition(rng, vc.sc, i%3)
				if b == nil {
					continue
				}
				i++
				vd, err := Verify(ctx, b, VerifyOptions{Lambda: lambda, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: 2}, nil)
				if err != nil {
					t.Fatal(err)
				}
				stat[[]string{"double", "single", "quiet"}[(i-1)%3]+"-"+string(vd.Status)]++
				if vd.Status == StatusProved {
					stat["order"+string(rune('0'+vd.Order))]++
				}
				for k, n := range checkVerdict(t, ctx, b, vd) {
					stat[k] += n
				}
			}
		}
		t.Logf("%v: %v", vc.sc.Rules, stat)
		if stat["quiet-proved"] == 0 || stat["quiet-open"] == 0 || stat["single-proved"] == 0 || stat[ArgNull] == 0 || stat[ArgExplicit] == 0 {
			t.Errorf("%v: the sample does not exercise proofs, open verdicts and zones: %v", vc.sc.Rules, stat)
		}
		if vc.sc.Rules.P > 1 && stat[ArgSeminull] == 0 {
			t.Errorf("%v: no seminull zone exercised: %v", vc.sc.Rules, stat)
		}
	}
}

// The verdict does not depend on the number of workers.
func TestVerifyWorkersDeterministic(t *testing.T) {
	ctx := context.Background()
	vc := verifyCases[1]
	rng := rand.New(rand.NewPCG(77, 5))
	compared := 0
	for i := 0; compared < 4; {
		b := verifyPosition(rng, vc.sc, i%3)
		if b == nil {
			continue
		}
		i++
		var vds [2]Verdict
		for k, w := range []int{1, 4} {
			vd, err := Verify(ctx, b, VerifyOptions{Lambda: 2 + i%2, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: w}, nil)
			if err != nil {
				t.Fatal(err)
			}
			vd.Elapsed = 0
			vds[k] = vd
		}
		if !reflect.DeepEqual(vds[0], vds[1]) {
			t.Fatalf("workers=1 and workers=4 differ:\n%+v\n%+v\n%s", vds[0], vds[1], b.Diagram())
		}
		// Two verifications at once sharing a gate of 2 slots (a worker's
		// jobs): each gives the verdict it gives alone.
		g := NewGate(2)
		var gated [2]Verdict
		var gerr [2]error
		var wg sync.WaitGroup
		for k := range gated {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				gated[k], gerr[k] = Verify(ctx, b.Clone(), VerifyOptions{Lambda: 2 + i%2, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: 4, Gate: g, Priority: int64(k)}, nil)
				gated[k].Elapsed = 0
			}(k)
		}
		wg.Wait()
		for k := range gated {
			if gerr[k] != nil {
				t.Fatal(gerr[k])
			}
			if !reflect.DeepEqual(vds[0], gated[k]) {
				t.Fatalf("workers=1 and a gated verification differ:\n%+v\n%+v\n%s", vds[0], gated[k], b.Diagram())
			}
		}
		compared++
	}
}

// Progress reports arrive while verifying, each naming one of the
// verifier's phases, and never after Verify returns; a cancelled context
// stops the verifier with the context's error.
func TestVerifyProgressAndCancel(t *testing.T) {
	vc := verifyCases[1]
	rng := rand.New(rand.NewPCG(91, 3))
	var b *board.Board
	for b == nil {
		b = verifyPosition(rng, vc.sc, 1)
	}
	var reports, after, unnamed atomic.Int64
	var returned atomic.Bool
	_, err := Verify(context.Background(), b, VerifyOptions{Limits: threat.Limits{MaxNodes: 2000}, Workers: 2}, func(p VerifyProgress) {
		reports.Add(1)
		if returned.Load() {
			after.Add(1)
		}
		if p.Phase != PhaseNull && p.Phase != PhaseSeminull && p.Phase != PhaseMoves {
			unnamed.Add(1)
		}
	})
	returned.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	if reports.Load() == 0 || after.Load() != 0 || unnamed.Load() != 0 {
		t.Fatalf("progress reports: %d, after return: %d, without a phase: %d", reports.Load(), after.Load(), unnamed.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, b, VerifyOptions{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled verify: err = %v", err)
	}
	if _, err := Verify(context.Background(), b, VerifyOptions{Lambda: 4}, nil); err == nil {
		t.Fatal("lambda 4 accepted")
	}
}

// fastChecker replays a strategy against every defender reply, like
// CheckStrategy, with one exact shortcut: when the defender has no threat
// window before its reply (checked), a reply with no stone on an empty
// square of the attacker's threat windows leaves a window intact, so the
// attacker makes k in a row at once; only the other replies are played
// out. Results are memoised by position and strategy node across calls,
// which is what makes checking every defender move of a verdict
// affordable.
type fastChecker struct {
	a    game.Color
	done map[fastKey]bool
}

func newFastChecker(a game.Color) *fastChecker {
	return &fastChecker{a: a, done: make(map[fastKey]bool)}
}

// check: b has the attacker to move; b is restored on return.
func (fc *fastChecker) check(b *board.Board, st *threat.Strategy) error {
	a, d := fc.a, fc.a.Opp()
	if b.Full(d) {
		return errors.New("the defender has already won")
	}
	if b.Full(a) {
		return nil
	}
	if st == nil {
		return errors.New("no attacker move in the tree")
	}
	h, k := b.Hashes()
	key := fastKey{h, k, st}
	if fc.done[key] {
		return nil
	}
	m := st.Move
	p := b.Rules().P
	for i := 0; i < m.Len(); i++ {
		if b.At(m.At(i)) != game.Empty {
			return fmt.Errorf("attacker move %s: occupied", game.MoveName(b.Rules(), m))
		}
	}
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), a)
	}
	defer func() {
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
	}()
	if b.Full(a) {
		fc.done[key] = true
		return nil
	}
	if m.Len() != p {
		return fmt.Errorf("short attacker move %s", game.MoveName(b.Rules(), m))
	}
	if b.HasThreat(d) {
		return fmt.Errorf("after %s the defender makes k in a row", game.MoveName(b.Rules(), m))
	}
	// T: the empties of the attacker's threat windows.
	var tset game.SqSet
	for _, tw := range b.ThreatWindows(a) {
		for _, s := range tw.Empties {
			tset.Add(s)
		}
	}
	empt := b.StoneList(game.Empty)
	n := p
	if len(empt) < n {
		return errors.New("the board fills up")
	}
	var err error
	enginetest.ForEachCombo(empt, n, func(sq []game.Square) bool {
		touches := tset.Len() == 0 // no threat window: every reply is played out
		for _, s := range sq {
			touches = touches || tset.Has(s)
		}
		if !touches {
			return true
		}
		for _, s := range sq {
			b.Place(s, d)
		}
		err = fc.reply(b, st, game.NewMove(sq...))
		for i := len(sq) - 1; i >= 0; i-- {
			b.Remove(sq[i])
		}
		if err != nil {
			err = fmt.Errorf("%s %s: %w", game.MoveName(b.Rules(), m), game.MoveName(b.Rules(), game.NewMove(sq...)), err)
		}
		return err == nil
	})
	if err == nil {
		fc.done[key] = true
	}
	return err
}

func (fc *fastChecker) reply(b *board.Board, st *threat.Strategy, dm game.Move) error {
	if b.Full(fc.a.Opp()) {
		return errors.New("the defender made k in a row")
	}
	if b.HasThreat(fc.a) {
		return nil
	}
	for i := range st.Replies {
		if r := &st.Replies[i]; !r.Seminull && r.Move == dm {
			return fc.check(b, r.Then)
		}
	}
	for i := range st.Replies {
		if r := &st.Replies[i]; r.Seminull && r.Move.Len() > 0 && dm.Contains(r.Move.At(0)) {
			return fc.check(b, r.Then)
		}
	}
	return errors.New("reply not covered by the tree")
}

// The fast checker is not blind: a strategy with a reply removed is
// rejected by it and by CheckStrategy alike.
func TestFastCheckerRejectsBrokenStrategies(t *testing.T) {
	ctx := context.Background()
	vc := verifyCases[1]
	rng := rand.New(rand.NewPCG(5, 55))
	broken := 0
	for tries := 0; broken < 5 && tries < 200; tries++ {
		b := verifyPosition(rng, vc.sc, 1)
		if b == nil {
			continue
		}
		vd, err := Verify(ctx, b, VerifyOptions{Limits: threat.Limits{MaxNodes: 2000}, Workers: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range vd.Covered {
			st := c.Tree
			if st == nil || len(st.Replies) == 0 || st.Replies[0].Then == nil || st.Replies[0].Then.Six {
				continue
			}
			// Keep the first reply only and remove its answer's replies:
			// some defender move is no longer answered.
			bad := &threat.Strategy{Move: st.Move, Threats: st.Threats, Zone: st.Zone,
				Replies: []threat.Reply{{Move: st.Replies[0].Move, Seminull: st.Replies[0].Seminull, Then: &threat.Strategy{Move: st.Replies[0].Then.Move}}}}
			nb := b.Clone()
			for i := 0; i < c.Move.Len(); i++ {
				nb.Place(c.Move.At(i), vd.Attacker.Opp())
			}
			nb.SetToMove(vd.Attacker)
			e1 := newFastChecker(vd.Attacker).check(nb, bad)
			e2 := threat.CheckStrategy(ctx, nb, bad, 20_000_000)
			if (e1 == nil) != (e2 == nil) {
				t.Fatalf("checkers disagree on a broken strategy: fast %v, CheckStrategy %v\n%s", e1, e2, nb.Diagram())
			}
			if e1 == nil {
				continue // the mutilated tree still wins: not a broken one
			}
			broken++
			break
		}
	}
	if broken == 0 {
		t.Fatal("no broken strategy was built")
	}
}

// A verdict at tolerance t holds with up to t extra defender stones placed
// anywhere outside its zone: every defender move the verdict refutes is
// still refuted, replayed against every defender reply on the board with
// the extra stones.
func TestVerifyToleranceZone(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	checked := map[int]int{}
	for ci, vc := range verifyCases {
		rng := rand.New(rand.NewPCG(uint64(ci)+900, 17))
		for i := 0; i < 8; {
			b := verifyPosition(rng, vc.sc, i%3)
			if b == nil {
				continue
			}
			i++
			tol := 1 + i%2
			vd, err := Verify(ctx, b, VerifyOptions{Lambda: 2 + i%2, Tolerance: tol, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if vd.Tolerance != tol {
				t.Fatalf("verdict tolerance %d, asked %d", vd.Tolerance, tol)
			}
			if vd.AllUnsolved {
				continue
			}
			zone := map[game.Square]bool{}
			for _, s := range vd.Zone {
				zone[s] = true
			}
			var outside []game.Square
			for _, s := range b.StoneList(game.Empty) {
				if !zone[s] {
					outside = append(outside, s)
				}
			}
			for try := 0; try < 2 && len(outside) >= tol; try++ {
				rng.Shuffle(len(outside), func(x, y int) { outside[x], outside[y] = outside[y], outside[x] })
				nb := b.Clone()
				for _, s := range outside[:tol] {
					nb.Place(s, b.ToMove())
				}
				checkVerdict(t, ctx, nb, vd)
				checked[tol]++
			}
		}
	}
	t.Logf("verdicts checked with extra stones outside the zone: %v", checked)
	if checked[1] == 0 || checked[2] == 0 {
		t.Errorf("no verdict checked at tolerance 1 and 2: %v", checked)
	}
}

// The prover runs in one frame: a position and its images under every
// board symmetry get the same verdict, mapped by the symmetry.
func TestVerifyOrientationIndependent(t *testing.T) {
	ctx := context.Background()
	vc := verifyCases[1]
	rng := rand.New(rand.NewPCG(515, 9))
	r := vc.sc.Rules
	for i := 0; i < 4; {
		b := verifyPosition(rng, vc.sc, i%3)
		if b == nil {
			continue
		}
		i++
		opts := VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: 2}
		base, err := Verify(ctx, b, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		base.Elapsed = 0
		for sym := 1; sym < r.SymmetryCount(); sym++ {
			vd, err := Verify(ctx, b.Transformed(sym), opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			vd.Elapsed = 0
			back := vd.Transform(r, game.InverseSymmetry(sym))
			if !reflect.DeepEqual(comparableVerdict(base), comparableVerdict(back)) {
				t.Fatalf("symmetry %d: verdict differs:\n%+v\n%+v\n%s", sym, comparableVerdict(base), comparableVerdict(back), b.Diagram())
			}
		}
	}
}

// comparable drops the fields that may differ between symmetric images of
// one verdict (the strategies' reply order).
func comparableVerdict(vd Verdict) Verdict {
	vd.NullTree = nil
	vd.Elapsed = 0
	for i := range vd.SeminullZones {
		vd.SeminullZones[i].Tree = nil
	}
	for i := range vd.Covered {
		vd.Covered[i].Tree = nil
	}
	return vd
}

// Orders known by brute force (README, "Orders"): with p threats, when
// every defence that blocks them all loses to a brute-force double-threat
// win (every attacker move leaves at least p threats) within two attacker
// moves, the verdict is of order 1; a verdict of order 1 has at least p
// threats; with fewer threats it is of order 2 or more.
func TestVerifyOrdersAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	for ci, vc := range verifyCases {
		rng := rand.New(rand.NewPCG(uint64(ci)+900, 13))
		r := vc.sc.Rules
		stat := map[string]int{}
		for i := 0; i < 2*vc.n; {
			b := verifyPosition(rng, vc.sc, i%3)
			if b == nil {
				continue
			}
			i++
			vd, err := Verify(ctx, b, VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: vc.maxNode}, Workers: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if vd.AllUnsolved {
				continue
			}
			a := vd.Attacker
			th := b.Threats(a)
			if vd.Order == 1 && th < r.P {
				t.Fatalf("%v: order 1 with %d threats\n%s", r, th, b.Diagram())
			}
			if th < r.P && vd.Order < 2 {
				t.Fatalf("%v: %d threats, order %d", r, th, vd.Order)
			}
			if th != r.P || vd.Status != StatusProved {
				stat[fmt.Sprintf("threats%d-order%d", th, vd.Order)]++
				continue
			}
			brute := true
			normal, _ := b.CriticalDefences(a)
			for _, dm := range normal {
				for j := 0; j < dm.Len(); j++ {
					b.Place(dm.At(j), a.Opp())
				}
				if !enginetest.BruteWin(b, a, 2, r.P) {
					brute = false
				}
				for j := dm.Len() - 1; j >= 0; j-- {
					b.Remove(dm.At(j))
				}
				if !brute {
					break
				}
			}
			stat[fmt.Sprintf("brute-vcdt-%v-order%d", brute, vd.Order)]++
			if brute && vd.Order != 1 {
				t.Fatalf("%v: every defence loses to a double-threat win within 2 moves, but order %d\n%s", r, vd.Order, b.Diagram())
			}
		}
		t.Logf("%v: %v", r, stat)
		if stat["brute-vcdt-true-order1"] == 0 {
			t.Errorf("%v: no order-1 verdict confirmed by brute force: %v", r, stat)
		}
	}
}

// fastKey is the key of fastChecker's done set: both hashes of the
// position and the strategy node.
type fastKey struct {
	hash, chk uint64
	st        *threat.Strategy
}
