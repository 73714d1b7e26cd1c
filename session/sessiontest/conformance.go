package sessiontest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/session"
)

// conformanceTurns lead to a position with the defender (White) to move.
var conformanceTurns = []string{"e5", "a1a2", "e4e6"}

// Conformance runs the same cases against a session.BookStore (the proof
// book's, in app, and this package's fake Store): moves stored, listed and
// removed; a verdict's new replies (StoreVerdict's answer) and the status
// it leaves; the expert's disproof; the statuses real verdicts leave and
// their propagation (proved, open, unknown, disproved, a move removed);
// undoing a verify; comments and labels. newStore returns
// an empty store with the root position, for 9×9 connect-5 rules.
func Conformance(t *testing.T, newStore func(t *testing.T, r game.Rules) session.BookStore) {
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	ctx := context.Background()
	move := func(t *testing.T, text string) game.Move {
		t.Helper()
		m, err := game.ParseMove(r, text)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// line stores the line of turns from the root and returns its boards.
	line := func(t *testing.T, s session.BookStore, turns ...string) []*board.Board {
		t.Helper()
		b := board.MustNewBoard(r)
		out := []*board.Board{b.Clone()}
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
	kids := func(t *testing.T, s session.BookStore, b *board.Board) []string {
		t.Helper()
		cs, err := s.Children(ctx, b, game.Black)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, game.MoveName(r, c.Move))
		}
		slices.Sort(out)
		return out
	}
	status := func(t *testing.T, s session.BookStore, b *board.Board, a game.Color) c6book.Status {
		t.Helper()
		p, err := s.Position(ctx, b, a)
		if err != nil {
			t.Fatal(err)
		}
		return p.Status
	}

	t.Run("moves", func(t *testing.T) {
		s := newStore(t, r)
		root := board.MustNewBoard(r)
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
		v := c6book.Verdict{Attacker: game.Black, Status: c6book.StatusOpen, Lambda: 2}
		for _, u := range []string{"e3e7", "e2e8", "a3a4"} {
			v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: move(t, u), Reason: threat.ReasonBudget})
		}
		added, err := s.StoreVerdict(ctx, d, v)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range added.Added {
			names = append(names, game.MoveName(r, m))
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"a3a4", "e2e8"}) {
			t.Errorf("StoreVerdict added %v, want the items not stored before [a3a4 e2e8]", names)
		}
		if got := kids(t, s, d); !slices.Equal(got, []string{"a3a4", "e2e8", "e3e7"}) {
			t.Errorf("children %v, want the three items", got)
		}
		if again, err := s.StoreVerdict(ctx, d, v); err != nil || len(again.Added) != 0 {
			t.Errorf("the same verdict again: added %v, %v; want nothing", again.Added, err)
		}
		if st := status(t, s, d, game.Black); st != c6book.StatusOpen {
			t.Errorf("after an open verdict: %s, want open", st)
		}
		p, err := s.Position(ctx, d, game.Black)
		if err != nil || p.Verdict == nil || len(p.Verdict.Unsolved) != 3 {
			t.Errorf("the stored verdict: %+v, %v", p.Verdict, err)
		}
	})

	t.Run("disproof", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, "e5", "a1a2")
		b := bs[len(bs)-1]
		if st := status(t, s, b, game.Black); st != c6book.StatusUnknown {
			t.Errorf("a new position: %s, want unknown", st)
		}
		if err := s.SetDisproved(ctx, b, game.Black, true); err != nil {
			t.Fatal(err)
		}
		if st := status(t, s, b, game.Black); st != c6book.StatusDisproved {
			t.Errorf("disproved by the expert: %s", st)
		}
		if err := s.SetDisproved(ctx, b, game.Black, false); err != nil {
			t.Fatal(err)
		}
		if st := status(t, s, b, game.Black); st != c6book.StatusUnknown {
			t.Errorf("the disproof cleared: %s, want unknown", st)
		}
	})

	// Statuses: the stores derive them by the same rules (c6book.ProofOf)
	// from real verdicts (the engine's verifier on fixed positions, with
	// node budgets: no clock decides), and propagate them to the parents.
	verify := func(t *testing.T, b *board.Board, nodes int64, want c6book.Status, items int) c6book.Verdict {
		t.Helper()
		v, err := c6book.VerifyBoard(ctx, b, verify.LocalVerifier{}, 0,
			verify.VerifyOptions{Limits: threat.Limits{MaxNodes: nodes}, Workers: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != want || v.AllUnsolved || len(v.Unsolved) != items || v.Cert == nil {
			t.Fatalf("the verifier on %s: %s, %d unsolved (all %v); want %s, %d", game.FormatTurns(r, b.History()), v.Status, len(v.Unsolved), v.AllUnsolved, want, items)
		}
		return v
	}
	store := func(t *testing.T, s session.BookStore, b *board.Board, v c6book.Verdict) {
		t.Helper()
		if _, err := s.StoreVerdict(ctx, b, v); err != nil {
			t.Fatal(err)
		}
	}
	play := func(t *testing.T, b *board.Board, text string) *board.Board {
		t.Helper()
		c := b.Clone()
		if err := c.Play(move(t, text)); err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := func(t *testing.T, s session.BookStore, what string, b *board.Board, a game.Color, st c6book.Status) {
		t.Helper()
		if got := status(t, s, b, a); got != st {
			t.Errorf("%s (%s): %s, want %s", what, game.FormatTurns(r, b.History()), got, st)
		}
	}

	t.Run("status: a proved verdict proves the move to it", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, conformanceTurns...)
		d := bs[3] // White, the defender, to move
		store(t, s, d, verify(t, d, 1000, c6book.StatusProved, 0))
		want(t, s, "the verified position", d, game.Black, c6book.StatusProved)
		want(t, s, "for the other attacker", d, game.White, c6book.StatusUnknown)
		want(t, s, "its parent, Black to move (some move proved)", bs[2], game.Black, c6book.StatusProved)
		want(t, s, "White to move without a verdict (a leaf for the verifier)", bs[1], game.Black, c6book.StatusUnknown)
		want(t, s, "the root", bs[0], game.Black, c6book.StatusUnknown)
		// Removing the proving move: the parent's other move is unexplored.
		if _, err := s.AddMove(ctx, bs[2], move(t, "d5f5")); err != nil {
			t.Fatal(err)
		}
		want(t, s, "the parent with a second move", bs[2], game.Black, c6book.StatusProved)
		if err := s.RemoveMove(ctx, bs[2], move(t, "e4e6")); err != nil {
			t.Fatal(err)
		}
		want(t, s, "the parent without its proving move", bs[2], game.Black, c6book.StatusUnknown)
	})

	// withOpenVerdict is a store with the line of conformanceTurns and an
	// open verdict (three items) at its end, d.
	withOpenVerdict := func(t *testing.T) (s session.BookStore, bs []*board.Board, d *board.Board, v c6book.Verdict) {
		t.Helper()
		s = newStore(t, r)
		bs = line(t, s, conformanceTurns...)
		d = bs[3]
		v = verify(t, d, 100, c6book.StatusOpen, 3)
		store(t, s, d, v)
		return s, bs, d, v
	}

	t.Run("status: a defender position with every item proved", func(t *testing.T) {
		s, bs, d, v := withOpenVerdict(t)
		want(t, s, "an open verdict", d, game.Black, c6book.StatusOpen)
		want(t, s, "its parent (a move to open work)", bs[2], game.Black, c6book.StatusOpen)
		for _, u := range v.Unsolved {
			want(t, s, "an item (unexplored)", play(t, d, game.MoveName(r, u.Move)), game.Black, c6book.StatusUnknown)
		}
		// Each item: Black's d5f5, a proved verdict there.
		for i, u := range v.Unsolved {
			c := play(t, d, game.MoveName(r, u.Move))
			if _, err := s.AddMove(ctx, c, move(t, "d5f5")); err != nil {
				t.Fatal(err)
			}
			g := play(t, c, "d5f5")
			store(t, s, g, verify(t, g, 1000, c6book.StatusProved, 0))
			want(t, s, "a proved item", c, game.Black, c6book.StatusProved)
			st := c6book.StatusOpen
			if i == len(v.Unsolved)-1 {
				st = c6book.StatusProved
			}
			want(t, s, "the defender position, items proved: "+fmt.Sprint(i+1), d, game.Black, st)
			want(t, s, "its parent", bs[2], game.Black, st)
		}
	})

	t.Run("status: a disproved reply disproves the defender position", func(t *testing.T) {
		s, bs, d, v := withOpenVerdict(t)
		c := play(t, d, game.MoveName(r, v.Unsolved[0].Move))
		if err := s.SetDisproved(ctx, c, game.Black, true); err != nil {
			t.Fatal(err)
		}
		want(t, s, "the expert's disproof", c, game.Black, c6book.StatusDisproved)
		want(t, s, "the defender position (a refuted reply)", d, game.Black, c6book.StatusDisproved)
		want(t, s, "its parent (its only move refuted: a new move needed)", bs[2], game.Black, c6book.StatusUnknown)
		if err := s.SetDisproved(ctx, c, game.Black, false); err != nil {
			t.Fatal(err)
		}
		want(t, s, "the disproof cleared", c, game.Black, c6book.StatusUnknown)
		want(t, s, "the defender position again", d, game.Black, c6book.StatusOpen)
		want(t, s, "its parent again", bs[2], game.Black, c6book.StatusOpen)
	})

	// Undoing a verify gives the book back as it was: the verdict it
	// replaced (none: no verdict), its new replies removed (a reply stored
	// before stays), the statuses as before. A reply of a stored verdict
	// cannot be removed by hand, and a verdict replaced since cannot be
	// undone; neither changes anything.
	t.Run("undo verify", func(t *testing.T) {
		s := newStore(t, r)
		bs := line(t, s, conformanceTurns...)
		d := bs[3]
		open := verify(t, d, 100, c6book.StatusOpen, 3)
		proved := verify(t, d, 1000, c6book.StatusProved, 0)
		hand := open.Unsolved[0].Move // a reply stored before the verify
		if _, err := s.AddMove(ctx, d, hand); err != nil {
			t.Fatal(err)
		}
		// state is what the undo must give back: d's replies and verdict,
		// the statuses on the line for both attackers.
		state := func(t *testing.T) string {
			t.Helper()
			p, err := s.Position(ctx, d, game.Black)
			if err != nil {
				t.Fatal(err)
			}
			out := fmt.Sprint(kids(t, s, d), " verdict ", p.Verdict != nil)
			if p.Verdict != nil {
				out += fmt.Sprint(" ", p.Verdict.Status, len(p.Verdict.Unsolved))
			}
			for i, b := range bs {
				out += fmt.Sprint(" ", i, ":", status(t, s, b, game.Black), "/", status(t, s, b, game.White))
			}
			return out
		}
		before := state(t)
		first, err := s.StoreVerdict(ctx, d, open)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Added) != 2 || slices.Contains(first.Added, hand) {
			t.Fatalf("the open verdict added %v: want its two items not stored before", first.Added)
		}
		afterFirst := state(t)
		if err := s.RemoveMove(ctx, d, first.Added[0]); !errors.Is(err, c6book.ErrVerdictItem) {
			t.Errorf("RemoveMove of a reply the verdict leaves to prove: %v, want ErrVerdictItem", err)
		}
		if got := state(t); got != afterFirst {
			t.Errorf("after the refused RemoveMove: %s, want %s", got, afterFirst)
		}
		second, err := s.StoreVerdict(ctx, d, proved)
		if err != nil {
			t.Fatal(err)
		}
		want(t, s, "the proved verdict", d, game.Black, c6book.StatusProved)
		afterSecond := state(t)
		if err := s.UndoVerdict(ctx, d, first); !errors.Is(err, c6book.ErrVerdictChanged) {
			t.Errorf("undo of a verdict replaced since: %v, want ErrVerdictChanged", err)
		}
		if got := state(t); got != afterSecond {
			t.Errorf("after the refused undo: %s, want %s", got, afterSecond)
		}
		if err := s.UndoVerdict(ctx, d, second); err != nil {
			t.Fatal(err)
		}
		if got := state(t); got != afterFirst {
			t.Errorf("the proved verdict undone: %s, want the open verdict's book %s", got, afterFirst)
		}
		if err := s.UndoVerdict(ctx, d, first); err != nil {
			t.Fatal(err)
		}
		if got := state(t); got != before {
			t.Errorf("both verifies undone: %s, want the book before them %s", got, before)
		}
		if err := s.RemoveMove(ctx, d, hand); err != nil {
			t.Errorf("RemoveMove of a move no verdict needs: %v", err)
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
		p, err := s.Position(ctx, b, game.Black)
		if err != nil || p.Comment != "a note" || p.Label != "joseki" {
			t.Errorf("position %+v, %v: want the comment and the label", p, err)
		}
	})
}
