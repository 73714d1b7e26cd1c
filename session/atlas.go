package session

import (
	"context"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Atlas is the opening atlas in the workbench: the classes of White's
// second move near the centre (board.Atlas), the rows `c6 book atlas`
// proves, each with its status in the book for Black. Load reads the
// statuses; Open goes to a row's position.
type Atlas struct {
	s     *Session
	d     int
	rules game.Rules // the rules the rows were listed for
	rows  []AtlasRow
	err   error // why the book's rules have no atlas of distance d
	// gen counts the loads: a load's answer older than the last is
	// dropped.
	gen int
}

// AtlasState is an atlas row's state: its book status for Black, a
// position nobody worked on being "not started".
type AtlasState int

// Atlas states.
const (
	AtlasNotStarted AtlasState = iota // not in the book, or nothing known
	AtlasOpen                         // worked on, not proved
	AtlasProved
	AtlasDisproved // an expert says Black does not win it
	AtlasUnchecked // stored as proved, its proofs changed outside the program since the last check
)

func (s AtlasState) String() string {
	switch s {
	case AtlasOpen:
		return "open"
	case AtlasProved:
		return "proved"
	case AtlasDisproved:
		return "disproved"
	case AtlasUnchecked:
		return "unchecked"
	}
	return "not started"
}

// atlasStateOf is the state of a row whose position the book has (found)
// with status st for Black; worked: moves are stored below it (an
// attacker-to-move position the auto-pilot expanded is worked on before
// its status is known), as `c6 book atlas` counts it.
func atlasStateOf(found bool, st c6book.Status, worked bool) AtlasState {
	if !found {
		return AtlasNotStarted
	}
	switch st {
	case c6book.StatusUnknown:
		if worked {
			return AtlasOpen
		}
	case c6book.StatusOpen:
		return AtlasOpen
	case c6book.StatusProved:
		return AtlasProved
	case c6book.StatusDisproved:
		return AtlasDisproved
	case c6book.StatusUnchecked:
		return AtlasUnchecked
	}
	return AtlasNotStarted
}

// AtlasRow is one row of the atlas with its state in the book.
type AtlasRow struct {
	board.AtlasRow
	Number int           // 1, 2, ... nearest first, as `c6 book atlas` numbers them
	Line   []game.Move   // Black's centre stone, White's move
	Status c6book.Status // for Black (unknown when not in the book)
	State  AtlasState
}

// NewAtlas is the atlas of distance d of the session's book (its rows
// not started until Load reads their statuses).
func NewAtlas(s *Session, d int) *Atlas {
	a := &Atlas{s: s}
	a.SetDistance(d)
	return a
}

// SetDistance lists the rows of distance d (not started until Load).
func (a *Atlas) SetDistance(d int) {
	a.d, a.gen = d, a.gen+1
	a.rows, a.err = nil, nil
	r := a.s.Rules()
	a.rules = r
	rows, err := board.Atlas(r, d)
	if err != nil {
		a.err = err
		return
	}
	for i, row := range rows {
		a.rows = append(a.rows, AtlasRow{AtlasRow: row, Number: i + 1, Line: row.Turns(r)})
	}
}

// Distance is the atlas's d.
func (a *Atlas) Distance() int { return a.d }

// Rows are the atlas's rows, nearest first, the pass row last.
func (a *Atlas) Rows() []AtlasRow { return a.rows }

// Proved are the rows proved for Black.
func (a *Atlas) Proved() []AtlasRow {
	var out []AtlasRow
	for _, r := range a.rows {
		if r.State == AtlasProved {
			out = append(out, r)
		}
	}
	return out
}

// count is the number of rows in state st.
func (a *Atlas) count(st AtlasState) int {
	n := 0
	for _, r := range a.rows {
		if r.State == st {
			n++
		}
	}
	return n
}

// Summary is one line on the atlas: its rows by state.
func (a *Atlas) Summary() string {
	if a.err != nil {
		return "No atlas: " + a.err.Error()
	}
	return fmt.Sprintf("d = %d: %d rows, %d proved, %d open, %d not started", a.d, len(a.rows),
		a.count(AtlasProved), a.count(AtlasOpen), a.count(AtlasNotStarted))
}

// Load reads the rows' statuses for Black from the book (off the UI
// goroutine); done, when not nil, is called on the UI goroutine once they
// are in.
func (a *Atlas) Load(done func()) {
	if a.rules != a.s.Rules() { // another book
		a.SetDistance(a.d)
	}
	if a.err != nil {
		if done != nil {
			done()
		}
		return
	}
	gen, empty := a.gen, a.s.empty
	lines := make([][]game.Move, len(a.rows))
	for i, r := range a.rows {
		lines[i] = r.Line
	}
	a.s.call(func(ctx context.Context, store BookStore) func() {
		sts := make([]c6book.Status, len(lines))
		found, worked := make([]bool, len(lines)), make([]bool, len(lines))
		for i, l := range lines {
			b, err := replay(empty, l)
			if err != nil {
				return func() { a.s.fail(err) }
			}
			p, err := store.Position(ctx, b, game.Black)
			if err != nil {
				return func() { a.s.fail(err) }
			}
			sts[i], found[i] = p.Status, p.Found
			if p.Found && p.Status == c6book.StatusUnknown {
				kids, err := store.Children(ctx, b, game.Black)
				if err != nil {
					return func() { a.s.fail(err) }
				}
				worked[i] = len(kids) > 0
			}
		}
		return func() {
			if gen != a.gen {
				return
			}
			for i := range a.rows {
				a.rows[i].Status, a.rows[i].State = sts[i], atlasStateOf(found[i], sts[i], worked[i])
			}
			if done != nil {
				done()
			}
		}
	})
}

// Open shows row i's position (in the orientation of the user's line when
// it meets it). (The atlas is Black's: the view sets the attacker.)
func (a *Atlas) Open(i int) {
	if i < 0 || i >= len(a.rows) {
		return
	}
	a.s.cursor.OpenEntry(Entry{Line: a.rows[i].Line})
}
