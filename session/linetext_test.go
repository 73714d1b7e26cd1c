package session_test

import (
	"fmt"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session/sessiontest"
)

// A line copied (LineText) and pasted into another session's empty book
// (PlayLineText) is the same line, the stones of each turn in the order
// they were entered, and the book stores it.
func TestLineTextRoundTrip(t *testing.T) {
	f := newFixture(t, nil, true)
	c := f.s.Cursor()
	c.TapSquare(f.sq("j10"))
	for _, q := range []string{"k11", "i9", "h8", "l12", "k9", "m10"} {
		c.TapSquare(f.sq(q))
	}
	f.settle()
	text := f.s.LineText()
	if text != "j10 k11i9 h8l12 k9m10" {
		t.Fatalf("LineText %q, want the stones in the order tapped", text)
	}
	g := newFixture(t, nil, true)
	if err := g.s.PlayLineText("1. " + strings.ReplaceAll(text, " ", ", ")); err != nil {
		t.Fatal(err)
	}
	g.settle()
	if got := g.s.LineText(); got != text {
		t.Fatalf("pasted %q, shown %q", text, got)
	}
	if got, want := g.line(), f.line(); got != want {
		t.Fatalf("line %q, want %q", got, want)
	}
	if g.store.Len() != f.store.Len() {
		t.Fatalf("the pasted line stored %d positions, the played one %d", g.store.Len(), f.store.Len())
	}
	if got := g.s.History().CanUndo(); !strings.HasPrefix(got, "add line") {
		t.Fatalf("undo offers %q after the paste", got)
	}
	g.s.History().Undo()
	g.settle()
	if n := g.store.Node(root(g), false); n == nil || len(n.Kids) != 0 || g.line() != "" {
		t.Fatalf("after undoing the paste: root %+v, line %q", n, g.line())
	}
	f.noErrors()
	g.noErrors()
}

func root(f *fixture) *board.Board {
	b, err := board.NewBoard(f.s.Rules())
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// A bad line is refused naming its turn, and changes nothing.
func TestLineTextErrors(t *testing.T) {
	f := newFixture(t, nil, true)
	f.play("j10")
	f.settle()
	n := f.store.Len()
	for _, tc := range []struct{ text, want string }{
		{"j10 i9k9 i7j9 j9a1", "turn 4: j9a1: square is occupied (j9)"},
		{"j10 i9k9 k9", "turn 3: k9: square is occupied"},
		{"j10 i9", "turn 2: i9: wrong number of stones"},
		{"j10 i9z99", "turn 2: i9z99:"},
		{"… 2. i9k9", "turn 1: the line is cut"},
		{"  ", "no moves"},
	} {
		err := f.s.PlayLineText(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	f.settle()
	if f.line() != "j10" || f.store.Len() != n {
		t.Fatalf("a refused line changed something: line %q, %d positions (was %d)", f.line(), f.store.Len(), n)
	}
	f.noErrors()
}

// Redo after Undo gives back each kind of edit, and shows its position; a
// new edit after an undo leaves nothing to redo.
func TestRedoEachEdit(t *testing.T) {
	fv := &sessiontest.Verifier{Unsolved: []string{"a1a2"}}
	f := newFixture(t, fv, true)
	f.play("j10")
	f.settle()
	c, h := f.s.Cursor(), f.s.History()
	at := func(b *board.Board) *sessiontest.Node { return f.store.Node(b, false) }
	j10 := func() *board.Board { b, _ := board.ReplayText(f.s.Rules(), "j10"); return b }
	probeAt := func(b func() *board.Board) func() string {
		return func() string {
			n := at(b())
			if n == nil {
				return "absent"
			}
			var kids []string
			for _, k := range n.Kids {
				kids = append(kids, game.MoveName(f.s.Rules(), k))
			}
			return fmt.Sprintf("kids %v comment %q label %q marks %v expert %v held %v verdict %v",
				kids, n.Comment, n.Label, n.Marks, n.Proof[game.Black].Expert, n.Held[game.Black], n.Verdict[game.Black] != nil)
		}
	}
	for _, tc := range []struct {
		name  string
		edit  func()
		probe func() string
	}{
		{"move", func() { c.GoToLine(nil); f.settle(); f.play("j10"); f.play("k10k11") }, probeAt(j10)},
		{"line", func() {
			if err := f.s.PlayLineText("j10 i9k9 i7j9"); err != nil {
				t.Fatal(err)
			}
		}, probeAt(j10)},
		{"notes", func() { c.GoToLine([]game.Move{f.mv("j10")}); f.settle(); f.s.Notes().Save("a trap", "trap") }, probeAt(j10)},
		{"marks", func() {
			c.GoToLine([]game.Move{f.mv("j10")})
			f.settle()
			c.SetMarking(true)
			c.TapSquare(f.sq("c3"))
			c.SetMarking(false)
		}, probeAt(j10)},
		{"disproved", func() { c.GoToLine([]game.Move{f.mv("j10")}); f.settle(); h.ToggleDisproved() }, probeAt(j10)},
		{"hold", func() { c.GoToLine([]game.Move{f.mv("j10")}); f.settle(); h.ToggleHold() }, probeAt(j10)},
		{"verify", func() {
			c.GoToLine([]game.Move{f.mv("j10")})
			f.settle()
			f.s.Prover().Verify()
			f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
		}, probeAt(j10)},
		{"root notes", func() { c.GoToLine(nil); f.settle(); f.s.Notes().Save("the start", "") }, probeAt(func() *board.Board { return root(f) })},
	} {
		before := tc.probe()
		tc.edit()
		f.settle()
		after := tc.probe()
		what := h.CanUndo()
		if after == before || what == "" {
			t.Fatalf("%s: the edit changed nothing (%s), undo offers %q", tc.name, after, what)
		}
		h.Undo()
		f.settle()
		if got := tc.probe(); got != before {
			t.Fatalf("%s: after undo %s, want %s", tc.name, got, before)
		}
		if got := h.CanRedo(); got != what {
			t.Fatalf("%s: redo offers %q, want %q", tc.name, got, what)
		}
		h.Redo()
		f.settle()
		if got := tc.probe(); got != after {
			t.Fatalf("%s: after redo %s, want %s", tc.name, got, after)
		}
		if h.CanRedo() != "" || h.CanUndo() != what {
			t.Fatalf("%s: after redo: redo %q, undo %q", tc.name, h.CanRedo(), h.CanUndo())
		}
		f.noErrors()
	}
	// A new edit after an undo: nothing to redo.
	h.Undo()
	f.settle()
	if h.CanRedo() == "" {
		t.Fatal("nothing to redo after an undo")
	}
	f.s.Notes().Save("another", "")
	f.settle()
	if got := h.CanRedo(); got != "" {
		t.Fatalf("redo offers %q after a new edit", got)
	}
	_ = c6book.StatusOpen
	f.noErrors()
}
