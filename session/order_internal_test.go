package session

import (
	"testing"

	"c6book/engine"
)

func TestSquaresOf(t *testing.T) {
	r := engine.Connect6()
	for _, c := range []struct {
		in   string
		want string
		bad  bool
	}{{"h12k11", "h12 k11", false}, {"K11H12", "k11 h12", false}, {"-", "", false}, {"h12k", "", true}, {"12k11", "", true}} {
		sq, err := squaresOf(r, c.in)
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
			got += engine.SquareName(r, s)
		}
		if got != c.want {
			t.Fatalf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
