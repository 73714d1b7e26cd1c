package session_test

import (
	"testing"

	"c6book/engine/game"
	"c6book/session"
)

// The line prints a turn's stones in the order they were entered (two
// taps, or a typed line), not in board order; the move stored is the same.
func TestLineKeepsStoneOrder(t *testing.T) {
	f := newFixture(t, nil, true)
	f.s.Cursor().TapSquare(f.sq("j10"))
	f.s.Cursor().TapSquare(f.sq("h12"))
	f.s.Cursor().TapSquare(f.sq("k11"))
	f.settle()
	if got := f.s.Cursor().LineMoveText(1); got != "h12k11" {
		t.Fatalf("entered h12 then k11: the line prints %q", got)
	}
	if f.line() != "j10 k11h12" || lineMove(f.s, 1) != f.mv("k11h12") {
		t.Fatalf("the move stored: %q", f.line())
	}
	// Entered the other way round, it prints that way.
	f.s.Cursor().Back()
	f.s.Cursor().TapSquare(f.sq("k11"))
	f.s.Cursor().TapSquare(f.sq("h12"))
	f.settle()
	if got := f.s.Cursor().LineMoveText(1); got != "k11h12" {
		t.Fatalf("entered k11 then h12: %q", got)
	}
	// A typed line keeps its order.
	if err := f.s.Cursor().KeepOrder("j10 h12k11 m9l8"); err != nil {
		t.Fatal(err)
	}
	f.s.Cursor().GoToLine([]game.Move{f.mv("j10"), f.mv("h12k11"), f.mv("m9l8")})
	f.settle()
	if a, b := f.s.Cursor().LineMoveText(1), f.s.Cursor().LineMoveText(2); a != "h12k11" || b != "m9l8" {
		t.Fatalf("typed line prints %q %q", a, b)
	}
	// A bad turn list records nothing.
	if err := f.s.Cursor().KeepOrder("j10 z99a1"); err == nil {
		t.Fatal("a bad turn list accepted")
	}
	if got := f.s.Cursor().MoveText(f.mv("j10")); got != "j10" {
		t.Fatalf("j10 prints %q", got)
	}
	f.noErrors()
}

// lineMove is the i-th move of the session's line.
func lineMove(s *session.Session, i int) game.Move {
	line, _ := s.Cursor().Line()
	return line[i]
}
