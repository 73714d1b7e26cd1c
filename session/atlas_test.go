package session_test

import (
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// The atlas rows' states follow the book's statuses for Black: proved,
// open, disproved and unchecked as stored, a row not in the book or with
// nothing known not started; Proved lists the proved rows and Open goes to
// a row's position.
func TestAtlasStatesFollowTheBook(t *testing.T) {
	f := newFixture(t, nil, true)
	a := session.NewAtlas(f.s, 2)
	rows := a.Rows()
	if len(rows) != 45 || !rows[44].Pass || rows[0].Number != 1 {
		t.Fatalf("atlas d=2: %d rows, err %v", len(rows), a.Summary())
	}
	want := map[int]session.AtlasState{}
	set := func(i int, found bool, st c6book.Status) {
		b, err := board.Replay(f.s.Rules(), rows[i].Line)
		if err != nil {
			t.Fatal(err)
		}
		if found {
			n := f.store.Node(b, true)
			n.Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: st}
			// The other attacker's status must not count.
			n.Proof[game.White] = c6book.Proof{Attacker: game.White, Status: c6book.StatusProved}
		}
		want[i] = map[c6book.Status]session.AtlasState{c6book.StatusProved: session.AtlasProved, c6book.StatusOpen: session.AtlasOpen,
			c6book.StatusDisproved: session.AtlasDisproved, c6book.StatusUnchecked: session.AtlasUnchecked}[st]
		if !found {
			want[i] = session.AtlasNotStarted
		}
	}
	set(0, true, c6book.StatusProved)
	set(2, true, c6book.StatusOpen)
	set(3, true, c6book.StatusDisproved)
	set(5, true, c6book.StatusUnchecked)
	set(7, true, c6book.StatusUnknown)
	set(44, true, c6book.StatusProved)
	// Moves stored below a row with nothing known yet: worked on, open.
	if _, err := f.store.AddMoves(mustReplay(t, f.s.Rules(), rows[11].Line), []game.Move{f.mv("k11l12")}); err != nil {
		t.Fatal(err)
	}
	want[11] = session.AtlasOpen
	set(9, false, c6book.StatusProved) // not in the book
	loaded := false
	a.Load(func() { loaded = true })
	f.settle()
	if !loaded {
		t.Fatal("Load did not call done")
	}
	for i, r := range a.Rows() {
		if r.State != want[i] {
			t.Errorf("row %d (%s): %v, want %v", i+1, r.Name(f.s.Rules()), r.State, want[i])
		}
	}
	if p := a.Proved(); len(p) != 2 || p[0].Number != 1 || p[1].Number != 45 {
		t.Fatalf("proved rows %v", p)
	}
	if got := a.Summary(); got != "d = 2: 45 rows, 2 proved, 2 open, 39 not started" {
		t.Errorf("summary %q", got)
	}
	a.Open(2)
	f.settle()
	if line, _ := f.s.Cursor().Line(); game.FormatTurns(f.s.Rules(), line) != "j10 "+rows[2].Name(f.s.Rules()) {
		t.Fatalf("Open(2): line %s", game.FormatTurns(f.s.Rules(), line))
	}
	// d = 3: 162 classes and the pass row; a board without a centre has no atlas.
	a.SetDistance(3)
	if len(a.Rows()) != 163 {
		t.Fatalf("d=3: %d rows", len(a.Rows()))
	}
	a.SetDistance(0)
	if !strings.HasPrefix(a.Summary(), "No atlas") || len(a.Rows()) != 0 {
		t.Fatal("d=0: an atlas")
	}
}

func mustReplay(t *testing.T, r game.Rules, line []game.Move) *board.Board {
	t.Helper()
	b, err := board.Replay(r, line)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
