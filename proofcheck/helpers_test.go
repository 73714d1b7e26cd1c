package proofcheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// randomPosition places nA attacker and nD defender stones at random
// (so that threats occur), attacker to move, nobody having won, the
// attacker without a threat window and the defender with at most p
// threats. With threatened, the defender holds a threat window (k-p
// stones of a random window are the defender's, on top of nD).
func randomPosition(rng *rand.Rand, r game.Rules, nA, nD int, threatened bool) (*boardpkg.Board, game.Color) {
	g := geometryOf(r)
	for {
		a := game.Black
		if rng.IntN(2) == 0 {
			a = game.White
		}
		d := a.Opp()
		used := map[game.Square]bool{}
		var ds []game.Square
		if threatened {
			w := g.win(rng.IntN(g.nwin))
			for _, i := range rng.Perm(len(w))[:r.K-r.P] {
				s := game.Square(w[i])
				used[s] = true
				ds = append(ds, s)
			}
		}
		pick := func(out []game.Square, n int) []game.Square {
			for i := 0; i < n; {
				s := game.Square(rng.IntN(r.Squares()))
				if !used[s] {
					used[s] = true
					out = append(out, s)
					i++
				}
			}
			return out
		}
		as := pick(nil, nA)
		ds = pick(ds, nD)
		black, white := as, ds
		if a == game.White {
			black, white = ds, as
		}
		b, err := boardpkg.SetUp(r, black, white, a)
		if err != nil {
			continue
		}
		if b.Winner() != game.Empty || b.Threats(d) > r.P || b.HasThreat(a) || b.HasThreat(d) != threatened {
			continue
		}
		return b, a
	}
}

// realCerts returns a few certificates built from the solver's
// strategies on the seminull fixtures (for the fuzzer's seeds): the
// strategy as a null tree with the engine's zone, its seminull replies as
// seminull entries and its full replies as covered moves.
func realCerts(tb testing.TB) []*Cert {
	var out []*Cert
	for _, fx := range seminullFixtures[:4] {
		b := parseFixture(tb, fx)
		res, err := threat.Solve(context.Background(), b, threat.Params{Mode: threat.VCST, Limits: threat.Limits{MaxNodes: 30000}})
		if err != nil || res.Outcome != threat.Win {
			continue
		}
		tr := FromStrategy(res.Tree)
		c := &Cert{Attacker: b.ToMove(), NullTree: tr, NullZone: res.Zone, Unsolved: []game.Move{tr.Move}}
		for _, r := range res.Tree.Replies {
			if r.Seminull {
				c.Seminull = append(c.Seminull, SeminullCert{Stone: r.Move.At(0), Zone: r.Then.Zone, Tree: FromStrategy(r.Then)})
				c.OpenSeminull = append(c.OpenSeminull, r.Move.At(0))
			} else {
				c.Covered = append(c.Covered, CoveredCert{Move: r.Move, Tree: FromStrategy(r.Then)})
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		tb.Fatal("no real certificates")
	}
	return out
}

// seminullFixtures are positions where VCST needs single threats and its
// proof holds seminull replies (the engine's own fixtures, copied:
// "rules to-move B squares… W squares…"; the side to move attacks).
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

// parseFixture reads a fixture into a board with its side to move.
func parseFixture(tb testing.TB, text string) *boardpkg.Board {
	if tb == nil {
		tb = panicTB{}
	}
	tb.Helper()
	f := strings.Fields(text)
	r, err := game.ParseRules(f[0])
	if err != nil {
		tb.Fatal(err)
	}
	toMove, err := game.ParseColor(f[1])
	if err != nil {
		tb.Fatal(err)
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
			tb.Fatal(err)
		}
		lists[c] = append(lists[c], s)
	}
	b, err := boardpkg.SetUp(r, lists[game.Black], lists[game.White], toMove)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// panicTB stands in for a testing.TB outside a test: Fatal panics.
type panicTB struct{ testing.TB }

func (panicTB) Helper()           {}
func (panicTB) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
