package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
)

// lineText is a one-line text that, when its row is too narrow, cuts
// in the middle ("j10 i9k9 … m13r14 n12o12"): a line from the root keeps
// its start (the user's opening) and its end (where the position is).
// Wider, it shows all of it.
type lineText struct {
	widget.BaseWidget
	full string
	bold bool
	text *canvas.Text
}

func newLineText() *lineText {
	l := &lineText{text: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	l.ExtendBaseWidget(l)
	return l
}

// SetText sets the whole text.
func (l *lineText) SetText(s string, bold bool) {
	if s == l.full && bold == l.bold {
		return
	}
	l.full, l.bold = s, bold
	l.Refresh()
}

// Shown is the text as drawn at the widget's width.
func (l *lineText) Shown() string { return l.text.Text }

func (l *lineText) CreateRenderer() fyne.WidgetRenderer { return &lineTextRenderer{l: l} }

type lineTextRenderer struct{ l *lineText }

func (r *lineTextRenderer) Layout(size fyne.Size) {
	l := r.l
	pad := theme.InnerPadding()
	st := fyne.TextStyle{Bold: l.bold}
	l.text.TextStyle = st
	l.text.TextSize = theme.TextSize()
	l.text.Color = theme.Color(theme.ColorNameForeground)
	l.text.Text = midEllipsis(l.full, size.Width-2*pad, func(s string) float32 {
		return fyne.MeasureText(s, l.text.TextSize, st).Width
	})
	h := fyne.MeasureText("M", l.text.TextSize, st).Height
	l.text.Move(fyne.NewPos(pad, (size.Height-h)/2))
	l.text.Resize(fyne.NewSize(size.Width-2*pad, h))
	l.text.Refresh()
}

func (r *lineTextRenderer) MinSize() fyne.Size {
	h := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Bold: r.l.bold}).Height
	return fyne.NewSize(2*theme.InnerPadding(), h+2*theme.InnerPadding())
}

func (r *lineTextRenderer) Refresh()                     { r.Layout(r.l.Size()) }
func (r *lineTextRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.l.text} }
func (r *lineTextRenderer) Destroy()                     {}

// midEllipsis cuts s in the middle, at spaces where it can, so that it
// fits width (measured by w): the first words, "…", the last words. s fits:
// s itself.
func midEllipsis(s string, width float32, w func(string) float32) string {
	if s == "" || w(s) <= width {
		return s
	}
	words := strings.Split(s, " ")
	// The most words kept, split between the start and the end (the end
	// gets the extra one: where the position is).
	best := "…"
	for n := 1; n < len(words); n++ {
		head := (n) / 2
		tail := n - head
		t := strings.Join(words[:head], " ")
		if t != "" {
			t += " "
		}
		t += "… " + strings.Join(words[len(words)-tail:], " ")
		if w(t) > width {
			break
		}
		best = t
	}
	return best
}

// entryRow is a row of the Search and Solved lists: the status swatch, the
// line from the root (cut in the middle when narrow), and the label and
// comment at the right, given at most 40% of the row.
func newEntryRow() fyne.CanvasObject {
	note := widget.NewLabel("")
	note.Truncation = fyne.TextTruncateEllipsis
	return container.New(entryRowLayout{}, container.NewCenter(swatch()), newLineText(), note)
}

func setEntryRow(o fyne.CanvasObject, st c6book.Status, line, note string) {
	c := o.(*fyne.Container)
	sw := c.Objects[0].(*fyne.Container).Objects[0].(*canvas.Rectangle)
	sw.FillColor = statusColour(st)
	sw.Refresh()
	c.Objects[1].(*lineText).SetText(line, false)
	c.Objects[2].(*widget.Label).SetText(note)
	c.Refresh()
}

// entryRowLayout lays out an entry row: the swatch at its size, the note
// at its natural width up to 40% of the row, the line in the rest.
type entryRowLayout struct{}

func (entryRowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	sw, line, note := objs[0], objs[1], objs[2].(*widget.Label)
	sws := sw.MinSize()
	sw.Move(fyne.NewPos(0, 0))
	sw.Resize(fyne.NewSize(sws.Width, size.Height))
	nw := float32(0)
	if note.Text != "" {
		// (The width the label would want untruncated, its padding included.)
		full := widget.NewLabelWithStyle(note.Text, fyne.TextAlignLeading, note.TextStyle)
		nw = full.MinSize().Width + 2*theme.Padding() // (a truncating label wants a little more)
		nw = min(nw, 0.4*(size.Width-sws.Width))
	}
	lw := size.Width - sws.Width - nw
	line.Move(fyne.NewPos(sws.Width, 0))
	line.Resize(fyne.NewSize(lw, size.Height))
	note.Move(fyne.NewPos(sws.Width+lw, 0))
	note.Resize(fyne.NewSize(nw, size.Height))
}

func (entryRowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := max(objs[0].MinSize().Height, objs[1].MinSize().Height, objs[2].MinSize().Height)
	return fyne.NewSize(objs[0].MinSize().Width+objs[1].MinSize().Width, h)
}
