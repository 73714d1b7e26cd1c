package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"c6book/engine/game"
)

// Ctrl+C copies the shown line to the clipboard; Ctrl+V in another
// workbench plays it; a bad line on the clipboard is an error naming its
// turn; Ctrl+Shift+Z and Ctrl+Y redo what Ctrl+Z undid.
func TestCopyPasteRedoKeys(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k11", "i9", "h8", "l12")
	sc := h.w.Canvas().(fyne.Shortcutable)
	sc.TypedShortcut(&fyne.ShortcutCopy{})
	cb := fyne.CurrentApp().Clipboard()
	if got := cb.Content(); got != "j10 k11i9 h8l12" {
		t.Fatalf("clipboard %q after Ctrl+C", got)
	}
	g := newHarness(t, game.Connect6(), nil)
	cb = fyne.CurrentApp().Clipboard() // (the second harness's app)
	cb.SetContent("j10 k11i9 h8l12")
	g.w.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutPaste{})
	if got := g.line(); got != h.line() {
		t.Fatalf("pasted line %q, copied %q", got, h.line())
	}
	cb.SetContent("j10 k11i9 h8k11")
	g.w.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutPaste{})
	if len(g.errs) != 1 || !strings.Contains(g.errs[0].Error(), "turn 3: h8k11: square is occupied") {
		t.Fatalf("a bad paste: errors %v", g.errs)
	}
	g.errs = nil
	for _, redo := range RedoShortcuts() {
		g.w.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
		if n := len(g.wb.Cursor().Children()); g.line() != "" || n != 0 {
			t.Fatalf("after undoing the paste: line %q, %d replies", g.line(), n)
		}
		g.w.Canvas().(fyne.Shortcutable).TypedShortcut(redo)
		if g.line() != h.line() || g.wb.s.LineText() != "j10 k11i9 h8l12" {
			t.Fatalf("%s: line %q after redo", redo.ShortcutName(), g.line())
		}
	}
	h.noErrors()
	g.noErrors()
}
