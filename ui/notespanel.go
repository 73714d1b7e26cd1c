package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/board"
)

// notesPanel is the Notes tab: the shown position's label and comment,
// stored as they are typed (once the typing pauses) and by Save notes.
type notesPanel struct {
	wb       *Workbench
	box      fyne.CanvasObject
	notesPos *board.Board // the position the notes were filled for
	filling  bool         // the notes are being filled (not typed)
	labelE   *widget.Entry
	commentE *widget.Entry
	saveB    *widget.Button
}

func newNotesPanel(wb *Workbench) *notesPanel {
	np := &notesPanel{wb: wb}
	// Notes.
	np.labelE = widget.NewEntry()
	np.labelE.SetPlaceHolder("label (joseki, trap…)")
	np.commentE = widget.NewMultiLineEntry()
	np.commentE.SetPlaceHolder("comment (saved as you type)")
	np.commentE.Wrapping = fyne.TextWrapWord
	// Saved as you type (once the typing pauses) and when the position
	// changes; the button saves at once.
	typed := func(string) {
		if !np.filling {
			wb.s.Notes().Edit(np.commentE.Text, np.labelE.Text)
		}
	}
	np.labelE.OnChanged = typed
	np.commentE.OnChanged = typed
	np.saveB = widget.NewButtonWithIcon("Save notes", theme.DocumentSaveIcon(), func() {
		wb.Notes().Save(np.commentE.Text, np.labelE.Text)
	})
	notes := container.NewBorder(container.NewVBox(np.labelE), container.NewHBox(np.saveB,
		// (short: the widest tab sets the right pane's width, and so the board's)
		widget.NewLabel("“Label squares” puts letters on the board.")), nil, nil, np.commentE)
	np.box = notes
	return np
}

// show fills the notes of a new position, but never overwrites typing in
// place. (Once the book has answered for a new position; a reload of the
// same one after an edit leaves them alone.)
func (np *notesPanel) show() {
	c := np.wb.s.Cursor()
	if p := c.Position(); c.Loaded() && (p != np.notesPos || !c.Info().Found) && !np.wb.s.Notes().Pending() {
		np.notesPos = p
		np.filling = true
		np.labelE.SetText(c.Info().Label)
		np.commentE.SetText(c.Info().Comment)
		np.filling = false
	}
}
