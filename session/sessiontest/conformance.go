package sessiontest

import (
	"context"
	"slices"
	"testing"

	"c6book"
	"c6book/engine"
	"c6book/session"
)

// conformanceTurns lead to a position with the defender (White) to move.
var conformanceTurns = []string{"e5", "a1a2", "e4e6"}

// Conformance runs the same cases against a session.BookStore (the proof
// book's, in app, and this package's fake Store): moves stored, listed and
// removed; a verdict's new replies (StoreVerdict's answer) and the status
// it leaves; the expert's disproof; comments and labels. newStore returns
// an empty store with the root position, for 9×9 connect-5 rules.
func Conformance(t *testing.T, newStore func(t *testing.T, r engine.Rules) session.BookStore) {
	r := engine.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	ctx := context.Background()
	move := func(t *testing.T, text string) engine.Move {
		t.Helper()
		m, err := engine.ParseMove(r, text)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// line stores the line of turns from the root and returns its boards.
	line := func(t *testing.T, s session.BookStore, turns ...string) []*engine.Board {
		t.Helper()
		b := engine.MustNewBoard(r)
		out := []*engine.Board{b.Clone()}
		for _, tx := range turns {
			m := move(t, tx)
			if _, err := s.AddMove(ctx, b, m); err != nil {
				t.Fatalf("AddMove %s: %v", tx, err)
			}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Clone())
		}
		return out
	}
	kids := func(t *testing.T, s session.BookStore, b *engine.Board) []string {
		t.Helper()
		cs, err := s.Children(ctx, b, engine.Black)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, engine.MoveName(r, c.Move))
		}
		slices.Sort(out)
		return out
	}
	status := func(t *testing.T, s session.BookStore, b *engine.Board, a engine.Color) c6book.Status {
		t.Helper()
		p, err := s.Position(ctx, b, a)
		if err != nil {
			t.Fatal(err)
		}
		return p.Status
	}

	t.Run("moves", func(t *testing.T) {
		s := newStore(t, r)
		root := engine.MustNewBoard(r)
		for i, want := range []bool{true, false} {
			created, err := s.AddMove(ctx, root, move(t, "e5"))
			if err != nil || created != want {
				t.Fatalf("AddMove e5 (%d): created %v, %v; want %v", i, created, err, want)
			}
		}
		if _, err := s.AddMove(ctx, root, move(t, "d4")); err != nil {
			t.Fatal(err)
		}
		if got := kids(t, s, root); !slices.Equal(got, []string{"d4", "e5"}) {
			t.Errorf("children %v, want [d4 e5]", got)
		}
		if err := s.RemoveMove(ctx, root, move(t, "d4")); err != nil {
			t.Fatal(err)
		}
		if got := kids(t, s, root); !slices.Equal(got, []string{"e5"}) {
			t.Errorf("children after RemoveMove d4 %v, want [e5]", got)
		}
	})

	t.Run("verdict replies", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, conformanceTurns...)
		d := bs[len(bs)-1] // White, the defender, to move
		if _, err := s.AddMove(ctx, d, move(t, "e3e7")); err != nil {
			t.Fatal(err)
		}
		v := c6book.Verdict{Attacker: engine.Black, Status: c6book.StatusOpen, Lambda: 2}
		for _, u := range []string{"e3e7", "e2e8", "a3a4"} {
			v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: move(t, u), Reason: engine.ReasonBudget})
		}
		added, err := s.StoreVerdict(ctx, d, v)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range added {
			names = append(names, engine.MoveName(r, m))
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"a3a4", "e2e8"}) {
			t.Errorf("StoreVerdict added %v, want the items not stored before [a3a4 e2e8]", names)
		}
		if got := kids(t, s, d); !slices.Equal(got, []string{"a3a4", "e2e8", "e3e7"}) {
			t.Errorf("children %v, want the three items", got)
		}
		if added, err := s.StoreVerdict(ctx, d, v); err != nil || len(added) != 0 {
			t.Errorf("the same verdict again: added %v, %v; want nothing", added, err)
		}
		if st := status(t, s, d, engine.Black); st != c6book.StatusOpen {
			t.Errorf("after an open verdict: %s, want open", st)
		}
		p, err := s.Position(ctx, d, engine.Black)
		if err != nil || p.Verdict == nil || len(p.Verdict.Unsolved) != 3 {
			t.Errorf("the stored verdict: %+v, %v", p.Verdict, err)
		}
	})

	t.Run("disproof", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, "e5", "a1a2")
		b := bs[len(bs)-1]
		if st := status(t, s, b, engine.Black); st != c6book.StatusUnknown {
			t.Errorf("a new position: %s, want unknown", st)
		}
		if err := s.SetDisproved(ctx, b, engine.Black, true); err != nil {
			t.Fatal(err)
		}
		if st := status(t, s, b, engine.Black); st != c6book.StatusDisproved {
			t.Errorf("disproved by the expert: %s", st)
		}
		if err := s.SetDisproved(ctx, b, engine.Black, false); err != nil {
			t.Fatal(err)
		}
		if st := status(t, s, b, engine.Black); st != c6book.StatusUnknown {
			t.Errorf("the disproof cleared: %s, want unknown", st)
		}
	})

	t.Run("notes", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, "e5")
		b := bs[1]
		if err := s.SetComment(ctx, b, "a note"); err != nil {
			t.Fatal(err)
		}
		if err := s.SetLabel(ctx, b, "joseki"); err != nil {
			t.Fatal(err)
		}
		p, err := s.Position(ctx, b, engine.Black)
		if err != nil || p.Comment != "a note" || p.Label != "joseki" {
			t.Errorf("position %+v, %v: want the comment and the label", p, err)
		}
	})
}
