package board

import (
	"strings"
	"testing"

	"c6book/engine/game"
)

func TestSquareNames(t *testing.T) {
	for _, r := range []game.Rules{game.Connect6(), {M: 26, N: 26, K: 6, P: 2, Q: 1}, {M: 9, N: 7, K: 5, P: 2, Q: 1}} {
		for s := game.Square(0); int(s) < r.Squares(); s++ {
			name := game.SquareName(r, s)
			got, err := game.ParseSquare(r, name)
			if err != nil || got != s {
				t.Fatalf("%s: ParseSquare(%q) = %d, %v; want %d", r, name, got, err, s)
			}
			got, err = game.ParseSquare(r, strings.ToUpper(name))
			if err != nil || got != s {
				t.Fatalf("%s: ParseSquare(%q) = %d, %v", r, strings.ToUpper(name), got, err)
			}
		}
	}
	r := game.Connect6()
	fixed := map[string][2]int{"a1": {0, 0}, "s19": {18, 18}, "j10": {9, 9}, "J10": {9, 9}, "i9": {8, 8}, " k11 ": {10, 10}, "a19": {0, 18}}
	for text, xy := range fixed {
		s, err := game.ParseSquare(r, text)
		if err != nil || s != r.Sq(xy[0], xy[1]) {
			t.Errorf("ParseSquare(%q) = %v, %v; want column %d row %d", text, s, err, xy[0], xy[1])
		}
	}
	if game.SquareName(r, r.Sq(8, 8)) != "i9" {
		t.Error("the letter i must not be skipped")
	}
	if game.SquareName(r, game.NoSquare) != "?-1" || game.SquareName(r, 361) != "?361" {
		t.Error("SquareName of an invalid square")
	}
	bad := map[string]string{
		"":       "empty",
		"j":      "missing row",
		"10":     "column must be a letter",
		"j0":     "off the 19x19 board",
		"t10":    "off the 19x19 board",
		"j20":    "off the 19x19 board",
		"j10x":   "unexpected",
		"j10000": "bad row",
		"é1":     "column must be a letter",
	}
	for text, want := range bad {
		_, err := game.ParseSquare(r, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSquare(%q) = %v, want error containing %q", text, err, want)
		}
	}
}

func TestMoveNotation(t *testing.T) {
	r := game.Connect6()
	cases := map[string]game.Move{
		"j10":    game.NewMove(r.Sq(9, 9)),
		"J10":    game.NewMove(r.Sq(9, 9)),
		"j11k10": game.NewMove(r.Sq(9, 10), r.Sq(10, 9)),
		"K10J11": game.NewMove(r.Sq(9, 10), r.Sq(10, 9)),
		"a1s19":  game.NewMove(r.Sq(0, 0), r.Sq(18, 18)),
		"-":      {},
		" - ":    {},
	}
	for text, want := range cases {
		m, err := game.ParseMove(r, text)
		if err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v", text, m.Squares(), err)
			continue
		}
		back, err := game.ParseMove(r, game.MoveName(r, m))
		if err != nil || back != m {
			t.Errorf("MoveName(%q) = %q does not read back", text, game.MoveName(r, m))
		}
	}
	if game.MoveName(r, game.Move{}) != "-" {
		t.Error("null move is written '-'")
	}
	for text, want := range map[string]string{
		"":               "empty move",
		"j10k":           "missing row",
		"j10t1":          "off the",
		"a1a2a3a4a5":     "more than 4 stones",
		"j10 k10":        "",
		"j10-":           "column must be a letter",
		"j10\u212a10abc": "column must be a letter",
	} {
		_, err := game.ParseMove(r, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMove(%q) = %v, want error containing %q", text, err, want)
		}
	}
}

func TestTurnsRoundTrip(t *testing.T) {
	r := game.Connect6()
	text := "j10 j11k10 l9k11 i9l11 j9i12 m9m10 - a1"
	turns, err := game.ParseTurns(r, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 8 || turns[6].Len() != 0 {
		t.Fatalf("ParseTurns: %d turns", len(turns))
	}
	again, err := game.ParseTurns(r, game.FormatTurns(r, turns))
	if err != nil {
		t.Fatal(err)
	}
	for i := range turns {
		if again[i] != turns[i] {
			t.Fatalf("turn %d: %s vs %s", i+1, game.MoveName(r, again[i]), game.MoveName(r, turns[i]))
		}
	}
	// Separators: spaces, tabs, newlines, commas.
	sep, err := game.ParseTurns(r, "j10,\tJ11K10\n l9k11\r\n")
	if err != nil || len(sep) != 3 || sep[1] != turns[1] {
		t.Fatalf("separators: %v %v", sep, err)
	}
	if _, err := game.ParseTurns(r, "j10 j11k10 zz"); err == nil || !strings.Contains(err.Error(), "turn 3") {
		t.Fatalf("bad third turn: %v", err)
	}
	if ts, err := game.ParseTurns(r, "  "); err != nil || len(ts) != 0 {
		t.Fatalf("blank text: %v %v", ts, err)
	}
	b, err := ReplayText(r, "j10 j11k10 l9k11")
	if err != nil || b.Turn() != 3 || b.ToMove() != game.White || b.Stones(game.Black) != 3 || b.Stones(game.White) != 2 {
		t.Fatalf("ReplayText: %v", err)
	}
}

func TestDiagram(t *testing.T) {
	r := game.Rules{M: 5, N: 4, K: 3, P: 1, Q: 1}
	b, err := ReplayText(r, "a1 e4 c2")
	if err != nil {
		t.Fatal(err)
	}
	want := "to move W\n....W\n.....\n..B..\nB....\n"
	if got := b.Diagram(); got != want {
		t.Fatalf("Diagram:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseSquaresKeepsOrder(t *testing.T) {
	r := game.Connect6()
	sq, err := game.ParseSquares(r, "H12k11")
	if err != nil || len(sq) != 2 || game.SquareName(r, sq[0]) != "h12" || game.SquareName(r, sq[1]) != "k11" {
		t.Fatalf("h12k11: %v %v", sq, err)
	}
	if m, _ := game.ParseMove(r, "h12k11"); game.MoveName(r, m) != "k11h12" {
		t.Fatalf("the move: %s, want board order k11h12", game.MoveName(r, m))
	}
	if sq, err := game.ParseSquares(r, "-"); err != nil || sq != nil {
		t.Fatalf("-: %v %v", sq, err)
	}
	for _, bad := range []string{"", "h12k", "12k11", "a1b1c1d1e1"} {
		if _, err := game.ParseSquares(r, bad); err == nil {
			t.Fatalf("%q read", bad)
		}
	}
}

// ParseSquares keeps the written order, in either case, and refuses a
// turn it cannot read.
func TestParseSquaresTable(t *testing.T) {
	r := game.Connect6()
	for _, c := range []struct {
		in   string
		want string
		bad  bool
	}{{"h12k11", "h12 k11", false}, {"K11H12", "k11 h12", false}, {"-", "", false}, {"h12k", "", true}, {"12k11", "", true}} {
		sq, err := game.ParseSquares(r, c.in)
		if (err != nil) != c.bad {
			t.Fatalf("%q: error %v", c.in, err)
		}
		if c.bad {
			continue
		}
		got := ""
		for i, s := range sq {
			if i > 0 {
				got += " "
			}
			got += game.SquareName(r, s)
		}
		if got != c.want {
			t.Fatalf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
