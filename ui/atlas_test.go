package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// The Atlas tab colours each row by its status for Black in the book
// (proved and open in the board's status colours, not started grey), a
// tap goes to the row's position with Black the attacker, and the Solved
// tab lists the proved rows.
func TestAtlasTabColoursFollowTheBook(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	r := h.wb.s.Rules()
	rows := h.wb.ui.atlas.atlas.Rows()
	if len(rows) != 45 {
		t.Fatalf("%d atlas rows, want 45 (44 classes and the pass row)", len(rows))
	}
	set := map[int]c6book.Status{0: c6book.StatusProved, 2: c6book.StatusOpen, 3: c6book.StatusDisproved, 44: c6book.StatusProved}
	for i, st := range set {
		b, err := board.Replay(r, rows[i].Line)
		if err != nil {
			t.Fatal(err)
		}
		n := h.store.Node(b, true)
		n.Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: st}
		n.Proof[game.White] = c6book.Proof{Attacker: game.White, Status: c6book.StatusOpen}
	}
	h.wb.SetAttacker(game.White) // the atlas is Black's whatever the attacker shown
	u := h.wb.ui
	u.tabs.Select(u.atlasTab)
	h.pumpUntil("the atlas's statuses", func() bool { return h.wb.s.Busy() == 0 })
	if len(u.atlas.cells) != 45 {
		t.Fatalf("%d cells", len(u.atlas.cells))
	}
	for i, c := range u.atlas.cells {
		want := atlasColour(session.AtlasNotStarted)
		if st, ok := set[i]; ok {
			want = statusNRGBA(st)
		}
		bg := test.WidgetRenderer(c).(*atlasCellRenderer).bg
		if bg.StrokeColor != want {
			t.Errorf("row %d (%s): colour %v, want %v", i+1, rows[i].Name(r), bg.StrokeColor, want)
		}
	}
	if atlasColour(session.AtlasNotStarted) == statusNRGBA(c6book.StatusUnknown) || atlasColour(session.AtlasProved) == atlasColour(session.AtlasOpen) {
		t.Fatal("atlas colours not told apart")
	}
	// A tap goes there, Black the attacker.
	test.Tap(u.atlas.cells[2])
	h.pumpUntil("the row's position", func() bool { return h.wb.s.Busy() == 0 })
	if got := h.line(); got != "j10 "+rows[2].Name(r) {
		t.Fatalf("tap on row 3: line %q", got)
	}
	if h.wb.Cursor().Attacker() != game.Black {
		t.Fatal("the attacker is not Black after a tap on an atlas row")
	}
	// The Solved tab: the proved rows, a button each, that go there.
	u.tabs.Select(u.solvedTab)
	h.pumpUntil("the solved lists", func() bool { return h.wb.s.Busy() == 0 })
	var names []string
	for _, o := range u.atlas.provedRows.Objects {
		names = append(names, o.(*widget.Button).Text)
	}
	if len(names) != 2 || names[0] != "1 "+rows[0].Name(r) || names[1] != "45 pass" {
		t.Fatalf("Solved tab's atlas rows %q", names)
	}
	test.Tap(u.atlas.provedRows.Objects[1].(*widget.Button))
	h.pumpUntil("the pass row", func() bool { return h.wb.s.Busy() == 0 })
	if got := h.line(); got != "j10 a1s19" {
		t.Fatalf("pass row: line %q", got)
	}
	// A row proved later shows as proved on the next load.
	b, _ := board.Replay(r, rows[2].Line)
	h.store.Node(b, false).Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: c6book.StatusProved}
	h.wb.loadAtlas()
	h.pumpUntil("the atlas again", func() bool { return h.wb.s.Busy() == 0 })
	if bg := test.WidgetRenderer(u.atlas.cells[2]).(*atlasCellRenderer).bg; bg.StrokeColor != statusNRGBA(c6book.StatusProved) {
		t.Fatalf("row 3 proved: colour %v", bg.StrokeColor)
	}
	h.noErrors()
}
