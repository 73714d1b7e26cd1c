package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/session"
	"c6book/ui"
)

// exportSide is the size of an exported board image in pixels.
const exportSide = 900

// renderBoard draws a board view offscreen with Fyne's software painter
// (the one of the headless test driver, whose windows are in-memory
// canvases), so that an exported image does not depend on the window's size
// or on reading back the GPU's buffer (which Mesa's llvmpipe leaves empty).
//
// Importing fyne's test package has one side effect at start-up: its init
// makes a dummy current app, which app.NewWithID replaces in main before
// anything else runs. The test driver's file repository, registered on the
// first export, is the same stateless one the GL driver registers.
func (wa *workbenchApp) renderBoard(v ui.BoardView, side float32) image.Image {
	if wa.exportDrv == nil {
		wa.exportDrv = test.NewDriver()
	}
	w := wa.exportDrv.CreateWindow("export")
	defer w.Close()
	w.SetPadded(false)
	b := ui.NewBoard(v.Pos)
	b.SetView(v)
	w.SetContent(b)
	w.Resize(fyne.NewSize(side, side))
	return w.Canvas().Capture()
}

// writeBoardPNG writes the shown board as a PNG image: with overlay, as
// the board shows it (zone, unsolved moves, reply letters, the note's
// marks, a previewed move); else the stones only (with their numbers when
// the board shows them).
func (wa *workbenchApp) writeBoardPNG(out io.Writer, overlay bool) error {
	return png.Encode(out, wa.renderBoard(boardExportView(wa.wb.BoardWidget().View(), overlay), exportSide))
}

// boardExportView is the view an exported image draws: v as shown, or
// without overlay the picture of its stones only (and their numbers).
func boardExportView(v ui.BoardView, overlay bool) ui.BoardView {
	if overlay {
		return v
	}
	return ui.ViewOf(session.PictureOf(v.Pos, session.Position{}, nil, false), v.Numbers)
}

// prefExportOverlay remembers the PNG export's overlay choice.
const prefExportOverlay = "exportOverlay"

// exportPNG asks where to save the board image, with the overlay as an
// option of the dialog (the last choice, on at first), and saves it.
func (wa *workbenchApp) exportPNG() {
	overlay := widget.NewCheck("Include the overlay (zone, unsolved moves, reply letters, marks)", nil)
	overlay.SetChecked(wa.app.Preferences().BoolWithFallback(prefExportOverlay, true))
	wa.chooseFile(fileSpec{title: "Export board", confirm: "Save", save: true, name: "board.png", exts: []string{".png"},
		extra: []*widget.FormItem{widget.NewFormItem("", overlay)}}, func(path string) {
		wa.app.Preferences().SetBool(prefExportOverlay, overlay.Checked)
		var buf bytes.Buffer
		if err := wa.writeBoardPNG(&buf, overlay.Checked); err != nil {
			dialog.ShowError(err, wa.win)
			return
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			dialog.ShowError(fmt.Errorf("export board: %w", err), wa.win)
			return
		}
		dialog.ShowInformation("Export board", savedLine("board image", path, buf.Len()), wa.win)
	})
}
