package session_test

import (
	"context"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
	"c6book/session/sessiontest"
)

// foreignStore lists lines as a book does: in an orientation of its own
// (here each line mapped by a symmetry), not the one the user entered.
type foreignStore struct {
	*sessiontest.Store
	sym int
}

func (s foreignStore) foreign(es []session.Entry) []session.Entry {
	r := s.Rules()
	for i := range es {
		line := make([]game.Move, len(es[i].Line))
		for j, m := range es[i].Line {
			line[j] = r.TransformMove(s.sym, m)
		}
		es[i].Line = line
		es[i].Short = "… " + game.FormatTurns(r, line[len(line)-1:]) // cut at the start, as the app's rows were
	}
	return es
}

func (s foreignStore) Proved(ctx context.Context, a game.Color, minOrder, limit int) ([]session.Entry, error) {
	es, err := s.Store.Proved(ctx, a, minOrder, limit)
	return s.foreign(es), err
}

func (s foreignStore) Search(ctx context.Context, q string, a game.Color, limit int) ([]session.Entry, error) {
	es, err := s.Store.Search(ctx, q, a, limit)
	return s.foreign(es), err
}

// The Solved and Search rows show the user's own line from the root,
// whatever orientation the book lists it in; a position below the user's
// line continues it in its frame (and opens as shown); a line the user
// never met stays as listed.
func TestSolvedRowsInUserOrientation(t *testing.T) {
	f := newFixture(t, nil, true)
	fs := foreignStore{f.store, 3}
	if err := f.s.SetStore(fs); err != nil {
		t.Fatal(err)
	}
	r := f.s.Rules()
	proved := func(line string) {
		b, err := board.ReplayText(r, line)
		if err != nil {
			t.Fatal(err)
		}
		f.store.Node(b, true).Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: c6book.StatusProved, Order: 2}
		f.store.Node(b, true).Comment = "trap " + line
	}
	// Elsewhere first (a line the user leaves), then the user's line.
	f.play("a1", "a2a3")
	f.settle()
	f.s.Cursor().GoToLine(nil)
	f.settle()
	f.play("j10", "i9k9", "i7j9", "f2g7")
	f.settle()
	user := "j10 i9k9 i7j9 f2g7"
	// A position below the user's line the user has never shown, stored
	// by the book.
	ub, err := board.ReplayText(r, user)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.AddMove(context.Background(), ub, f.mv("g8h8")); err != nil {
		t.Fatal(err)
	}
	proved(user)
	proved(user + " g8h8")
	proved("j10 i9k9 i7j9") // on the user's line
	proved("a1 a2a3")       // met before, elsewhere
	var rows []session.Entry
	f.s.Cursor().LoadSolved(func(es []session.Entry) { rows = es })
	f.settle()
	got := map[string]bool{}
	for _, e := range rows {
		got[game.FormatTurns(r, e.Line)] = true
		if e.Short != "" {
			t.Errorf("row %s keeps the store's short text %q", game.FormatTurns(r, e.Line), e.Short)
		}
	}
	for _, want := range []string{user, user + " g8h8", "j10 i9k9 i7j9", "a1 a2a3"} {
		if !got[want] {
			t.Errorf("no Solved row %q; rows %v", want, got)
		}
	}
	// A row opens as it is shown.
	for _, e := range rows {
		if len(e.Line) == 5 {
			f.s.Cursor().OpenEntry(e)
			f.settle()
			if f.line() != user+" g8h8" {
				t.Errorf("the row below opened as %q", f.line())
			}
		}
	}
	// Search rows too.
	var found []session.Entry
	f.s.Cursor().Search("trap", func(es []session.Entry) { found = es })
	f.settle()
	n := 0
	for _, e := range found {
		if got[game.FormatTurns(r, e.Line)] {
			n++
		}
	}
	if n != len(found) || n != 4 {
		t.Errorf("search rows %d of %d in the user's orientation", n, len(found))
	}
	f.noErrors()
}
