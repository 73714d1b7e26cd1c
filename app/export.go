package main

import (
	"image"
	"image/png"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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

func (wa *workbenchApp) writeBoardPNG(out io.Writer) error {
	return png.Encode(out, wa.renderBoard(wa.wb.BoardWidget().View(), exportSide))
}
