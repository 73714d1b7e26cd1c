package player

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
	"c6book/engine/threat"
)

// randomGame plays n random legal turns from the empty board (stones near
// the centre, so that rows form), stopping before a turn that would win or
// fill the board.
func randomGame(rng *rand.Rand, r game.Rules, n int) *board.Board {
	b := board.MustNewBoard(r)
	for t := 0; t < n; t++ {
		want := turnStones(b)
		if b.Empties() <= want {
			break
		}
		var sq []game.Square
		for tries := 0; len(sq) < want; tries++ {
			if tries > 10000 {
				return b // the box is full
			}
			x := r.M/2 + rng.IntN(r.M) - r.M/2
			y := r.N/2 + rng.IntN(r.N) - r.N/2
			if r.M > 9 {
				x = r.M/2 + rng.IntN(9) - 4
				y = r.N/2 + rng.IntN(9) - 4
			}
			s := r.Sq(x, y)
			if b.At(s) != game.Empty || game.NewMove(sq...).Contains(s) {
				continue
			}
			sq = append(sq, s)
		}
		m := game.NewMove(sq...)
		if err := b.Play(m); err != nil {
			panic(err)
		}
		if b.Winner() != game.Empty {
			_ = b.Undo()
			break
		}
	}
	return b
}

var playRuleSets = []game.Rules{
	{M: 19, N: 19, K: 6, P: 2, Q: 1},
	{M: 9, N: 9, K: 5, P: 2, Q: 1},
	{M: 8, N: 8, K: 4, P: 1, Q: 1},
	{M: 7, N: 7, K: 4, P: 3, Q: 1},
	{M: 10, N: 10, K: 6, P: 2, Q: 2},
	{M: 6, N: 6, K: 4, P: 2, Q: 1},
}

// Play returns a legal move on random positions of several rule sets, leaves
// the board as it was, makes k in a row when it can, and blocks the
// opponent's threat windows when they can be blocked.
func TestPlayLegalWinsAndBlocks(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	for ri, r := range playRuleSets {
		rng := rand.New(rand.NewPCG(uint64(ri)+7, 23))
		var wins, blocks int
		for i := 0; i < 25; i++ {
			b := randomGame(rng, r, rng.IntN(r.Squares()/(2*r.P)+2))
			if b.Winner() != game.Empty || b.Empties() == 0 {
				continue
			}
			key, hist := b.Key(), game.FormatTurns(r, b.History())
			res, err := Play(ctx, b, PlayOptions{MaxNodes: 4000})
			if err != nil {
				t.Fatalf("%v %q: %v", r, hist, err)
			}
			if b.Key() != key || game.FormatTurns(r, b.History()) != hist {
				t.Fatalf("%v %q: Play changed the board", r, hist)
			}
			if err := b.Check(res.Move, false); err != nil {
				t.Fatalf("%v %q: illegal move %s: %v", r, hist, game.MoveName(r, res.Move), err)
			}
			c, d := b.ToMove(), b.ToMove().Opp()
			nb := b.Clone()
			if err := nb.Play(res.Move); err != nil {
				t.Fatal(err)
			}
			switch {
			case b.HasThreat(c):
				wins++
				if nb.Winner() != c {
					t.Errorf("%v %q: %s to move makes k in a row, but plays %s", r, hist, c, game.MoveName(r, res.Move))
				}
			case b.Threats(d) > 0 && b.Threats(d) <= turnStones(b):
				blocks++
				if nb.HasThreat(d) {
					t.Errorf("%v %q: %s must block, but %s leaves a threat window", r, hist, c, game.MoveName(r, res.Move))
				}
			}
		}
		t.Logf("%v: %d wins at once, %d blocks", r, wins, blocks)
	}
}

// movesOf calls f with every set of n empty squares of b until f returns
// false.
func movesOf(b *board.Board, n int, f func(game.Move) bool) {
	enginetest.ForEachCombo(b.StoneList(game.Empty), n, func(sq []game.Square) bool { return f(game.NewMove(sq...)) })
}

// winsInTwo reports, by exhaustive search, whether m (by the side to move)
// wins within two turns: it makes k in a row, or after every reply of the
// opponent that does not win, the mover makes k in a row at once.
func winsInTwo(b *board.Board, m game.Move) bool {
	c := b.ToMove()
	nb := b.Clone()
	if err := nb.Play(m); err != nil {
		return false
	}
	if nb.Winner() == c {
		return true
	}
	if nb.Empties() == 0 || !nb.HasThreat(c) {
		return false
	}
	ok := true
	movesOf(nb, min(nb.Rules().P, nb.Empties()), func(reply game.Move) bool {
		for i := 0; i < reply.Len(); i++ {
			nb.Place(reply.At(i), c.Opp())
		}
		if nb.Full(c.Opp()) || !nb.HasThreat(c) {
			ok = false
		}
		for i := reply.Len() - 1; i >= 0; i-- {
			nb.Remove(reply.At(i))
		}
		return ok
	})
	return ok
}

// wonInTwo reports whether some move of the side to move wins within two
// turns (exhaustive).
func wonInTwo(b *board.Board) bool {
	won := false
	movesOf(b, turnStones(b), func(m game.Move) bool {
		won = winsInTwo(b, m)
		return !won
	})
	return won
}

// On small boards, every position that exhaustive search shows is won
// within two turns, Play answers with a move that wins within two turns
// (the solvers run for p <= 2).
func TestPlayWinsWithinTwoTurns(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	cases := []struct {
		r      game.Rules
		nA, nD int
	}{
		{game.Rules{M: 7, N: 7, K: 5, P: 2, Q: 1}, 5, 5},
		{game.Rules{M: 6, N: 6, K: 4, P: 2, Q: 1}, 3, 4},
		{game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, 4, 4},
		{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, 6, 6},
	}
	for ci, tc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+101, 5))
		won, quiet := 0, 0
		for tries := 0; won < 20 && tries < 400; tries++ {
			var b *board.Board
			if tries%2 == 0 {
				b = enginetest.RandomSolverPosition(rng, tc.r, tc.nA, tc.nD)
			} else {
				b = enginetest.RandomSolverPositionOpt(rng, tc.r, tc.nA, tc.nD, true)
			}
			if !wonInTwo(b) {
				continue
			}
			won++
			if !b.HasThreat(b.ToMove()) {
				quiet++
			}
			res, err := Play(ctx, b, PlayOptions{MaxNodes: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if !winsInTwo(b, res.Move) {
				t.Errorf("%v: won within two turns, but Play chose %s (%s)\n%s", tc.r, game.MoveName(tc.r, res.Move), res.Reason, b.Diagram())
			}
		}
		t.Logf("%v: %d positions won within two turns (%d not at once)", tc.r, won, quiet)
		if quiet == 0 {
			t.Errorf("%v: no position needs two turns: adjust the generator", tc.r)
		}
	}
}

// When the threat-space solver finds a win, Play plays a win and its proof
// checks against every defence.
func TestPlayPlaysSolverWins(t *testing.T) {
	ctx := context.Background()
	cases := []enginetest.SolverCase{
		{Rules: game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, NA: 4, ND: 6},
		{Rules: game.Rules{M: 11, N: 11, K: 6, P: 2, Q: 1}, NA: 13, ND: 12},
		{Rules: game.Rules{M: 10, N: 10, K: 6, P: 2, Q: 1}, NA: 7, ND: 7},
	}
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+1, 42))
		wins := 0
		for i := 0; i < 24; i++ {
			b := enginetest.RandomSolverPosition(rng, sc.Rules, sc.NA, sc.ND)
			sr, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCDT, Limits: threat.Limits{MaxNodes: 5000}})
			if err != nil {
				t.Fatal(err)
			}
			if sr.Outcome != threat.Win {
				continue
			}
			wins++
			res, err := Play(ctx, b, PlayOptions{MaxNodes: 40000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != "vcdt" && res.Reason != "vcst" || res.Proof == nil || res.Proof.Move != res.Move {
				t.Fatalf("%v: the solver wins with %s, Play chose %s (%s)\n%s", sc.Rules, game.MoveName(sc.Rules, sr.Move), game.MoveName(sc.Rules, res.Move), res.Reason, b.Diagram())
			}
			if err := threat.CheckStrategy(ctx, b, res.Proof, 2_000_000); err != nil {
				t.Fatalf("%v: Play's win is unsound: %v", sc.Rules, err)
			}
		}
		t.Logf("%v: %d solver wins", sc.Rules, wins)
		if wins == 0 {
			t.Errorf("%v: no solver win: adjust the generator", sc.Rules)
		}
	}
}

// A move Play chooses by search loses to a VCDT only when every move it
// checked does; the opponent's VCDT after the move is searched with the
// player's own limit.
func TestPlayAvoidsVCDTLosses(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(77, 1))
	checked, avoided := 0, 0
	for i := 0; i < 40; i++ {
		b := enginetest.RandomSolverPosition(rng, r, 4, 8) // the side to move has fewer stones
		if b.Threats(b.ToMove().Opp()) > 0 {
			continue
		}
		res, err := Play(ctx, b, PlayOptions{MaxNodes: 200000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != "search" && res.Reason != "lost" {
			continue
		}
		checked++
		for _, c := range res.Candidates[1:] {
			if c.Loses {
				avoided++
				break
			}
		}
		nb := b.Clone()
		nb.Place(res.Move.At(0), b.ToMove())
		nb.Place(res.Move.At(1), b.ToMove())
		nb.SetToMove(b.ToMove().Opp())
		sr, err := threat.Solve(ctx, nb, threat.Params{Mode: threat.VCDT, Limits: threat.Limits{MaxNodes: 50000}})
		if err != nil {
			t.Fatal(err)
		}
		if sr.Outcome == threat.Win && res.Reason != "lost" {
			t.Errorf("Play's move %s loses to a VCDT (%s) and Play does not say every move checked does (%s)\n%s", game.MoveName(r, res.Move), game.FormatTurns(r, sr.Line), res.Reason, b.Diagram())
		}
	}
	t.Logf("%d positions searched, %d where the best-ranked move lost and another was played", checked, avoided)
}

// The same budget gives the same answer; a cancelled context stops Play with
// its error; a finished game is refused.
func TestPlayDeterministicAndCancellable(t *testing.T) {
	b, err := board.ReplayText(game.Connect6(), "j10 i9k9 j8h9 i8k8")
	if err != nil {
		t.Fatal(err)
	}
	r1, err := Play(context.Background(), b, PlayOptions{MaxNodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Play(context.Background(), b, PlayOptions{MaxNodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Move != r2.Move || r1.Nodes != r2.Nodes || game.FormatTurns(b.Rules(), r1.PV) != game.FormatTurns(b.Rules(), r2.PV) {
		t.Errorf("two runs differ: %s %d %q, %s %d %q", game.MoveName(b.Rules(), r1.Move), r1.Nodes, game.FormatTurns(b.Rules(), r1.PV), game.MoveName(b.Rules(), r2.Move), r2.Nodes, game.FormatTurns(b.Rules(), r2.PV))
	}
	if len(r1.Candidates) < 2 || r1.PV[0] != r1.Move {
		t.Errorf("want ranked candidates and a PV from the move, got %d, %q", len(r1.Candidates), game.FormatTurns(b.Rules(), r1.PV))
	}
	var reports atomic.Int64
	r3, err := Play(context.Background(), b, PlayOptions{MaxNodes: 3000, ProgressEvery: time.Nanosecond, Progress: func(p PlayProgress) {
		reports.Add(1)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if reports.Load() == 0 || r3.Nodes == 0 {
		t.Errorf("no progress report (%d nodes)", r3.Nodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Play(ctx, b, PlayOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
	won, err := board.ReplayText(game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, "d4 a1 d5 a2 d6 a3 d7")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Play(context.Background(), won, PlayOptions{MaxNodes: 100}); err == nil {
		t.Error("a finished game: want an error")
	}
}

// The rule Play's zone uses: when the opponent wins by VCDT after a null
// move, every move with no stone in that win's relevance zone (at
// tolerance p) that leaves no threat still loses to a VCDT. Checked by the
// solver on every such move of random small-board positions.
func TestPlayNullMoveZoneRule(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(5, 23))
	positions, checked := 0, 0
	for i := 0; i < 200 && positions < 6; i++ {
		b := enginetest.RandomSolverPosition(rng, r, 5, 5)
		c, d := b.ToMove(), b.ToMove().Opp()
		if b.Threats(d) > 0 || b.HasThreat(c) {
			continue
		}
		nb := b.Clone()
		nb.SetToMove(d)
		nr, err := threat.Solve(ctx, nb, threat.Params{Mode: threat.VCDT, Tolerance: r.P, Limits: threat.Limits{MaxNodes: 20000}})
		if err != nil {
			t.Fatal(err)
		}
		if nr.Outcome != threat.Win {
			continue
		}
		positions++
		zone := make([]bool, r.Squares())
		for _, s := range nr.Zone {
			zone[s] = true
		}
		n := 0
		movesOf(b, r.P, func(m game.Move) bool {
			if touches(m, zone) || n >= 40 {
				return n < 40
			}
			mb := b.Clone()
			if err := mb.Play(m); err != nil {
				t.Fatal(err)
			}
			if mb.HasThreat(c) {
				return true
			}
			n++
			sr, err := threat.Solve(ctx, mb, threat.Params{Mode: threat.VCDT, Limits: threat.Limits{MaxNodes: 200000}})
			if err != nil {
				t.Fatal(err)
			}
			if sr.Outcome != threat.Win {
				t.Errorf("%s outside the null move's zone %v does not lose to a VCDT (%s)\n%s", game.MoveName(r, m), nr.Zone, sr.Reason, b.Diagram())
				return false
			}
			return true
		})
		checked += n
	}
	t.Logf("%d positions with a null-move VCDT, %d moves outside its zone checked", positions, checked)
	if positions == 0 || checked == 0 {
		t.Error("no position or move to check: adjust the generator")
	}
}

// The tempo of the player's evaluation: the side to move's open three
// (one turn from a double threat) outweighs two open threes of the
// opponent, which it can block first; evalFor, without the tempo, says the
// opposite.
func TestPlayEvalTempo(t *testing.T) {
	b := board.MustNewBoard(game.Connect6())
	for _, s := range []string{"c3", "d3", "e3"} {
		b.Place(mustSquare(t, b.Rules(), s), game.Black)
	}
	for _, s := range []string{"c10", "d10", "e10", "n16", "o16", "p16"} {
		b.Place(mustSquare(t, b.Rules(), s), game.White)
	}
	if v := playEval(b, game.Black); v <= 0 {
		t.Errorf("Black to move with a three against two: playEval %v, want > 0", v)
	}
	if v := playEval(b, game.White); v <= 0 {
		t.Errorf("White to move with two threes against one: playEval %v, want > 0", v)
	}
	if v := evalFor(b, game.Black); v >= 0 {
		t.Errorf("evalFor without tempo: %v, want < 0 (else this test shows nothing)", v)
	}
}

func mustSquare(t *testing.T, r game.Rules, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(r, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
