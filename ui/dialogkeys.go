package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// answerDialogKeys makes the dialogs shown on c answer Enter (their
// confirm button) and Esc (their dismiss button), every dialog alike (the
// app's errors, confirmations, forms, the Preferences). Other keys go to
// next (the workbench's: the board stays usable while a progress dialog
// is shown). A key typed into a focused field goes to the field
// (DialogEntry answers Enter and Esc as the dialog).
func answerDialogKeys(c fyne.Canvas, next func(*fyne.KeyEvent)) func(*fyne.KeyEvent) {
	return func(ev *fyne.KeyEvent) {
		if p, ok := c.Overlays().Top().(*widget.PopUp); ok {
			var b *widget.Button
			switch ev.Name {
			case fyne.KeyReturn, fyne.KeyEnter:
				b = dialogButton(p, true)
			case fyne.KeyEscape:
				b = dialogButton(p, false)
			}
			if b != nil && b.OnTapped != nil {
				b.OnTapped()
				return
			}
		}
		if next != nil {
			next(ev)
		}
	}
}

// dialogButton is a dialog's confirm button (the one of high importance,
// else its only button) or its dismiss button (its only button not of
// high importance), nil when there is none or it is disabled. A fyne
// v2.7.1 dialog is a modal pop-up over a container whose fourth object
// holds its buttons and fifth its title (dialog/base.go create; TestDialogsAnswerEnterEsc
// fails if that changes).
func dialogButton(p *widget.PopUp, confirm bool) *widget.Button {
	c, ok := p.Content.(*fyne.Container)
	if !ok || len(c.Objects) != 5 {
		return nil // (not a dialog: a file chooser answers its own)
	}
	if _, title := c.Objects[4].(*widget.Label); !title {
		return nil
	}
	var high, other []*widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch o := o.(type) {
		case *widget.Button:
			if o.Importance == widget.HighImportance {
				high = append(high, o)
			} else {
				other = append(other, o)
			}
		case *fyne.Container:
			for _, k := range o.Objects {
				walk(k)
			}
		}
	}
	walk(c.Objects[3])
	var b *widget.Button
	switch {
	case confirm && len(high) == 1:
		b = high[0]
	case confirm && len(high) == 0 && len(other) == 1:
		b = other[0]
	case !confirm && len(other) == 1:
		b = other[0]
	}
	if b == nil || b.Disabled() {
		return nil
	}
	return b
}

// DialogEntry is a one-line entry for a dialog on canvas c: Enter in it
// confirms the dialog and Esc dismisses it, as with no field focused (a
// plain entry keeps both keys).
type DialogEntry struct {
	widget.Entry
	c fyne.Canvas
}

// NewDialogEntry is an empty DialogEntry for a dialog on c.
func NewDialogEntry(c fyne.Canvas) *DialogEntry {
	e := &DialogEntry{c: c}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *DialogEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyEscape:
		answerDialogKeys(e.c, nil)(ev)
		return
	}
	e.Entry.TypedKey(ev)
}
