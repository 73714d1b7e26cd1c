package main

import (
	"bytes"
	"context"
	"io"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/assets"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/service"
)

// The welcome panel: when the book opened at start holds no move (a first
// start on the default book), a short panel above the workbench offers the
// ways in; it goes once the book shows a move.

// bookEmpty reports whether the open book stores no move out of its root.
func (wa *workbenchApp) bookEmpty(ctx context.Context) bool {
	root, err := board.NewBoard(wa.bk.Rules())
	if err != nil {
		return false
	}
	kids, err := wa.bk.Store(service.StoreOptions{}).Children(ctx, root, game.Black)
	return err == nil && len(kids) == 0
}

func (wa *workbenchApp) newWelcome() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Welcome to c6book: this book is empty.", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	hint := widget.NewLabel("Import the LittleGolem games bundled with c6book to browse an opening book of " +
		bundledCount() + " games, import a games or SGF file, open a book you already have (or drop one on the window), " +
		"or start a new one. To play a turn on the board, click two squares (one square on Black's first turn).")
	hint.Wrapping = fyne.TextWrapWord
	bundledB := widget.NewButtonWithIcon(bundledLabel(), theme.DownloadIcon(), wa.importBundledGames)
	bundledB.Importance = widget.HighImportance
	importB := widget.NewButtonWithIcon("Import games…", theme.FileIcon(), wa.importGames)
	if wa.bk.ReadOnly() != "" {
		bundledB.Disable()
		importB.Disable()
	}
	wa.bundledButton = bundledB
	buttons := container.NewBorder(nil, nil, container.NewHBox(bundledB, importB,
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

// bundledCount is the number of bundled games, written with a thousands
// separator ("37,336").
func bundledCount() string {
	n := strconv.Itoa(assets.LittleGolemGamesCount)
	for i := len(n) - 3; i > 0; i -= 3 {
		n = n[:i] + "," + n[i:]
	}
	return n
}

// bundledLabel is the welcome panel's one-click import.
func bundledLabel() string {
	return "Import the " + bundledCount() + " bundled LittleGolem games"
}

// importBundledGames imports the LittleGolem games embedded in the app:
// the same import as File → Import games, read from memory.
func (wa *workbenchApp) importBundledGames() {
	wa.importGamesFrom(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(assets.LittleGolemGames())), nil
	})
}
