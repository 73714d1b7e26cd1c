package verify

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// A λ3 verdict does not solve the full moves that contain an open seminull
// stone: on random small-board positions (fixed seeds) it equals the
// verdict that solves them, except that those moves leave Unsolved and
// Covered (the open item stands for them); every other move has the same
// argument (no failure turned into a win or a win into a failure), and the
// verdict passes the brute-force soundness check.
func TestVerifyOpenSeminullMovesSkipped(t *testing.T) {
	ctx := context.Background()
	vc := verifyCases[1] // p = 2: seminull moves exist
	r := vc.sc.Rules
	rng := rand.New(rand.NewPCG(2424, 7))
	stat := map[string]int{}
	n := 24
	if testing.Short() {
		n = 6
	}
	for i := 0; i < n; {
		b := verifyPosition(rng, vc.sc, 2)
		if b == nil {
			continue
		}
		i++
		opts := VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: vc.maxNode / 8}, Workers: 2}
		got, err := Verify(ctx, b, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts.solveOpenSeminullMoves = true
		want, err := Verify(ctx, b, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		open := map[game.Square]bool{}
		for _, u := range want.OpenSeminull {
			open[u.Move.At(0)] = true
		}
		hasOpen := func(m game.Move) bool {
			for j := 0; j < m.Len(); j++ {
				if open[m.At(j)] {
					return true
				}
			}
			return false
		}
		if len(open) > 0 {
			stat["open-items"]++
		}
		// The parts of the verdict that do not depend on those moves.
		for _, f := range []struct {
			name string
			x, y any
		}{
			{"status", got.Status, want.Status}, {"order", got.Order, want.Order},
			{"all-unsolved", got.AllUnsolved, want.AllUnsolved}, {"open seminull", got.OpenSeminull, want.OpenSeminull},
			{"null zone", got.NullZone, want.NullZone}, {"seminull zones", got.SeminullZones, want.SeminullZones},
		} {
			if !reflect.DeepEqual(f.x, f.y) {
				t.Fatalf("%s differs: %v, want %v\n%s", f.name, f.x, f.y, b.Diagram())
			}
		}
		var wantU []UnsolvedMove
		for _, u := range want.Unsolved {
			if hasOpen(u.Move) {
				stat["skipped-unsolved"]++
				continue
			}
			wantU = append(wantU, u)
		}
		var wantC []CoveredMove
		for _, c := range want.Covered {
			if hasOpen(c.Move) {
				stat["skipped-covered"]++
				continue
			}
			wantC = append(wantC, c)
		}
		if !reflect.DeepEqual(got.Unsolved, wantU) {
			t.Fatalf("unsolved %v, want %v\n%s", got.Unsolved, wantU, b.Diagram())
		}
		if !reflect.DeepEqual(got.Covered, wantC) {
			t.Fatalf("covered differ (%d, want %d)\n%s", len(got.Covered), len(wantC), b.Diagram())
		}
		if got.Calls > want.Calls || got.Nodes > want.Nodes {
			t.Fatalf("more work: %d calls %d nodes, want at most %d, %d", got.Calls, got.Nodes, want.Calls, want.Nodes)
		}
		// Every defender move: the same argument, but for the moves
		// that contain an open stone, which the item accounts for.
		d := got.Attacker.Opp()
		for _, dm := range defenderMoves(b, d) {
			gk, _ := got.Argument(b, dm)
			wk, _ := want.Argument(b, dm)
			switch {
			case gk == "":
				t.Fatalf("move %s not accounted for\n%s", game.MoveName(r, dm), b.Diagram())
			case hasOpen(dm) && gk != wk:
				if gk != ArgOpenSeminull || (wk != ArgUnsolved && wk != ArgOpenSeminull) {
					t.Fatalf("move %s: %s, want %s\n%s", game.MoveName(r, dm), gk, wk, b.Diagram())
				}
				stat["open-move-"+wk]++
			case gk != wk:
				t.Fatalf("move %s: %s, want %s\n%s", game.MoveName(r, dm), gk, wk, b.Diagram())
			}
		}
		checkVerdict(t, ctx, b, got)
	}
	t.Logf("%v", stat)
	if stat["open-items"] == 0 || stat["skipped-unsolved"] == 0 {
		t.Errorf("the sample has no open seminull item with a skipped move: %v", stat)
	}
}

// defenderMoves lists every full defender move on b (p stones, or fewer
// when fewer squares are empty).
func defenderMoves(b *board.Board, d game.Color) []game.Move {
	var empt []game.Square
	for s := range b.Rules().Squares() {
		c := b.At(game.Square(s))
		if c == game.Empty {
			empt = append(empt, game.Square(s))
		}
	}
	var out []game.Move
	if b.Rules().P == 1 || len(empt) < 2 {
		for _, s := range empt {
			out = append(out, game.NewMove(s))
		}
		return out
	}
	for i := range empt {
		for j := i + 1; j < len(empt); j++ {
			out = append(out, game.NewMove(empt[i], empt[j]))
		}
	}
	return out
}
