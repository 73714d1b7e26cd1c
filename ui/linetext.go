package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Positions as text: Ctrl+C copies the shown line in turn notation, Ctrl+V
// plays a line from the clipboard, Edit → Go to line… plays one typed; Redo
// is Ctrl+Shift+Z and Ctrl+Y. A focused text entry keeps its own copy,
// paste, undo and redo (Fyne gives a shortcut to the focused widget first).

// RedoShortcuts are Redo's keys: Ctrl+Shift+Z (⌘⇧Z) and Ctrl+Y.
func RedoShortcuts() []fyne.Shortcut {
	return []fyne.Shortcut{
		&desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift},
		&fyne.ShortcutRedo{},
	}
}

func (wb *Workbench) clipboard() fyne.Clipboard {
	if a := fyne.CurrentApp(); a != nil {
		return a.Clipboard()
	}
	return nil
}

// CopyLine puts the shown line in turn notation on the clipboard
// ("j10 i9k9 i7j9"; nothing at the root).
func (wb *Workbench) CopyLine() {
	if cb := wb.clipboard(); cb != nil {
		cb.SetContent(wb.s.LineText())
	}
}

// PasteLine plays the line on the clipboard from the root; a bad line is
// an error naming its turn, and changes nothing.
func (wb *Workbench) PasteLine() {
	cb := wb.clipboard()
	if cb == nil {
		return
	}
	if err := wb.s.PlayLineText(cb.Content()); err != nil {
		wb.OnError(err)
	}
}

// ShowGoToLine asks for a line in turn notation and plays it from the
// root; the field says which turn is wrong while the line is typed.
func (wb *Workbench) ShowGoToLine() {
	if wb.win == nil {
		return
	}
	e := widget.NewEntry()
	e.SetPlaceHolder("j10 i9k9 i7j9")
	e.SetText(wb.s.LineText())
	e.Validator = wb.s.CheckLineText
	item := widget.NewFormItem("Line", e)
	item.HintText = "turns from the start, each turn's stones together"
	d := dialog.NewForm("Go to line", "Go", "Cancel", []*widget.FormItem{item}, func(ok bool) {
		if ok {
			if err := wb.s.PlayLineText(e.Text); err != nil {
				wb.OnError(err)
			}
		}
	}, wb.win)
	d.Resize(fyne.NewSize(520, d.MinSize().Height))
	d.Show()
	wb.win.Canvas().Focus(e)
}
