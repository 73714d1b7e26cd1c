// Package ui holds c6book's Fyne widgets. It never runs SQL: it talks to
// small interfaces that the app wires to the proof book.
package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"c6book/engine"
)

// Board draws a position.
type Board struct {
	widget.BaseWidget
	pos *engine.Board
}

// NewBoard returns a board widget showing pos.
func NewBoard(pos *engine.Board) *Board {
	b := &Board{pos: pos}
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer implements fyne.Widget.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	r := &boardRenderer{b: b, bg: canvas.NewRectangle(color.NRGBA{0xde, 0xb8, 0x87, 0xff})}
	rules := b.pos.Rules()
	for i := 0; i < rules.M+rules.N; i++ {
		l := canvas.NewLine(color.Black)
		l.StrokeWidth = 1
		r.lines = append(r.lines, l)
	}
	return r
}

type boardRenderer struct {
	b     *Board
	bg    *canvas.Rectangle
	lines []*canvas.Line
}

func (r *boardRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	rules := r.b.pos.Rules()
	cell := size.Width / float32(rules.M+1)
	if h := size.Height / float32(rules.N+1); h < cell {
		cell = h
	}
	for x := 0; x < rules.M; x++ {
		l := r.lines[x]
		l.Position1 = fyne.NewPos(cell*float32(x+1), cell)
		l.Position2 = fyne.NewPos(cell*float32(x+1), cell*float32(rules.N))
	}
	for y := 0; y < rules.N; y++ {
		l := r.lines[rules.M+y]
		l.Position1 = fyne.NewPos(cell, cell*float32(y+1))
		l.Position2 = fyne.NewPos(cell*float32(rules.M), cell*float32(y+1))
	}
}

func (r *boardRenderer) MinSize() fyne.Size { return fyne.NewSize(200, 200) }
func (r *boardRenderer) Refresh()           { r.Layout(r.b.Size()); canvas.Refresh(r.b) }
func (r *boardRenderer) Destroy()           {}
func (r *boardRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.bg}
	for _, l := range r.lines {
		objs = append(objs, l)
	}
	return objs
}
