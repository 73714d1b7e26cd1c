// Command c6book is the desktop workbench: the only package that wires the
// engine, the proof book and the widgets together.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"c6book/engine"
	"c6book/ui"
)

// appID is set in code so that storage and preferences have a stable home.
const appID = "org.c6book.workbench"

func main() {
	a := app.NewWithID(appID)
	w := a.NewWindow("c6book")
	board := ui.NewBoard(engine.MustNewBoard(engine.Connect6()))
	w.SetContent(board)
	w.Resize(fyne.NewSize(760, 760))
	w.ShowAndRun()
}
