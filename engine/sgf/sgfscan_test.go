package sgf

import (
	"errors"
	"io"
	"strings"
	"testing"

	"c6book/engine/game"
)

// endless reads prefix, then fill forever, counting what it hands out.
type endless struct {
	prefix string
	fill   byte
	n      int64
}

func (e *endless) Read(p []byte) (int, error) {
	k := copy(p, e.prefix)
	e.prefix = e.prefix[k:]
	for i := k; i < len(p); i++ {
		p[i] = e.fill
	}
	e.n += int64(len(p))
	return len(p), nil
}

// Endless or huge inputs end with an *SGFError naming the limit, having
// read little more than the limit: a stream of zero bytes, an endless
// comment, endless nodes, nesting without end, a tree too big to hold.
func TestSGFLimits(t *testing.T) {
	lim := SGFLimits{MaxBytes: 1 << 20, MaxNodeBytes: 4 << 10, MaxDepth: 50, MaxTreeBytes: 256 << 10}
	for _, c := range []struct {
		name string
		in   *endless
		want string
	}{
		{"zeros", &endless{fill: 0}, `unexpected '\x00'`},
		{"comment", &endless{prefix: "(;FF[4]C[", fill: 'x'}, "node 1, byte 1: node longer than 4096 bytes"},
		{"property name", &endless{prefix: "(;FF[4]C", fill: 'c'}, "bad property identifier"},
		{"nodes", &endless{prefix: "(;FF[4]", fill: ';'}, "larger than 1048576 bytes"},
		{"values", &endless{prefix: "(;FF[4]LB", fill: ' '}, "larger than 1048576 bytes"},
		{"nesting", &endless{prefix: strings.Repeat("(;", 60)}, "nested deeper than 50"},
		{"tree", &endless{prefix: "(;FF[4]", fill: ';'}, "more than 262144 bytes in memory"},
	} {
		l := lim
		if c.name == "nodes" {
			l.MaxTreeBytes = 1 << 30 // the input limit first
		}
		_, err := ReadSGF(c.in, l)
		var se *SGFError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an *SGFError containing %q", c.name, err, c.want)
		}
		if c.in.n > l.MaxBytes+1<<17 {
			t.Errorf("%s: read %d bytes, the limit is %d", c.name, c.in.n, l.MaxBytes)
		}
	}
	// Exactly at the limits is fine.
	in := "(;FF[4]C[" + strings.Repeat("x", 100) + "])"
	if _, err := ReadSGF(strings.NewReader(in), SGFLimits{MaxBytes: int64(len(in)), MaxNodeBytes: len(in) - 2}); err != nil {
		t.Fatalf("an input at the limits: %v", err)
	}
	for _, l := range []SGFLimits{{MaxBytes: int64(len(in)) - 1}, {MaxNodeBytes: len(in) - 3}} {
		if _, err := ReadSGF(strings.NewReader(in), l); err == nil {
			t.Fatalf("%+v: an input over the limit was read", l)
		}
	}
}

// The scanner's events follow the trees; a node after a variation is not
// SGF (nodes come before a tree's variations).
func TestSGFScanner(t *testing.T) {
	s := NewSGFScanner(strings.NewReader("(;FF[4];B[j10](;W[a1a2])(;W[b1b2];B[c1]))\n(;B[a1])"), SGFLimits{})
	var got []string
	for {
		ev, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case SGFTreeStart:
			got = append(got, "(")
		case SGFTreeEnd:
			got = append(got, ")")
		case SGFNodeRead:
			v, _ := ev.Node.Get("B")
			if w, ok := ev.Node.Get("W"); ok {
				v = w
			}
			got = append(got, v)
		}
	}
	if g := strings.Join(got, " "); g != "( "+" j10 ( a1a2 ) ( b1b2 c1 ) ) ( a1 )" {
		t.Fatalf("events %q", g)
	}
	if _, err := s.Next(); err != io.EOF {
		t.Fatalf("after the end: %v", err)
	}
	if _, err := ParseSGF("(;B[j10](;W[a1a2]);B[c1])"); err == nil || !strings.Contains(err.Error(), "a node after a variation") {
		t.Fatalf("a node after a variation: %v", err)
	}
}

// Move values are read only in their canonical form: a pass, a blank
// value, upper case, blanks or leading zeros in a point are errors, never
// a null or a guessed move.
func TestSGFMoveCanonical(t *testing.T) {
	r := game.Connect6()
	for in, want := range map[string]string{
		"B[ ]":         "a blank value",
		"B[\t]":        "a blank value",
		"B[pass]":      "a pass",
		"B[PASS]":      "a pass",
		"B[A1]":        "lower case",
		"B[J10]":       "lower case",
		"W[JIK]":       "bad point",
		"W[JJ][kk]":    "mixed with lower case",
		"B[TT]":        "off the board",
		"W[j11K10]":    "lower case",
		"W[aa:AB]":     "lower case",
		"W[aa][AB]":    "lower case",
		"B[j010]":      "not written canonically (j10)",
		"B[ j10]":      "a blank inside",
		"B[j10 ]":      "a blank inside",
		"W[j11 k10]":   "a blank inside",
		"W[jj ]":       "a blank inside",
		"W[j11-k10]":   "bad point",
		"W[aa][ab ]":   "a blank inside",
		"W[j11k10k10]": "places k10 twice",
	} {
		roots, err := ParseSGF("(;" + in + ")")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		_, m, ok, err := SGFMove(r, roots[0])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: move %v %v, error %v; want an error containing %q", in, m, ok, err, want)
		}
	}
	// Upper-case letter pairs are the Connect6 editors' (row A at the
	// bottom): JJ is j10, JK is j11.
	for in, want := range map[string]string{"B[j10]": "j10", "B[jj]": "j10", "W[jikj]": "k10j11", "W[j11k10]": "k10j11", "W[ji][kj]": "k10j11", "B[]": "-",
		"B[JJ]": "j10", "W[JKKJ]": "k10j11", "W[JK][KJ]": "k10j11", "W[AA]": "a1", "W[AS]": "a19"} {
		roots, err := ParseSGF("(;" + in + ")")
		if err != nil {
			t.Fatal(err)
		}
		_, m, ok, err := SGFMove(r, roots[0])
		if err != nil || !ok || game.MoveName(r, m) != want {
			t.Errorf("%s: %s %v %v, want %s", in, game.MoveName(r, m), ok, err, want)
		}
	}
}
