package proofcheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
)

type verdictCase struct {
	r            game.Rules
	b            *boardpkg.Board // defender to move
	black, white []game.Square
	lambda       int
	v            verify.Verdict
}

func (vc *verdictCase) String() string {
	return fmt.Sprintf("%v λ%d defender %v black=%s white=%s", vc.r, vc.lambda, vc.b.ToMove(),
		squaresName(vc.r, vc.black), squaresName(vc.r, vc.white))
}

var (
	verdictOnce  sync.Once
	verdictList  []*verdictCase
	verdictError string
)

// verdictCases runs the engine's verifier (λ2 and λ3, tolerance 0) on
// random small positions with the defender to move: some where the
// attacker has threat windows, some where it has none (the null move).
func verdictCases(t *testing.T) []*verdictCase {
	t.Helper()
	verdictOnce.Do(func() { verdictList, verdictError = computeVerdictCases() })
	if verdictError != "" {
		t.Fatal(verdictError)
	}
	return verdictList
}

func computeVerdictCases() ([]*verdictCase, string) {
	ctx := context.Background()
	var out []*verdictCase
	for ci, rc := range []struct {
		r      game.Rules
		nA, nD int
		n      int
		every  int // every every-th position the attacker has a threat window
	}{
		// Null-move verdicts cost hundreds of solver calls: on 6x6 they
		// stay cheap.
		{game.Rules{M: 6, N: 6, K: 4, P: 2, Q: 1}, 3, 3, 4, 2},
		{game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, 4, 4, 8, 1},
		{game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, 3, 3, 8, 2},
	} {
		rng := rand.New(rand.NewPCG(uint64(ci)+300, 5))
		for i := 0; i < rc.n; i++ {
			// randomPosition's side to move is the defender here; with
			// threatened, the attacker holds a threat window.
			b, _ := randomPosition(rng, rc.r, rc.nD, rc.nA, i%rc.every == 0)
			for _, lambda := range []int{2, 3} {
				v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 1500}}, nil)
				if err != nil {
					return nil, err.Error()
				}
				out = append(out, &verdictCase{r: rc.r, b: b, black: b.StoneList(game.Black), white: b.StoneList(game.White), lambda: lambda, v: v})
			}
		}
	}
	return out, ""
}

// Every verdict of the engine's verifier passes CheckVerdict, and every
// defender move is refuted by the certificate, listed as unsolved or
// contains an open seminull stone; the checker's zone is inside the
// engine's.
func TestVerifierVerdictsCheck(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	kinds := map[string]int{}
	for _, vc := range verdictCases(t) {
		c := FromVerdict(&vc.v)
		res, err := CheckVerdict(ctx, vc.r, vc.black, vc.white, vc.b.ToMove(), 0, c)
		if err != nil {
			t.Fatalf("%v: the checker rejects the verdict: %v", vc, err)
		}
		for _, s := range res.Zone {
			if !slices.Contains(vc.v.Zone, s) && !vc.v.AllUnsolved {
				t.Fatalf("%v: the checker's verdict zone has %s, the engine's does not", vc, game.SquareName(vc.r, s))
			}
		}
		switch {
		case vc.v.AllUnsolved:
			kinds["all-unsolved"]++
		case c.NullTree != nil:
			kinds["null"]++
		case len(c.Seminull) > 0:
			kinds["seminull"]++
		default:
			kinds["other"]++
		}
		if len(c.Unsolved) == 0 && len(c.OpenSeminull) == 0 && !c.AllUnsolved {
			kinds["proved"]++
		}
		if len(c.OpenSeminull) > 0 {
			kinds["open-seminull"]++
		}
		moves, refuted := 0, 0
		res.Moves(func(dm game.Move) bool {
			moves++
			if res.Refutes(dm) {
				refuted++
				return true
			}
			if c.AllUnsolved || slices.Contains(c.Unsolved, dm) {
				return true
			}
			for _, s := range c.OpenSeminull {
				if dm.Contains(s) {
					return true
				}
			}
			t.Fatalf("%v: defender move %s is neither refuted nor listed", vc, game.MoveName(vc.r, dm))
			return false
		})
		// Unrefuted enumerates exactly the moves of Moves that Refutes
		// does not account for.
		var un1, un2 []game.Move
		res.Moves(func(dm game.Move) bool {
			if !res.Refutes(dm) {
				un1 = append(un1, dm)
			}
			return true
		})
		res.Unrefuted(func(dm game.Move) bool { un2 = append(un2, dm); return true })
		if !slices.Equal(un1, un2) {
			t.Fatalf("%v: Unrefuted gives %d moves, Moves without the refuted %d", vc, len(un2), len(un1))
		}
		if !c.AllUnsolved && moves > 0 && refuted == 0 && len(res.wins) == 0 {
			t.Logf("%v: nothing refuted", vc)
		}
	}
	t.Logf("verdicts: %v", kinds)
	if kinds["null"] == 0 || kinds["seminull"] == 0 || kinds["proved"] == 0 || kinds["open-seminull"] == 0 {
		t.Errorf("the verdicts do not exercise every kind: %v", kinds)
	}
}

// Every move a certificate refutes really loses: the engine's exhaustive
// replay of the strategy the certificate names wins after it (the
// engine's own Argument picks it).
func TestRefutedMovesLose(t *testing.T) {
	ctx := context.Background()
	replays := 0
	for _, vc := range verdictCases(t) {
		c := FromVerdict(&vc.v)
		res, err := CheckVerdict(ctx, vc.r, vc.black, vc.white, vc.b.ToMove(), 0, c)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		res.Moves(func(dm game.Move) bool {
			if !res.Refutes(dm) || res.leavesThreat(dm) {
				return true
			}
			n++
			if n%7 != 0 { // a sample keeps the test short
				return true
			}
			st := refutingStrategy(c, res, dm)
			nb := vc.b.Clone()
			for i := 0; i < dm.Len(); i++ {
				nb.Place(dm.At(i), vc.b.ToMove())
			}
			nb.SetToMove(c.Attacker)
			replays++
			if err := threat.CheckStrategy(ctx, nb, ToStrategy(st), 1_000_000); err != nil {
				t.Fatalf("%v: refuted move %s survives: %v", vc, game.MoveName(vc.r, dm), err)
			}
			return true
		})
	}
	t.Logf("%d refuted moves replayed", replays)
	if replays < 20 {
		t.Errorf("only %d replays", replays)
	}
}

// refutingStrategy returns the certificate's strategy that refutes dm by
// the rules of Refutes.
func refutingStrategy(c *Cert, res *VerdictResult, dm game.Move) *Tree {
	for _, cv := range c.Covered {
		if cv.Move == dm {
			return cv.Tree
		}
	}
	for _, e := range c.Seminull {
		if !dm.Contains(e.Stone) {
			continue
		}
		ok := true
		for i := 0; i < dm.Len(); i++ {
			if x := dm.At(i); x != e.Stone && slices.Contains(e.Zone, x) {
				ok = false
			}
		}
		if ok {
			return e.Tree
		}
	}
	return c.NullTree
}

// Mutated certificates are rejected: a claimed null or seminull zone
// shrunk by one square of the computed zone, a dropped reply in a covered
// strategy, a wrong attacker, a seminull stone on an occupied square.
func TestVerdictMutationsRejected(t *testing.T) {
	ctx := context.Background()
	counts := map[string]int{}
	for _, vc := range verdictCases(t) {
		d := vc.b.ToMove()
		check := func(c *Cert) error {
			_, err := CheckVerdict(ctx, vc.r, vc.black, vc.white, d, 0, c)
			return err
		}
		base := FromVerdict(&vc.v)
		if base.AllUnsolved {
			continue
		}
		if base.NullTree != nil {
			zn, err := checkSubBoard(vc, nil, vc.r.P, base.NullTree)
			if err != nil {
				t.Fatal(err)
			}
			if len(zn) > 0 {
				c := FromVerdict(&vc.v)
				c.NullZone = slices.DeleteFunc(c.NullZone, func(s game.Square) bool { return s == zn[len(zn)/2] })
				err := check(c)
				if err == nil || !strings.Contains(err.Error(), "null zone misses square "+game.SquareName(vc.r, zn[len(zn)/2])) {
					t.Fatalf("%v: shrunk null zone: %v", vc, err)
				}
				counts["null zone"]++
			}
		}
		for i, e := range base.Seminull {
			zs, err := checkSubBoard(vc, []game.Square{e.Stone}, 1, e.Tree)
			if err != nil {
				t.Fatal(err)
			}
			if len(zs) == 0 {
				continue
			}
			c := FromVerdict(&vc.v)
			c.Seminull[i].Zone = slices.DeleteFunc(slices.Clone(e.Zone), func(s game.Square) bool { return s == zs[0] })
			if err := check(c); err == nil || !strings.Contains(err.Error(), "misses square "+game.SquareName(vc.r, zs[0])) {
				t.Fatalf("%v: shrunk seminull zone: %v", vc, err)
			}
			counts["seminull zone"]++
			break
		}
		for i, cv := range base.Covered {
			if cv.Tree == nil || len(cv.Tree.Replies) == 0 {
				continue
			}
			c := FromVerdict(&vc.v)
			c.Covered[i].Tree.Replies = nil
			err := check(c)
			if err == nil {
				continue // a strategy whose every reply loses at once needs none
			}
			if !strings.Contains(err.Error(), "covered move "+game.MoveName(vc.r, cv.Move)) {
				t.Fatalf("%v: covered without replies: %v", vc, err)
			}
			counts["covered replies"]++
			break
		}
		c := FromVerdict(&vc.v)
		c.Attacker = d
		if check(c) == nil {
			t.Fatalf("%v: wrong attacker accepted", vc)
		}
		if len(base.Seminull) > 0 {
			c := FromVerdict(&vc.v)
			c.Seminull[0].Stone = vc.black[0]
			if err := check(c); err == nil || !strings.Contains(err.Error(), "seminull "+game.SquareName(vc.r, vc.black[0])+": not an empty square") {
				t.Fatalf("%v: seminull on an occupied square: %v", vc, err)
			}
			counts["seminull stone"]++
		}
	}
	t.Logf("mutations rejected: %v", counts)
	if counts["null zone"] == 0 || counts["seminull zone"] == 0 || counts["covered replies"] == 0 {
		t.Errorf("not every mutation was tested: %v", counts)
	}
}

// checkSubBoard runs the tree checker on the verdict case's position plus
// defender stones def, at tolerance tol.
func checkSubBoard(vc *verdictCase, def []game.Square, tol int, tr *Tree) ([]game.Square, error) {
	black, white := vc.black, vc.white
	if vc.b.ToMove() == game.Black {
		black = append(slices.Clone(black), def...)
	} else {
		white = append(slices.Clone(white), def...)
	}
	return CheckTree(context.Background(), vc.r, black, white, vc.b.ToMove().Opp(), tol, tr)
}

// Verdicts at tolerance 1 (the verifier's Tolerance option) pass the
// checker with a zone inside the engine's, and the zone holds: with one
// extra defender stone anywhere outside it, every defender move the
// certificate refutes still loses to the strategy it names (replayed
// exhaustively by the engine's CheckStrategy, a sample of the moves).
func TestVerdictZonesHoldAtTolerance(t *testing.T) {
	ctx := context.Background()
	checked, replays := 0, 0
	for ci, rc := range []struct {
		r      game.Rules
		nA, nD int
		every  int
	}{
		{game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, 4, 4, 1},
		{game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, 3, 3, 2},
		{game.Rules{M: 6, N: 6, K: 4, P: 2, Q: 1}, 3, 3, 1},
	} {
		prng := rand.New(rand.NewPCG(uint64(ci)+700, 5))
		for i := 0; i < 6; i++ {
			b, d := randomPosition(prng, rc.r, rc.nD, rc.nA, i%rc.every == 0)
			v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Tolerance: 1, Workers: 1, Limits: threat.Limits{MaxNodes: 1500}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.AllUnsolved {
				continue
			}
			black, white := b.StoneList(game.Black), b.StoneList(game.White)
			c := FromVerdict(&v)
			res, err := CheckVerdict(ctx, rc.r, black, white, d, 1, c)
			if err != nil {
				t.Fatalf("%v black=%s white=%s: the checker rejects the tolerance-1 verdict: %v", rc.r, squaresName(rc.r, black), squaresName(rc.r, white), err)
			}
			for _, s := range res.Zone {
				if !slices.Contains(v.Zone, s) {
					t.Fatalf("%v: the checker's zone has %s, the engine's does not", rc.r, game.SquareName(rc.r, s))
				}
			}
			checked++
			in := zoneOf(rc.r.Squares(), res.Zone)
			var outside []game.Square
			for s := 0; s < rc.r.Squares(); s++ {
				if b.At(game.Square(s)) == game.Empty && !in.has(game.Square(s)) {
					outside = append(outside, game.Square(s))
				}
			}
			if len(outside) == 0 {
				continue
			}

			// Every square outside: one move leaving a threat window
			// without a stone, and a few others, sampled.
			for xi, extra := range outside {
				n, threatDone, sampled := 0, false, 0
				allMoves(res, func(dm game.Move) bool {
					if dm.Contains(extra) || !res.Refutes(dm) {
						return true
					}
					st := refutingStrategy(c, res, dm)
					if res.leavesThreat(dm) {
						if threatDone {
							return true
						}
						threatDone = true
						st = completeWindow(res, dm)
					} else {
						if n++; (n+xi)%3 != 0 || sampled == 4 {
							return true
						}
						sampled++
					}
					nb := b.Clone()
					nb.Place(extra, d)
					for i := 0; i < dm.Len(); i++ {
						nb.Place(dm.At(i), d)
					}
					nb.SetToMove(d.Opp())
					replays++
					if err := threat.CheckStrategy(ctx, nb, ToStrategy(st), 1_000_000); err != nil {
						t.Fatalf("%v black=%s white=%s: extra stone %s outside the verdict zone, move %s: %v", rc.r,
							squaresName(rc.r, black), squaresName(rc.r, white), game.SquareName(rc.r, extra), game.MoveName(rc.r, dm), err)
					}
					return true
				})
			}
		}
	}
	t.Logf("%d verdicts checked, %d replays with an extra stone", checked, replays)
	if checked < 8 || replays < 50 {
		t.Errorf("too few: %d verdicts, %d replays", checked, replays)
	}
}

// completeWindow is the attacker's six after a defender move that leaves
// a threat window without a stone: the window's empty squares.
func completeWindow(res *VerdictResult, dm game.Move) *Tree {
	for _, w := range res.wins {
		hit := false
		for i := 0; i < dm.Len(); i++ {
			hit = hit || w.has(dm.At(i))
		}
		if !hit {
			return &Tree{Move: game.NewMove(w.squares()...), Six: true}
		}
	}
	return nil
}

// allMoves calls f with every legal defender move on the verdict's
// position, hitting the threat windows or not.
func allMoves(res *VerdictResult, f func(game.Move) bool) {
	var empties []game.Square
	for s, c := range res.b.cells {
		if c == 0 {
			empties = append(empties, game.Square(s))
		}
	}
	enumerateHitting(empties, min(res.b.p, len(empties)), nil, len(res.b.cells), func(dm game.Move) error {
		if !f(dm) {
			return errStop
		}
		return nil
	})
}
