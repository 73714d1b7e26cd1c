package threat

import (
	"context"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
)

// singleThreatStats walks strategy st from b (attacker a to move) and
// counts its single-threat attacker moves, and among them those after
// which some defender move (a blocking stone and any free stone) makes a
// threat of the defender's own: the counter-threats the attacker must then
// answer. b is restored.
func singleThreatStats(b *board.Board, a game.Color, st *Strategy) (singles, counters int) {
	if st == nil || st.Six {
		return 0, 0
	}
	d := a.Opp()
	m := st.Move
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), a)
	}
	if st.Threats == 1 {
		singles++
		normal, _ := b.CriticalDefences(a)
		empties := b.StoneList(game.Empty)
	search:
		for _, blk := range normal {
			if blk.Len() != 1 {
				continue
			}
			b.Place(blk.At(0), d)
			for _, s2 := range empties {
				if b.At(s2) != game.Empty {
					continue
				}
				b.Place(s2, d)
				t := b.Threats(d)
				b.Remove(s2)
				if t > 0 {
					counters++
					b.Remove(blk.At(0))
					break search
				}
			}
			b.Remove(blk.At(0))
		}
	}
	for _, r := range st.Replies {
		for i := 0; i < r.Move.Len(); i++ {
			b.Place(r.Move.At(i), d)
		}
		s, c := singleThreatStats(b, a, r.Then)
		singles += s
		counters += c
		for i := r.Move.Len() - 1; i >= 0; i-- {
			b.Remove(r.Move.At(i))
		}
	}
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	return singles, counters
}

// counterFixtures are positions whose VCST proof holds a single-threat
// move after which the defender's free stone can make a threat of its own
// (found by scanning random positions once; fixed inputs, not answers).
var counterFixtures = []string{
	"9,9,5,2,1 B B a4 e4 a8 g9 W a1 g4 a6 a7 b7 d7 h8 a9",
	"9,9,5,2,1 W B f1 a3 c3 a4 e6 c9 d9 f9 W h2 b3 d5 c7",
	"9,9,5,2,1 W B a1 h1 g2 a4 i4 a5 a6 e8 W b4 f4 d6 f7",
	"9,9,5,2,1 B B f5 h8 i8 g9 W b1 i1 b4 h4 b6 b7 i7 h9",
	"9,9,5,2,1 B B e2 d4 c6 i9 W h1 d2 i2 i3 g4 f5 g7 c8",
	"9,9,5,2,1 B B i4 b5 h5 e7 W f3 b4 a5 g6 h7 i7 a8 i8",
	"9,9,5,2,1 W B a1 c1 b2 i3 d4 e7 b8 g9 W b3 g6 c7 h8",
	"9,9,5,2,1 B B e3 i3 h6 c8 W e2 g2 h2 i5 a7 b7 d8 h9",
	"9,9,5,2,1 B B c2 d3 c5 d5 W b1 e1 f1 e2 g4 h5 i7 a8",
	"8,8,5,2,1 B B h1 e6 g6 c8 W f1 b3 h4 c5 b6 a7 a8 b8",
	"8,8,5,2,1 B B a1 a5 c7 d7 W d1 f1 g1 h1 e3 h5 f7 c8",
	"8,8,5,2,1 W B f1 a2 f2 h5 f7 g7 h7 b8 W e1 b4 c4 f6",
	"8,8,5,2,1 W B c2 b3 b5 g5 b6 b7 h7 g8 W d3 c4 c5 e6",
	"8,8,5,2,1 B B b3 c5 d6 g6 W a1 h1 a2 a3 d3 a5 h5 a6",
	"8,8,5,2,1 B B d3 b4 f4 d5 W b1 g1 d2 g2 g3 d6 b7 a8",
	"8,8,5,2,1 W B e1 d2 b3 c3 a6 g6 c7 d8 W a3 g4 d5 e6",
	"8,8,5,2,1 B B d1 d2 e4 f8 W f2 h2 e5 f5 g5 h5 b7 c8",
	"8,8,5,2,1 W B a1 c2 d2 f2 h2 a3 b3 e7 W c3 f4 d6 g6",
	"8,8,5,2,1 W B c2 a3 a4 b5 a6 b7 h7 a8 W f2 c4 e4 g7",
	"8,8,5,2,1 B B e3 e4 b5 e7 W c3 b6 c6 e6 f6 h6 a7 f8",
}

// Single-threat wins where the defender can counter-threaten: each tree is
// replayed by CheckStrategy against every defender move, so the free stone
// after each single threat is tried on every square, including those where
// it makes a threat the attacker must answer before threatening again; all
// fixtures of this kind (the seminull and single-threat ones too), under
// both free-stone policies.
func TestVCSTSingleThreatTreesAgainstEveryDefence(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	all := append(append(append([]string(nil), counterFixtures...), seminullFixtures...), singleThreatFixtures...)
	trees, counters := 0, 0
	for _, fx := range all {
		b := parseFixture(t, fx)
		for _, free := range []board.FreePolicy{board.FreeNear, board.FreeAll} {
			res, err := Solve(ctx, b, Params{Mode: VCST, Free: free, Limits: Limits{MaxNodes: 100000}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Win {
				continue
			}
			if err := CheckStrategy(ctx, b, res.Tree, 3_000_000); err != nil {
				t.Fatalf("%s free=%d: claimed win is unsound: %v", fx, free, err)
			}
			s, c := singleThreatStats(b.Clone(), b.ToMove(), res.Tree)
			if s > 0 {
				trees++
			}
			if c > 0 {
				counters++
			}
		}
	}
	t.Logf("%d fixtures: %d trees with single-threat moves, %d where the free stone can counter-threaten; all pass CheckStrategy", len(all), trees, counters)
	if counters < len(counterFixtures) {
		t.Errorf("only %d trees where the free stone can counter-threaten: the fixtures no longer exercise it", counters)
	}
}

// A six made with one stone (the only empty square of a five) is a legal
// winning move: both modes play it, flag it Six, and the tree checks. With
// two empty squares the six takes two stones, also flagged.
func TestOneStoneSix(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		fx     string
		stones int
	}{
		{"19,19,6,2,1 B B j10 k10 l10 m10 n10 c3 W i10 a1 a2 a3 s19 s18", 1},
		{"19,19,6,2,1 B B j10 k10 l10 n10 o10 a3 W i10 p10 c7 c8 c9 d5", 1},
		{"19,19,6,2,1 B B j10 k10 l10 m10 c3 W i10 a1 a2 a3 s19", 2},
	} {
		b := parseFixture(t, tc.fx)
		for _, mode := range []Mode{VCDT, VCST} {
			res, err := Solve(ctx, b, Params{Mode: mode, Limits: Limits{MaxNodes: 1000}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Win || res.Tree == nil {
				t.Fatalf("%s %v: %v (%s), want a win", tc.fx, mode, res.Outcome, res.Reason)
			}
			if !res.Tree.Six || res.Move.Len() != tc.stones || res.Tree.Threats != b.Rules().P+1 || len(res.Tree.Replies) != 0 {
				t.Errorf("%s %v: move %s six=%v threats %d replies %d; want a %d-stone six", tc.fx, mode, game.MoveName(b.Rules(), res.Move), res.Tree.Six, res.Tree.Threats, len(res.Tree.Replies), tc.stones)
			}
			if err := CheckStrategy(ctx, b, res.Tree, 1000); err != nil {
				t.Errorf("%s %v: %v", tc.fx, mode, err)
			}
		}
	}
}

// Public position 1480902 is won by a single threat (k10 with a building
// stone) followed by double threats against every block and free stone;
// the capped stage finds it without the search spreading over lines of
// many single threats (the uncapped search needed more than 3M nodes).
func TestVCSTSingleThreatThenDoubleThreats(t *testing.T) {
	testenv.Heavy(t)
	b := enginetest.MustReplay(t, "j10 i11k11 k12l11 h11j13 i12j11 l13h13 i13h9 h12j9 i10m10 g8h10 j12h14 n9m12 g15f14 f16i14 h16i17 e13j18")
	ctx := context.Background()
	res, err := Solve(ctx, b, Params{Mode: VCST, Limits: Limits{MaxNodes: 1_500_000}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Win {
		t.Fatalf("no win within 1.5M nodes: %s after %d nodes", res.Reason, res.Nodes)
	}
	if res.Tree.Threats != 1 {
		t.Errorf("the win opens with %s, %d threats: want the single threat", game.MoveName(b.Rules(), res.Move), res.Tree.Threats)
	}
	if err := CheckStrategy(ctx, b, res.Tree, 5_000_000); err != nil {
		t.Fatalf("claimed win is unsound: %v", err)
	}
}
