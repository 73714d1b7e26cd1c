package main

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// newStatusLine is the window's status bar (the verifier queue's state
// while jobs run): a one-line label whose height is kept when it is empty,
// so that the board does not move when a job starts or ends.
func newStatusLine() (*widget.Label, fyne.CanvasObject) {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	probe := widget.NewLabel("Xy")
	strut := canvas.NewRectangle(color.Transparent)
	strut.SetMinSize(fyne.NewSize(0, probe.MinSize().Height))
	return l, container.NewStack(strut, l)
}

// setStatus shows text in the status bar ("" leaves the line empty, its
// place kept).
func (wa *workbenchApp) setStatus(text string) {
	if wa.status.Text != text {
		wa.status.SetText(text)
	}
}
