package main

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine/game"
	"c6book/ui"
)

// The board image with the overlay draws the zone and marks the board
// shows; without it (the export dialog's option unchecked) the squares
// they cover look like any empty square, and the stones are the same.
func TestExportBoardOverlayOption(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "j10 k10k11"})
	r := ta.wa.bk.Rules()
	sq := func(name string) game.Square {
		s, err := game.ParseSquare(r, name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	v := ta.wa.wb.BoardWidget().View()
	v.Zone = []game.Square{sq("e5"), sq("e6")}
	v.Marks = map[game.Square]string{sq("o15"): "A"}
	with := ta.wa.renderBoard(boardExportView(v, true), exportSide)
	without := ta.wa.renderBoard(boardExportView(v, false), exportSide)
	board := ui.NewBoard(v.Pos)
	board.Resize(fyne.NewSize(exportSide, exportSide))
	pix := func(which string, name string) [3]uint32 {
		p := board.PointOf(sq(name))
		img := with
		if which == "without" {
			img = without
		}
		cr, cg, cb, _ := img.At(int(p.X)+6, int(p.Y)+6).RGBA()
		return [3]uint32{cr >> 8, cg >> 8, cb >> 8}
	}
	empty := pix("without", "c16") // an empty square far from everything
	for _, name := range []string{"e5", "o15"} {
		if pix("with", name) == empty {
			t.Errorf("%s: the overlay image draws nothing there", name)
		}
		if pix("without", name) != empty {
			t.Errorf("%s: the image without overlay draws %v there, an empty square is %v", name, pix("without", name), empty)
		}
	}
	for _, name := range []string{"j10", "k10"} {
		if pix("with", name) != pix("without", name) {
			t.Errorf("%s: the stone differs with and without the overlay", name)
		}
	}
}
