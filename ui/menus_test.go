package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine/game"
)

// The board's right-click menu plays, verifies, copies the line and
// labels the square, each through the session's action; the Line's and
// the Replies' rows have their menus (copy the line to a row, show a
// reply).
func TestContextMenus(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"a1a2"}}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10", "k10", "k11")
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	item := func(m *fyne.Menu, prefix string) *fyne.MenuItem {
		t.Helper()
		var labels []string
		for _, it := range m.Items {
			if strings.HasPrefix(it.Label, prefix) {
				return it
			}
			labels = append(labels, it.Label)
		}
		t.Fatalf("no %q in the menu %q", prefix, labels)
		return nil
	}
	clip := func() string { return fyne.CurrentApp().Clipboard().Content() }

	b := h.wb.BoardWidget()
	test.TapSecondaryAt(b, b.PointOf(h.sq("l12")))
	m := h.wb.lastMenu
	if m == nil {
		t.Fatal("a right click on the board shows no menu")
	}
	item(m, "Copy line").Action()
	if clip() != "j10 k10k11" {
		t.Fatalf("Copy line copied %q", clip())
	}
	if it := item(m, "Verify from here"); !it.Disabled {
		t.Fatal("Verify offered with the attacker to move")
	}
	item(m, "Label l12").Action()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if got := h.wb.Cursor().Info().Marks[h.sq("l12")]; got != "A" {
		t.Fatalf("Label l12 labelled it %q", got)
	}
	test.TapSecondaryAt(b, b.PointOf(h.sq("l12")))
	item(h.wb.lastMenu, "Remove the label of l12")
	item(h.wb.lastMenu, "Play l12").Action()
	if h.wb.Cursor().Pending() != h.sq("l12") {
		t.Fatal("Play l12 did not place the turn's first stone")
	}
	h.tap("l13")
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if got := h.line(); got != "j10 k10k11 l12l13" {
		t.Fatalf("after Play from the menu: %q", got)
	}
	// Verify from here, on the defender's turn.
	test.TapSecondaryAt(b, b.PointOf(h.sq("a19")))
	it := item(h.wb.lastMenu, "Verify from here")
	if it.Disabled {
		t.Fatal("Verify disabled with the defender to move")
	}
	it.Action()
	h.pumpUntil("the verdict", func() bool { return !h.wb.Prover().Running() && h.wb.s.Busy() == 0 })
	if v := h.wb.Cursor().Verdict(); v == nil || len(v.Unsolved) != 1 {
		t.Fatalf("Verify from the menu: verdict %+v", v)
	}

	// The Line's rows: copy the line to row 1.
	row := h.wb.ui.lineList.CreateItem().(*menuRow)
	h.wb.ui.lineList.UpdateItem(1, row)
	test.TapSecondary(row)
	item(h.wb.lastMenu, "Copy line to here").Action()
	if clip() != "j10" {
		t.Fatalf("the Line's row 1 copied %q", clip())
	}
	item(h.wb.lastMenu, "Go to this position").Action()
	if got := h.line(); got != "j10" {
		t.Fatalf("Go to this position: %q", got)
	}
	// The Replies' rows.
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	rr := h.wb.ui.kidList.CreateItem().(*replyRow)
	h.wb.ui.kidList.UpdateItem(0, rr)
	test.TapSecondary(rr)
	item(h.wb.lastMenu, "Copy line with k10k11").Action()
	if clip() != "j10 k10k11" {
		t.Fatalf("the reply's row copied %q", clip())
	}
	item(h.wb.lastMenu, "Show k10k11").Action()
	if got := h.line(); got != "j10 k10k11" {
		t.Fatalf("Show k10k11: %q", got)
	}
	h.noErrors()
}
