package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// The Atlas tab: the opening atlas (session.Atlas) as a sheet of small
// boards, one per class of White's second move around Black's centre
// stone, each coloured by its status for Black in the book (proved, open,
// not started); a tap goes to the row's position. The Solved tab lists
// the proved rows above the proved positions.

// atlasColour is the colour of an atlas state: the board's status colours
// (statusColour) for the book's statuses, a light grey for a row nobody
// worked on.
func atlasColour(st session.AtlasState) color.NRGBA {
	switch st {
	case session.AtlasOpen:
		return statusNRGBA(c6book.StatusOpen)
	case session.AtlasProved:
		return statusNRGBA(c6book.StatusProved)
	case session.AtlasDisproved:
		return statusNRGBA(c6book.StatusDisproved)
	case session.AtlasUnchecked:
		return statusNRGBA(c6book.StatusUnchecked)
	}
	return color.NRGBA{0xc8, 0xc8, 0xc8, 0xff}
}

// atlasCellSize is an atlas cell's size (a small board and its caption).
var atlasCellSize = fyne.NewSize(74, 88)

// atlasCell is one row of the atlas: its (2d+1)² squares around the
// centre with Black's stone and White's two, and its number and move.
type atlasCell struct {
	widget.BaseWidget
	row   session.AtlasRow
	d     int
	rules game.Rules
	onTap func()
}

func newAtlasCell(row session.AtlasRow, d int, r game.Rules, onTap func()) *atlasCell {
	c := &atlasCell{row: row, d: d, rules: r, onTap: onTap}
	c.ExtendBaseWidget(c)
	return c
}

// Tapped implements fyne.Tappable.
func (c *atlasCell) Tapped(*fyne.PointEvent) {
	if c.onTap != nil {
		c.onTap()
	}
}

// MinSize implements fyne.Widget.
func (c *atlasCell) MinSize() fyne.Size { return atlasCellSize }

// CreateRenderer implements fyne.Widget.
func (c *atlasCell) CreateRenderer() fyne.WidgetRenderer {
	pal := currentPalette()
	r := &atlasCellRenderer{c: c, bg: canvas.NewRectangle(color.Transparent), wood: canvas.NewRectangle(pal.wood),
		caption: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	r.bg.StrokeWidth = 3
	r.bg.CornerRadius = 4
	r.caption.TextSize = theme.CaptionTextSize()
	r.caption.Alignment = fyne.TextAlignCenter
	n := 2*c.d + 1
	for i := 0; i < 2*n; i++ {
		l := canvas.NewLine(pal.grid)
		l.StrokeWidth = 1
		r.lines = append(r.lines, l)
	}
	for i := 0; i < 3; i++ {
		s := canvas.NewCircle(pal.black)
		s.StrokeColor = pal.black
		s.StrokeWidth = 1
		r.stones = append(r.stones, s)
	}
	r.stones[1].FillColor, r.stones[2].FillColor = pal.white, pal.white
	r.Refresh()
	return r
}

type atlasCellRenderer struct {
	c       *atlasCell
	bg      *canvas.Rectangle // the row's state: its colour
	wood    *canvas.Rectangle
	lines   []*canvas.Line
	stones  []*canvas.Circle // Black's centre stone, White's two
	caption *canvas.Text
}

func (r *atlasCellRenderer) Destroy() {}

func (r *atlasCellRenderer) MinSize() fyne.Size { return atlasCellSize }

func (r *atlasCellRenderer) Objects() []fyne.CanvasObject {
	out := []fyne.CanvasObject{r.bg, r.wood}
	for _, l := range r.lines {
		out = append(out, l)
	}
	for _, s := range r.stones {
		out = append(out, s)
	}
	return append(out, r.caption)
}

// Refresh shows the row's state and caption.
func (r *atlasCellRenderer) Refresh() {
	c := r.c
	full := atlasColour(c.row.State)
	fill := full
	fill.A = 0x80
	r.bg.FillColor, r.bg.StrokeColor = fill, full
	name := c.row.Name(c.rules)
	r.caption.Text = fmt.Sprintf("%d  %s", c.row.Number, name)
	r.caption.Color = theme.Color(theme.ColorNameForeground)
	r.bg.Refresh()
	r.caption.Refresh()
	r.Layout(c.Size())
}

// Layout places the grid, the stones and the caption.
func (r *atlasCellRenderer) Layout(size fyne.Size) {
	c := r.c
	r.bg.Resize(size)
	r.bg.Move(fyne.NewPos(0, 0))
	capH := r.caption.MinSize().Height
	n := 2*c.d + 1
	side := fyne.Min(size.Width-12, size.Height-capH-12)
	if side < 4 {
		side = 4
	}
	step := side / float32(n)
	x0, y0 := (size.Width-side)/2, float32(6)
	r.wood.Move(fyne.NewPos(x0, y0))
	r.wood.Resize(fyne.NewSize(side, side))
	// Lines through the squares' centres.
	for i := 0; i < n; i++ {
		p := step * (float32(i) + 0.5)
		h, v := r.lines[2*i], r.lines[2*i+1]
		h.Position1, h.Position2 = fyne.NewPos(x0+step/2, y0+p), fyne.NewPos(x0+side-step/2, y0+p)
		v.Position1, v.Position2 = fyne.NewPos(x0+p, y0+step/2), fyne.NewPos(x0+p, y0+side-step/2)
	}
	rad := step * 0.42
	at := func(s *canvas.Circle, dx, dy float32) {
		// Row 1 at the bottom, as on the board.
		cx := x0 + step*(float32(c.d)+dx+0.5)
		cy := y0 + step*(float32(c.d)-dy+0.5)
		s.Move(fyne.NewPos(cx-rad, cy-rad))
		s.Resize(fyne.NewSize(2*rad, 2*rad))
	}
	at(r.stones[0], 0, 0)
	mx, my := c.rules.M/2, c.rules.N/2
	for k := 0; k < 2 && k < c.row.Move.Len(); k++ {
		x, y := c.rules.XY(c.row.Move.At(k))
		dx, dy := x-mx, y-my
		if c.row.Pass { // far corners: drawn at the sheet's corners
			dx, dy = sign(dx)*c.d, sign(dy)*c.d
		}
		at(r.stones[1+k], float32(dx), float32(dy))
	}
	r.caption.Resize(fyne.NewSize(size.Width, capH))
	r.caption.Move(fyne.NewPos(0, size.Height-capH-3))
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// atlasPanel is the Atlas tab and the Solved tab's proved rows.
type atlasPanel struct {
	wb      *Workbench
	atlas   *session.Atlas
	box     fyne.CanvasObject
	grid    *fyne.Container
	summary *widget.Label
	title   *widget.Label
	distS   *widget.Select
	cells   []*atlasCell
	// proved is the Solved tab's row of proved atlas rows.
	provedBox  *fyne.Container
	provedRows *fyne.Container
}

func newAtlasPanel(wb *Workbench) *atlasPanel {
	p := &atlasPanel{wb: wb, atlas: session.NewAtlas(wb.s, 2)}
	p.summary = widget.NewLabel("")
	p.title = widget.NewLabel("")
	p.summary.Wrapping = fyne.TextWrapWord
	p.distS = widget.NewSelect([]string{"d = 2", "d = 3"}, func(s string) {
		d := 2
		if s == "d = 3" {
			d = 3
		}
		if d != p.atlas.Distance() {
			p.atlas.SetDistance(d)
			p.show()
			wb.loadAtlas()
		}
	})
	p.distS.SetSelected("d = 2")
	legend := container.NewHBox()
	for _, st := range []session.AtlasState{session.AtlasProved, session.AtlasOpen, session.AtlasNotStarted, session.AtlasDisproved} {
		sw := swatch()
		sw.FillColor = atlasColour(st)
		legend.Add(container.NewCenter(sw))
		legend.Add(widget.NewLabel(st.String()))
	}
	p.grid = container.NewGridWrap(atlasCellSize)
	head := container.NewVBox(
		container.NewHBox(p.title, p.distS,
			widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { wb.loadAtlas() })),
		legend, p.summary)
	p.box = container.NewBorder(head, nil, nil, nil, container.NewVScroll(p.grid))
	p.provedRows = container.NewHBox()
	p.provedBox = container.NewVBox(widget.NewLabel("Atlas rows proved for Black (c6 book atlas):"), container.NewHScroll(p.provedRows))
	p.show()
	return p
}

// show renders the atlas's rows and states.
func (p *atlasPanel) show() {
	a := p.atlas
	rows := a.Rows()
	p.summary.SetText(a.Summary() + ". Click a row to go there.")
	p.title.SetText(fmt.Sprintf("White's second move around Black's %s, stones within", game.SquareName(p.wb.s.Rules(), board.AtlasCentre(p.wb.s.Rules()))))
	if len(p.cells) != len(rows) || len(rows) > 0 && p.cells[0].d != a.Distance() || len(rows) > 0 && p.cells[0].rules != p.wb.s.Rules() {
		p.cells = p.cells[:0]
		var objs []fyne.CanvasObject
		for i, row := range rows {
			c := newAtlasCell(row, a.Distance(), p.wb.s.Rules(), func() { p.wb.openAtlasRow(i) })
			p.cells = append(p.cells, c)
			objs = append(objs, c)
		}
		p.grid.Objects = objs
		p.grid.Refresh()
	} else {
		for i, c := range p.cells {
			if c.row.State != rows[i].State || c.row.Number != rows[i].Number {
				c.row = rows[i]
				c.Refresh()
			}
		}
	}
	var proved []fyne.CanvasObject
	for _, row := range a.Proved() {
		i := row.Number - 1
		proved = append(proved, widget.NewButton(fmt.Sprintf("%d %s", row.Number, row.Name(p.wb.s.Rules())), func() { p.wb.openAtlasRow(i) }))
	}
	if len(proved) == 0 {
		proved = append(proved, widget.NewLabel("none yet"))
	}
	p.provedRows.Objects = proved
	p.provedRows.Refresh()
}

// ShowAtlas shows the Atlas tab (which reads the rows' statuses).
func (wb *Workbench) ShowAtlas() { wb.ui.tabs.Select(wb.ui.atlasTab) }

// loadAtlas reads the atlas rows' statuses from the book and shows them
// (in the Atlas tab and the Solved tab's proved rows).
func (wb *Workbench) loadAtlas() { wb.ui.atlas.atlas.Load(wb.ui.atlas.show) }

// openAtlasRow goes to the position of the atlas's row i (0-based), Black
// the attacker.
func (wb *Workbench) openAtlasRow(i int) {
	if wb.s.Cursor().Attacker() != game.Black {
		wb.SetAttacker(game.Black)
	}
	wb.ui.atlas.atlas.Open(i)
}
