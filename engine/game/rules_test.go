package game

import (
	"testing"
)

func TestParseColor(t *testing.T) {
	for s, want := range map[string]Color{"B": Black, "b": Black, "black": Black, " White ": White, "w": White} {
		if c, err := ParseColor(s); err != nil || c != want {
			t.Errorf("ParseColor(%q) = %v, %v", s, c, err)
		}
	}
	if _, err := ParseColor("x"); err == nil {
		t.Error("ParseColor(x) succeeded")
	}
	if Black.Opp() != White || White.Opp() != Black || Black.String() != "B" || White.String() != "W" || Empty.String() != "." {
		t.Error("colour basics")
	}
}

func TestMoveBasics(t *testing.T) {
	m := NewMove(5, 3, 9)
	if m.Len() != 3 || m.At(0) != 3 || m.At(1) != 5 || m.At(2) != 9 {
		t.Fatalf("NewMove does not sort: %v", m.Squares())
	}
	if !m.Contains(5) || m.Contains(4) {
		t.Fatal("Contains")
	}
	if w := NewMove(7).With(2); w != NewMove(2, 7) {
		t.Fatal("With")
	}
	if NewMove(3, 5) != NewMove(5, 3) {
		t.Fatal("a move must have one representation")
	}
	if NewMove(1, 2, 3, 4, 5).Len() != MaxPerTurn {
		t.Fatal("NewMove must keep at most MaxPerTurn squares")
	}
}
