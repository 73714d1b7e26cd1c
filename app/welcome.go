package main

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine"
)

// The welcome panel: when the book opened at start holds no move (a first
// start on the default book), a short panel above the workbench offers the
// ways in; it goes once the book shows a move.

// bookEmpty reports whether the open book stores no move out of its root.
func (wa *workbenchApp) bookEmpty(ctx context.Context) bool {
	root, err := engine.NewBoard(wa.bk.Rules())
	if err != nil {
		return false
	}
	kids, err := (&bookStore{bk: wa.bk}).Children(ctx, root, engine.Black)
	return err == nil && len(kids) == 0
}

func (wa *workbenchApp) newWelcome() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Welcome to c6book: this book is empty.", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	hint := widget.NewLabel("Import the LittleGolem games to browse an opening book of 37,000 games, " +
		"open a book you already have, or start a new one. To play a turn on the board, click two squares " +
		"(one square on Black's first turn).")
	hint.Wrapping = fyne.TextWrapWord
	importB := widget.NewButtonWithIcon("Import games…", theme.DownloadIcon(), wa.importGames)
	importB.Importance = widget.HighImportance
	if wa.bk.ReadOnly() != "" {
		importB.Disable()
	}
	buttons := container.NewBorder(nil, nil, container.NewHBox(importB,
		widget.NewButtonWithIcon("Open book…", theme.FolderOpenIcon(), wa.openBook),
		widget.NewButtonWithIcon("New book…", theme.DocumentCreateIcon(), wa.newBook)),
		widget.NewButtonWithIcon("Close", theme.CancelIcon(), wa.hideWelcome))
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	return container.NewPadded(container.NewStack(bg, container.NewVBox(title, hint, buttons)))
}

// updateWelcome hides the welcome panel once the book shows a move.
func (wa *workbenchApp) updateWelcome() {
	if wa.welcome == nil || !wa.welcome.Visible() {
		return
	}
	if line, _ := wa.wb.Cursor().Line(); len(line) > 0 || len(wa.wb.Cursor().Children()) > 0 {
		wa.hideWelcome()
	}
}

func (wa *workbenchApp) hideWelcome() {
	if wa.welcome != nil {
		wa.welcome.Hide()
		wa.welcomeBox.Refresh() // lays the workbench out again, over the panel's place
	}
}
