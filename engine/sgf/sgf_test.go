package sgf

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

const littleGolemSGF = `(;FF[4]EV[connect6.ch.48.1.1]PB[alice]PW[bob]SO[http://www.littlegolem.com];B[j10];W[j11k10];B[l9k11];W[i9l11];B[j9i12];W[m9m10])`

func TestLittleGolemSGF(t *testing.T) {
	roots, err := ParseSGF(littleGolemSGF)
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 1 {
		t.Fatalf("%d game trees", len(roots))
	}
	if pb, _ := roots[0].Get("PB"); pb != "alice" {
		t.Fatalf("PB = %q", pb)
	}
	r, turns, err := GameFromSGF(roots[0], game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := game.ParseTurns(game.Connect6(), "j10 j11k10 l9k11 i9l11 j9i12 m9m10")
	if r != game.Connect6() || len(turns) != len(want) {
		t.Fatalf("rules %s, %d turns", r, len(turns))
	}
	for i := range want {
		if turns[i] != want[i] {
			t.Fatalf("turn %d: %s, want %s", i+1, game.MoveName(r, turns[i]), game.MoveName(r, want[i]))
		}
	}
	// Write it back and read it again: same rules, same turns, the extra
	// root properties kept.
	out := GameToSGF(r, turns, SGFProp{"PB", []string{"alice"}}, SGFProp{"C", []string{`a [comment] with \ and ]`}})
	// One stone per node in SGF points (j10 is jj, j11k10 is W[kj];W[ji]).
	if !strings.Contains(out, ";B[jj];W[kj];W[ji];B[") {
		t.Fatalf("GameToSGF does not write one SGF point per node: %s", out)
	}
	roots2, err := ParseSGF(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	r2, turns2, err := GameFromSGF(roots2[0], game.Rules{})
	if err != nil || r2 != r || len(turns2) != len(turns) {
		t.Fatalf("round trip: %v %v %d", err, r2, len(turns2))
	}
	for i := range turns {
		if turns2[i] != turns[i] {
			t.Fatalf("round trip turn %d", i+1)
		}
	}
	if c, _ := roots2[0].Get("C"); c != `a [comment] with \ and ]` {
		t.Fatalf("escaped value read back as %q", c)
	}
	if WriteSGF(roots2[0]) != out {
		t.Fatalf("WriteSGF(ParseSGF(x)) != x:\n%s\n%s", WriteSGF(roots2[0]), out)
	}
}

// Other rules travel in RU (and SZ); moves in SGF letter pairs are read too.
func TestSGFRulesAndLetterPairs(t *testing.T) {
	for _, r := range []game.Rules{{M: 9, N: 7, K: 5, P: 2, Q: 2}, {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 25, N: 25, K: 6, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}} {
		turns := []game.Move{game.NewMove(r.Sq(3, 3)), game.NewMove(r.Sq(0, 0), r.Sq(1, 1))}
		if r.Q == 2 {
			turns[0] = game.NewMove(r.Sq(3, 3), r.Sq(4, 4))
		}
		if r.P == 1 {
			turns[1] = game.NewMove(r.Sq(0, 0))
		}
		roots, err := ParseSGF(GameToSGF(r, turns))
		if err != nil {
			t.Fatal(err)
		}
		got, gt, err := GameFromSGF(roots[0], game.Connect6())
		if err != nil || got != r || len(gt) != 2 || gt[0] != turns[0] || gt[1] != turns[1] {
			t.Fatalf("%s: read back %s %v %v", r, got, gt, err)
		}
	}
	// SZ alone keeps Connect6's k, p, q; "m:n" is a rectangle.
	for sz, want := range map[string]game.Rules{"13": {M: 13, N: 13, K: 6, P: 2, Q: 1}, "15:11": {M: 15, N: 11, K: 6, P: 2, Q: 1}} {
		roots, err := ParseSGF("(;FF[4]SZ[" + sz + "])")
		if err != nil {
			t.Fatal(err)
		}
		if r, err := SGFRules(roots[0], game.Connect6()); err != nil || r != want {
			t.Fatalf("SZ[%s]: %v %v", sz, r, err)
		}
	}
	// Letter pairs, row a at the top: jj is j10 on 19x19; "jikj" = j11 k10.
	roots, err := ParseSGF("(;FF[4]SZ[19];B[jj];W[jikj];B[resign])")
	if err != nil {
		t.Fatal(err)
	}
	r, turns, err := GameFromSGF(roots[0], game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	if game.FormatTurns(r, turns) != "j10 k10j11" {
		t.Fatalf("letter pairs read as %q", game.FormatTurns(r, turns))
	}
}

func TestSGFVariationsAndCollections(t *testing.T) {
	roots, err := ParseSGF("(;FF[4];B[j10](;W[j11k10];B[a1a2])(;W[s1s2]))\n(;FF[4];B[a1])")
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 2 {
		t.Fatalf("%d roots", len(roots))
	}
	if n := roots[0].Children[0]; len(n.Children) != 2 {
		t.Fatalf("variation lost: %d children", len(n.Children))
	}
	r, turns, err := GameFromSGF(roots[0], game.Connect6())
	if err != nil || game.FormatTurns(r, turns) != "j10 k10j11 a1a2" {
		t.Fatalf("main line: %q %v", game.FormatTurns(r, turns), err)
	}
	// Writing keeps the variations.
	again, err := ParseSGF(WriteSGF(roots[0]))
	if err != nil || len(again[0].Children[0].Children) != 2 {
		t.Fatalf("WriteSGF lost the variation: %v\n%s", err, WriteSGF(roots[0]))
	}
	n := &SGFNode{}
	n.Set("X", "1")
	n.Set("X", "2", "3")
	if v, ok := n.Get("X"); !ok || v != "2" || len(n.Props) != 1 {
		t.Fatal("Set/Get")
	}
	if _, ok := n.Get("Y"); ok {
		t.Fatal("Get of a missing property")
	}
}

func TestSGFErrors(t *testing.T) {
	syntax := map[string]string{
		"":                        "no game tree",
		"   ":                     "no game tree",
		"(":                       "must start with a node",
		"()":                      "must start with a node",
		"(;B[j10]":                "missing ')'",
		"(;B[j10]))":              "unbalanced ')'",
		";B[j10]":                 "outside a game tree",
		"(;B[j10":                 "unterminated property value",
		"(;B)":                    "has no value",
		"(;1[2])":                 "unexpected",
		"(;FF[4]x)":               "bad property identifier",
		"(;ABCDEFGHIJKLMNOPQ[1])": "bad property identifier",
		"x(;B[j10])":              "unexpected",
	}
	for in, want := range syntax {
		_, err := ParseSGF(in)
		var se *SGFError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSGF(%q) = %v, want *SGFError containing %q", in, err, want)
		}
	}
	games := map[string]string{
		"(;FF[4];W[j10])":                 "B to move, but the node plays W",
		"(;FF[4];B[j10];W[j10k10])":       "occupied",
		"(;FF[4];B[j10k10])":              "wrong number of stones",
		"(;FF[4];B[t10])":                 "off the",
		"(;FF[4];B[tt])":                  "off the board",
		"(;FF[4];B[abc])":                 "bad move",
		"(;FF[4]SZ[x])":                   "bad SZ",
		"(;FF[4]SZ[40])":                  "out of range",
		"(;FF[4]SZ[3])":                   "does not fit",
		"(;FF[4];B[]))":                   "unbalanced",
		"(;FF[4];B[j10];W[])":             "wrong number of stones",
		"(;FF[4];B[j10];W[a1a2];B[a1a3])": "node 3",
	}
	for in, want := range games {
		roots, err := ParseSGF(in)
		if err == nil {
			_, _, err = GameFromSGF(roots[0], game.Connect6())
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", in, err, want)
		}
	}
}

// A turn of several stones written as a list of points (one value per
// stone) or as a compressed point list is one turn of all its stones; a
// move the reader cannot place exactly is an error, never a shorter turn.
func TestSGFListOfPoints(t *testing.T) {
	r := game.Connect6()
	want := "j10 a18a19 j8j9" // stones in square order
	for _, in := range []string{
		"(;GM[1]SZ[19];B[jj];W[aa][ab];B[jk][jl])",
		"(;GM[1]SZ[19];B[jj];W[aa:ab];B[jk:jl])",
		"(;GM[1]SZ[19];B[j10];W[a19][a18];B[j9][j8])",
		"(;GM[1]SZ[19];B[jj];W[aa] [ab];B[jl][j9])",
		"(;GM[1]SZ[19];B[jj];W[aaab];B[jkjl])",
	} {
		roots, err := ParseSGF(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		rr, turns, err := GameFromSGF(roots[0], r)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := game.FormatTurns(rr, turns); got != want {
			t.Errorf("%s read as %q, want %q", in, got, want)
		}
	}
	for in, msg := range map[string]string{
		"(;SZ[19];B[jj];W[aa][])":               "empty point",
		"(;SZ[19];B[jj];W[aa][a])":              "bad point",
		"(;SZ[19];B[jj];W[aa][zz])":             "off the board",
		"(;SZ[19];B[jj];W[aa][aa])":             "places a19 twice",
		"(;SZ[19];B[jj];W[aa][ab][ac])":         "wrong number of stones",
		"(;SZ[19];B[jj];W[aa][ab][ac][ad][ae])": "more than 4 stones",
		"(;SZ[19];B[jj];W[aa:cc])":              "9 points",
		"(;SZ[19];B[jj];W[aa:zz])":              "off the board",
		"(;SZ[19];B[jj];W[aa][resign])":         "bad point",
		"(;SZ[19];B[jj];W[aa]W[ab])":            "W twice in one node",
		"(;SZ[19];B[jj];W[aa]B[ab])":            "both a B and a W",
		"(;SZ[19]AB[jj];W[aa][ab])":             "set-up stones (AB)",
		"(;SZ[19];B[jj];AW[aa];B[ab][ac])":      "set-up stones (AW)",
		"(;SZ[19];B[jj]AE[jj];W[ab][ac])":       "set-up stones (AE)",
	} {
		roots, err := ParseSGF(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		for _, read := range []func(*SGFNode, game.Rules) (game.Rules, []game.Move, error){GameFromSGF, LineFromSGF} {
			_, turns, err := read(roots[0], r)
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s: turns %q, error %v; want an error containing %q", in, game.FormatTurns(r, turns), err, msg)
			}
		}
	}
	// An error quotes a long value cut short, on one line.
	roots, err := ParseSGF("(;SZ[19];B[" + strings.Repeat("j10", 100000) + "])")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := GameFromSGF(roots[0], r); err == nil || len(err.Error()) > 200 {
		t.Fatalf("error for a 300 kB move: %d bytes", len(fmt.Sprint(err)))
	}
}

// Proof lines with null ("-") and seminull (one stone) defender turns:
// Replay refuses them, ReplayPartial plays them, and they survive an SGF
// round trip through GameToSGF and LineFromSGF (GameFromSGF refuses them).
func TestPartialLines(t *testing.T) {
	r := game.Connect6()
	turns, err := game.ParseTurns(r, "j10 - k10k11 l12 m12m13")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := board.Replay(r, turns); !errors.Is(err, board.ErrStoneCount) {
		t.Fatalf("Replay of a null move: %v", err)
	}
	b, err := board.ReplayPartial(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	if b.ToMove() != game.White || b.Stones(game.Black) != 5 || b.Stones(game.White) != 1 || b.Turn() != 5 {
		t.Fatalf("after the partial line: %s to move, %d/%d stones, turn %d", b.ToMove(), b.Stones(game.Black), b.Stones(game.White), b.Turn())
	}
	roots, err := ParseSGF(GameToSGF(r, turns))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := GameFromSGF(roots[0], r); err == nil {
		t.Fatal("GameFromSGF read a null move as a game turn")
	}
	_, back, err := LineFromSGF(roots[0], r)
	if err != nil {
		t.Fatal(err)
	}
	if game.FormatTurns(r, back) != game.FormatTurns(r, turns) {
		t.Fatalf("round trip: %q, want %q", game.FormatTurns(r, back), game.FormatTurns(r, turns))
	}
	// Partial turns are still checked: occupied squares, too many stones.
	for _, bad := range []string{"j10 - j10", "j10 a1a2 b1b2c1"} {
		ms, err := game.ParseTurns(r, bad)
		if err == nil {
			_, err = board.ReplayPartial(r, ms)
		}
		if err == nil {
			t.Errorf("ReplayPartial(%q) accepted", bad)
		}
	}
}
