package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/game"
	"c6book/session/sessiontest"
)

// tapRow taps, as a user's click does, the row of list l that shows a
// label containing want (the list takes the focus, as on the desktop).
func tapRow(t *testing.T, l *keyList, want string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(l) {
		row, ok := o.(fyne.Tappable)
		if !ok || fmt.Sprintf("%T", o) != "*widget.listItem" || !o.Visible() {
			continue
		}
		for _, k := range test.LaidOutObjects(o) {
			if lb, ok := k.(*widget.Label); ok && strings.Contains(lb.Text, want) {
				test.Tap(row)
				return
			}
		}
	}
	t.Fatalf("no row shows %q", want)
}

// clickButton clicks a button as the desktop driver does: the focus stays
// where it was (Fyne's test.Tap would take it away, hiding the problem).
func clickButton(b *widget.Button) { b.Tapped(&fyne.PointEvent{}) }

// toolButton is the board's toolbar button that runs like run (the
// toolbar's buttons have icons only).
func (h *harness) toolButton(i int) *widget.Button {
	var bs []*widget.Button
	for _, o := range test.LaidOutObjects(h.wb.ui.boardPanel.box) {
		if b, ok := o.(*widget.Button); ok && b.Text == "" {
			bs = append(bs, b)
		}
	}
	if i >= len(bs) {
		h.t.Fatalf("no toolbar button %d (%d)", i, len(bs))
	}
	return bs[i]
}

func (h *harness) wantLine(after, want string) {
	h.t.Helper()
	if got := h.line(); got != want {
		h.t.Fatalf("after %s the line is %q, want %q", after, got, want)
	}
}

// The navigation keys move the cursor whatever was clicked last: a row of
// the Line, Replies or Games list (which takes the focus), a toolbar
// button (which leaves it where it was), a check box; in the notes entry
// they edit the text instead.
func TestNavigationKeysAfterClicks(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k10", "k11", "l10", "l11")
	full := "j10 k10k11 l10l11"
	h.wantLine("the taps", full)

	// The Line list: a click on row 1 goes there and focuses the list.
	tapRow(t, h.wb.ui.lineList, "1. B j10")
	if h.w.Canvas().Focused() != fyne.Focusable(h.wb.ui.lineList) {
		t.Fatalf("the Line list did not take the focus: %T", h.w.Canvas().Focused())
	}
	h.wantLine("a click on the Line list's row 1", "j10")
	h.key(fyne.KeyRight)
	h.wantLine("→ (Line list focused)", "j10 k10k11")
	h.key(fyne.KeyLeft)
	h.wantLine("← (Line list focused)", "j10")
	h.key(fyne.KeyEnd)
	h.wantLine("End (Line list focused)", full)
	h.key(fyne.KeyHome)
	h.wantLine("Home (Line list focused)", "")

	// The Replies list.
	tapRow(t, h.wb.ui.kidList, "j10")
	if h.w.Canvas().Focused() != fyne.Focusable(h.wb.ui.kidList) {
		t.Fatalf("the Replies list did not take the focus: %T", h.w.Canvas().Focused())
	}
	h.wantLine("a click on the reply j10", "j10")
	h.key(fyne.KeyEnd)
	h.wantLine("End (Replies focused)", full)
	h.key(fyne.KeyLeft)
	h.wantLine("← (Replies focused)", "j10 k10k11")

	// A toolbar button (Back): the Replies list keeps the focus, the keys
	// still navigate.
	clickButton(h.toolButton(1))
	h.wantLine("the Back button", "j10")
	h.key(fyne.KeyRight)
	h.wantLine("→ after the Back button", "j10 k10k11")
	h.key(fyne.KeyHome)
	h.wantLine("Home after the Back button", "")

	// ↑/↓ go to the sibling reply, not to the list's highlight.
	h.tap("j10")
	h.wb.Cursor().Back()
	h.tap("k9")
	h.wb.Cursor().Home()
	h.key(fyne.KeyRight)
	first := h.line()
	// Two siblings, j10 and k9: one of ↑ and ↓ goes to the other, and the
	// other key comes back.
	there, back := fyne.KeyName(fyne.KeyDown), fyne.KeyName(fyne.KeyUp)
	if h.key(there); h.line() == first {
		there, back = back, there
		h.key(there)
	}
	if second := h.line(); second == first || (second != "j10" && second != "k9") {
		t.Fatalf("%s (Replies focused) went from %q to %q", there, first, second)
	}
	h.key(back)
	h.wantLine(string(back)+" (Replies focused)", first)

	// A check box (Numbers) takes the focus when clicked.
	test.Tap(h.wb.ui.numbers)
	if h.w.Canvas().Focused() != fyne.Focusable(h.wb.ui.numbers) {
		t.Fatalf("the check box did not take the focus: %T", h.w.Canvas().Focused())
	}
	h.wb.Cursor().GoToLine(mustTurns(t, full))
	h.key(fyne.KeyLeft)
	h.wantLine("← (check box focused)", "j10 k10k11")
	if h.key(fyne.KeyEnd); h.line() != full {
		t.Fatalf("End (check box focused): %q", h.line())
	}

	// The Games list.
	h.store.AddGame(sessiontest.Game{Source: "littlegolem", ExtID: "7", Turns: mustTurns(t, "j10 j9k9 l10l11")})
	h.wb.Cursor().GoToLine(mustTurns(t, "j10"))
	h.wb.ui.tabs.SelectIndex(2)
	if h.wb.ui.tabs.Selected().Text != "Games" {
		t.Fatal("no Games tab")
	}
	h.w.Resize(fyne.NewSize(1200, 801)) // lay the tab out
	tapRow(t, h.wb.ui.gamesList, "littlegolem 7")
	if h.w.Canvas().Focused() != fyne.Focusable(h.wb.ui.gamesList) {
		t.Fatalf("the Games list did not take the focus: %T", h.w.Canvas().Focused())
	}
	h.wantLine("a click on the game", "j10")
	h.key(fyne.KeyRight)
	h.wantLine("→ (Games focused)", "j10 j9k9")
	h.key(fyne.KeyEnd)
	h.wantLine("End (Games focused)", "j10 j9k9 l10l11")
	h.key(fyne.KeyHome)
	h.wantLine("Home (Games focused)", "")

	// The notes entry keeps its keys: they move the caret, not the cursor.
	h.wb.ui.tabs.SelectIndex(1)
	h.w.Resize(fyne.NewSize(1200, 800))
	e := h.wb.ui.notesPanel.commentE
	h.w.Canvas().Focus(e) // as a click in it does
	if h.w.Canvas().Focused() != fyne.Focusable(e) {
		t.Fatalf("the notes entry did not take the focus: %T", h.w.Canvas().Focused())
	}
	test.Type(e, "idea")
	before := h.line()
	col := e.CursorColumn
	h.key(fyne.KeyLeft)
	if h.line() != before || e.CursorColumn != col-1 {
		t.Fatalf("← in the notes entry: line %q (was %q), caret %d (was %d)", h.line(), before, e.CursorColumn, col)
	}
	h.key(fyne.KeyHome)
	if h.line() != before || e.CursorColumn != 0 {
		t.Fatalf("Home in the notes entry: line %q, caret %d", h.line(), e.CursorColumn)
	}
	h.noErrors()
}

// The Navigate menu lists the table's keys with their accelerators, and
// its items do what the keys do.
func TestNavigateMenu(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k10", "k11")
	next := fyne.NewMenuItem("Next position to prove", func() {})
	m := h.wb.NavMenu(next)
	if m.Label != "Navigate" {
		t.Fatalf("menu %q", m.Label)
	}
	byLabel := map[string]*fyne.MenuItem{}
	for _, it := range m.Items {
		byLabel[it.Label] = it
	}
	n := 0
	for _, k := range h.wb.navKeys() {
		it := byLabel[k.Label]
		if !k.Menu {
			if it != nil {
				t.Fatalf("%s is in the menu", k.Label)
			}
			continue
		}
		n++
		sc, ok := it.Shortcut.(fyne.KeyboardShortcut)
		if it == nil || !ok || sc.Key() != k.Key || sc.Mod() != 0 {
			t.Fatalf("menu item %q: %+v", k.Label, it)
		}
	}
	if n < 6 || byLabel["Next position to prove"] != next {
		t.Fatalf("%d navigation items, next %v", n, byLabel["Next position to prove"])
	}
	byLabel["Back"].Action()
	h.wantLine("Navigate → Back", "j10")
	byLabel["End of line"].Action()
	h.wantLine("Navigate → End of line", "j10 k10k11")
	byLabel["Start of line"].Action()
	h.wantLine("Navigate → Start of line", "")
}
