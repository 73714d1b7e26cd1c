package autopilot

import (
	"c6book/internal/booktest"
	"c6book/internal/lambda3moves"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// onlyVerifier runs the real verifier on one position (its canonical key
// target) and gives up on every other one (a verdict that leaves every
// reply open: it proves nothing); it records every position asked.
type onlyVerifier struct {
	target uint64
	mu     sync.Mutex
	keys   []uint64
}

func (v *onlyVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	k, _ := b.CanonicalKey()
	v.mu.Lock()
	v.keys = append(v.keys, k)
	v.mu.Unlock()
	if k == v.target {
		return verify.Verify(ctx, b, opts, progress)
	}
	return verify.Verdict{Status: verify.StatusOpen, Lambda: opts.Lambda, Attacker: b.ToMove().Opp(), Tolerance: opts.Tolerance,
		AllUnsolved: true, Engine: verify.EngineVersion}, nil
}

// The screen picks a candidate the verifier proves when there is one: on
// small-board positions (fixed seed) where one of the first four attacker
// candidates, not the first, is a move the verifier proves (and the fake
// verifier proves nothing else), a run with the screen is proved by the
// screen alone, before the search runs a single job; the same run
// without the screen, one job, is not.
func TestScreenFindsTheProvedCandidate(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(33, 2))
	vo := verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}
	const screen = 4
	found := 0
	for try := 0; try < 40 && found < 2; try++ {
		line := game.FormatTurns(r, lambda3moves.RandomLine(rng, r, 4))
		// The candidates, as the auto-pilot lists them, and which of the
		// first four the real verifier proves.
		probe := booktest.NewBook(t, r)
		root := booktest.Add(t, probe, line)
		tr := newBookTree(probe, verify.LocalVerifier{}, ProveOptions{Attacker: game.Black, Candidates: screen, MaxCandidates: screen,
			Shapes: 8, Verify: vo})
		if _, err := tr.Expand(ctx, root); err != nil {
			t.Fatal(err)
		}
		cands := tr.cands[root]
		b, err := probe.Board(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		target, at := uint64(0), -1
		for i, c := range cands[:min(screen, len(cands))] {
			nb := b.Clone()
			if err := nb.Play(c.Move); err != nil {
				t.Fatal(err)
			}
			if nb.Winner() != game.Empty {
				continue
			}
			tol, _ := nb.DefenderDeficit(game.Black)
			o := vo
			o.Tolerance = tol
			vd, err := verify.Verify(ctx, nb, o, nil)
			if err != nil {
				t.Fatal(err)
			}
			if vd.Status == verify.StatusProved && i > 0 {
				// The last one of the four the verifier proves (not the
				// first: the search's first job would find that anyway).
				target, _ = nb.CanonicalKey()
				at = i
			}
		}
		probe.Close()
		if at < 0 {
			continue
		}
		found++
		for _, withScreen := range []bool{true, false} {
			bk := booktest.NewBook(t, r)
			id := booktest.Add(t, bk, line)
			fv := &onlyVerifier{target: target}
			opts := ProveOptions{Attacker: game.Black, Jobs: 1, MaxCalls: 1, Candidates: screen, MaxCandidates: screen, Shapes: 8, Verify: vo}
			if withScreen {
				opts.Screen, opts.ScreenNodes = screen, 3000
			}
			res, err := Prove(ctx, bk, id, fv, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			proved := res.Status == c6book.ProveProved
			switch {
			case withScreen && (!proved || res.Calls != 0 || res.ScreenProved != 1 || !slices.Contains(fv.keys, target)):
				t.Fatalf("%s: with the screen: %s after %d search calls, %d screened, %d proved by the screen; want proved by the screen (candidate %d)",
					line, res.Status, res.Calls, res.Screened, res.ScreenProved, at)
			case !withScreen && proved:
				t.Fatalf("%s: without the screen one job proved it: the test does not tell the screen's work", line)
			}
			booktest.MustCheck(t, bk)
			bk.Close()
		}
	}
	if found == 0 {
		t.Fatal("no position with a proved candidate after the first: the test checks nothing")
	}
}

// screenRank orders what a screen verdict leaves: proved, then open by
// the items the solvers gave up on (a seminull item twice an unsolved
// reply; items left for want of budget do not count), every reply open
// last.
func TestScreenRank(t *testing.T) {
	u := func(r threat.UnsolvedReason) c6book.Unsolved { return c6book.Unsolved{Reason: r} }
	budget := &c6book.Verdict{Status: c6book.StatusOpen, Unsolved: []c6book.Unsolved{u(threat.ReasonBudget), u(threat.ReasonBudget)}}
	oneHard := &c6book.Verdict{Status: c6book.StatusOpen, Unsolved: []c6book.Unsolved{u(threat.ReasonExhausted)}}
	semi := &c6book.Verdict{Status: c6book.StatusOpen, OpenSeminull: []c6book.Unsolved{u(threat.ReasonExhausted)}}
	all := &c6book.Verdict{Status: c6book.StatusOpen, AllUnsolved: true}
	order := []*c6book.Verdict{budget, oneHard, semi, all}
	for i := 1; i < len(order); i++ {
		p0, d0 := screenRank(order[i-1])
		p1, d1 := screenRank(order[i])
		if p0 > p1 || p0 == p1 && d0 <= d1 {
			t.Fatalf("rank %d (%d/%d) not before rank %d (%d/%d)", i-1, p0, d0, i, p1, d1)
		}
	}
}

// A sibling's proving move is offered in the position's own frame: White's
// replies a1b1 and h8g1 (canonical frames of their own) to Black's three
// on column d; a1b1 is answered by d7d8 (five in a row, proved); at h8g1
// the move siblingMoves offers, played on that position's canonical
// board, makes Black's five too.
func TestSiblingMovesFrame(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	for _, c := range []struct{ sib, other string }{
		{"a1b1", "h8g1"}, {"h1h2", "a8b7"}, {"b8c8", "g2h3"},
	} {
		bk := booktest.NewBook(t, r)
		booktest.Add(t, bk, "d4 c3e5 d5d6 "+c.sib+" d7d8")
		id := booktest.Add(t, bk, "d4 c3e5 d5d6 "+c.other)
		ms, err := siblingMoves(ctx, bk, id, game.Black)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 1 {
			t.Fatalf("%s: %d sibling moves, want 1 (d7d8 from %s)", c.other, len(ms), c.sib)
		}
		b, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Play(ms[0]); err != nil {
			t.Fatalf("%s: sibling move %s: %v", c.other, game.MoveName(r, ms[0]), err)
		}
		if b.Winner() != game.Black {
			t.Fatalf("%s: sibling move %s (the canonical frame) does not make Black's five: the frames are mixed up", c.other, game.MoveName(r, ms[0]))
		}
		bk.Close()
	}
}

// Expand may be called from several goroutines at once for different
// positions (the job search's workers) while Look runs on another: run
// under -race, every expansion adds its moves and each position's
// children are its own.
func TestExpandConcurrent(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	lines := []string{"e5 d4f6", "e5 c5e7", "e5 d5g3", "e5 e4h6"}
	var ids []PosID
	for _, l := range lines {
		id := booktest.Add(t, bk, l)
		if slices.Contains(ids, id) {
			t.Fatalf("%s: a position twice (symmetric lines)", l)
		}
		ids = append(ids, id)
	}
	tr := newBookTree(bk, verify.LocalVerifier{}, ProveOptions{Attacker: game.Black, Candidates: 3, MaxCandidates: 6, Shapes: 4,
		Screen: 2, ScreenNodes: 500, PlayerNodes: 2000, MaxPlayerNodes: 8000,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 2000}}})
	var wg sync.WaitGroup
	added := make([]int, len(ids))
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				n, err := tr.Expand(ctx, id)
				if err != nil {
					errs[i] = err
					return
				}
				added[i] += n
			}
		}()
	}
	for range 20 {
		for _, id := range ids {
			if _, err := tr.Look(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	wg.Wait()
	for i, id := range ids {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		kids, err := tr.orChildren(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if added[i] == 0 || len(kids) != added[i] {
			t.Fatalf("%s: %d moves added, %d children", lines[i], added[i], len(kids))
		}
	}
	booktest.MustCheck(t, bk)
}
