// Package ui holds c6book's Fyne widgets. It never runs SQL: it talks to
// small interfaces (BookStore, Verifier) that the app wires to the proof book
// and the engine.
package ui

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine"
)

// BoardView is everything the board draws: the position and its overlays.
type BoardView struct {
	Pos     *engine.Board
	Numbers bool          // move numbers on stones (from the position's history)
	Pending engine.Square // first stone of a two-stone turn, NoSquare when none
	Zone    []engine.Square
	// Unsolved defender moves: each square of each move is marked, with the
	// number of unsolved moves it belongs to.
	Unsolved []engine.Move
	Children []Child // stored moves out of Pos, marked with their status colour
	Marks    map[engine.Square]string
}

// Colours of the board and its overlays.
var (
	colWood       = color.NRGBA{0xde, 0xb8, 0x87, 0xff}
	colGrid       = color.NRGBA{0x3a, 0x2a, 0x1a, 0xff}
	colBlack      = color.NRGBA{0x10, 0x10, 0x10, 0xff}
	colWhite      = color.NRGBA{0xf8, 0xf8, 0xf4, 0xff}
	colLast       = color.NRGBA{0xe0, 0x20, 0x20, 0xff}
	colZone       = color.NRGBA{0x40, 0x90, 0xff, 0x70}
	colUnsolved   = color.NRGBA{0xd0, 0x00, 0x30, 0xff}
	colUnsolvedBg = color.NRGBA{0xff, 0xff, 0xff, 0xc0}
	colTransp     = color.NRGBA{}
)

// StatusColour is the colour used for a proof status everywhere.
func StatusColour(s c6book.Status) color.Color { return statusNRGBA(s) }

func statusNRGBA(s c6book.Status) color.NRGBA {
	switch s {
	case c6book.StatusOpen:
		return color.NRGBA{0xf0, 0x8c, 0x00, 0xff}
	case c6book.StatusProved:
		return color.NRGBA{0x10, 0x90, 0x30, 0xff}
	case c6book.StatusDisproved:
		return color.NRGBA{0x80, 0x20, 0x90, 0xff}
	}
	return color.NRGBA{0x30, 0x60, 0xc0, 0xff}
}

// Board is the board widget: it draws a BoardView, reports taps on squares
// and forwards keys when focused.
type Board struct {
	widget.BaseWidget
	view BoardView

	// OnSquare is called when a square is tapped.
	OnSquare func(engine.Square)
	// OnKey receives keys typed while the board has the focus.
	OnKey func(*fyne.KeyEvent)
}

// NewBoard returns a board widget showing pos.
func NewBoard(pos *engine.Board) *Board {
	b := &Board{view: BoardView{Pos: pos, Pending: engine.NoSquare}}
	b.ExtendBaseWidget(b)
	return b
}

// SetView replaces what the board shows and redraws it.
func (b *Board) SetView(v BoardView) {
	if v.Pos == nil {
		v.Pos = b.view.Pos
	}
	b.view = v
	b.Refresh()
}

// View returns what the board shows.
func (b *Board) View() BoardView { return b.view }

// grid returns the cell size and the position of square (0,0)'s row/column
// origin for a widget of the given size.
type boardGeom struct {
	cell   float32
	x0, y0 float32 // centre of column a, row N (top row)
	m, n   int
}

func geomFor(r engine.Rules, size fyne.Size) boardGeom {
	cell := size.Width / float32(r.M+1)
	if h := size.Height / float32(r.N+1); h < cell {
		cell = h
	}
	w, h := cell*float32(r.M+1), cell*float32(r.N+1)
	return boardGeom{
		cell: cell,
		x0:   (size.Width-w)/2 + cell,
		y0:   (size.Height-h)/2 + cell/2 + cell/4,
		m:    r.M, n: r.N,
	}
}

func (g boardGeom) centre(x, y int) fyne.Position {
	return fyne.NewPos(g.x0+float32(x)*g.cell, g.y0+float32(g.n-1-y)*g.cell)
}

// SquareAt returns the square under p (widget coordinates).
func (b *Board) SquareAt(p fyne.Position) (engine.Square, bool) {
	r := b.view.Pos.Rules()
	g := geomFor(r, b.Size())
	fx := (p.X-g.x0)/g.cell + 0.5
	fy := (p.Y-g.y0)/g.cell + 0.5
	if fx < 0 || fy < 0 {
		return engine.NoSquare, false
	}
	x, row := int(fx), int(fy)
	y := r.N - 1 - row
	if !r.OnBoard(x, y) {
		return engine.NoSquare, false
	}
	return r.Sq(x, y), true
}

// PointOf returns the centre of square s in widget coordinates.
func (b *Board) PointOf(s engine.Square) fyne.Position {
	r := b.view.Pos.Rules()
	x, y := r.XY(s)
	return geomFor(r, b.Size()).centre(x, y)
}

// Tapped implements fyne.Tappable.
func (b *Board) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
		c.Focus(b)
	}
	if s, ok := b.SquareAt(ev.Position); ok && b.OnSquare != nil {
		b.OnSquare(s)
	}
}

// FocusGained implements fyne.Focusable.
func (b *Board) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (b *Board) FocusLost() {}

// TypedRune implements fyne.Focusable.
func (b *Board) TypedRune(rune) {}

// TypedKey implements fyne.Focusable.
func (b *Board) TypedKey(ev *fyne.KeyEvent) {
	if b.OnKey != nil {
		b.OnKey(ev)
	}
}

// CreateRenderer implements fyne.Widget.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	return &boardRenderer{b: b}
}

type boardRenderer struct {
	b    *Board
	objs []fyne.CanvasObject
	size fyne.Size
}

func (r *boardRenderer) Layout(size fyne.Size) {
	r.size = size
	r.build()
}

func (r *boardRenderer) MinSize() fyne.Size {
	rules := r.b.view.Pos.Rules()
	return fyne.NewSize(float32(rules.M+1)*16, float32(rules.N+1)*16)
}

func (r *boardRenderer) Refresh() {
	r.size = r.b.Size()
	r.build()
	canvas.Refresh(r.b)
}

func (r *boardRenderer) Destroy() {}

func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objs }

// build recreates the drawing: a few hundred primitive objects, rebuilt on
// every change (cheap next to one frame).
func (r *boardRenderer) build() {
	v := r.b.view
	pos := v.Pos
	rules := pos.Rules()
	g := geomFor(rules, r.size)
	cell := g.cell
	objs := make([]fyne.CanvasObject, 0, 64+3*rules.Squares()/2)
	add := func(o fyne.CanvasObject) { objs = append(objs, o) }

	// The wood covers the board and its coordinates only.
	bg := canvas.NewRectangle(colWood)
	bg.Move(fyne.NewPos(g.x0-cell, g.y0-cell*0.75))
	bg.Resize(fyne.NewSize(cell*float32(rules.M+1), cell*float32(rules.N+1)))
	add(bg)

	sqRect := func(s engine.Square, frac float32) (fyne.Position, fyne.Size) {
		x, y := rules.XY(s)
		c := g.centre(x, y)
		h := cell * frac / 2
		return fyne.NewPos(c.X-h, c.Y-h), fyne.NewSize(2*h, 2*h)
	}

	// Relevance zone: shaded squares under the grid.
	for _, s := range v.Zone {
		rect := canvas.NewRectangle(colZone)
		p, sz := sqRect(s, 1)
		rect.Move(p)
		rect.Resize(sz)
		add(rect)
	}

	// Grid lines and coordinates.
	top, bottom := g.centre(0, rules.N-1), g.centre(0, 0)
	left, right := g.centre(0, 0), g.centre(rules.M-1, 0)
	for x := 0; x < rules.M; x++ {
		c := g.centre(x, 0)
		l := canvas.NewLine(colGrid)
		l.StrokeWidth = 1
		l.Position1 = fyne.NewPos(c.X, top.Y)
		l.Position2 = fyne.NewPos(c.X, bottom.Y)
		add(l)
		add(centredText(string(rune('a'+x)), colGrid, cell*0.42, fyne.NewPos(c.X, bottom.Y+cell*0.75), false))
	}
	for y := 0; y < rules.N; y++ {
		c := g.centre(0, y)
		l := canvas.NewLine(colGrid)
		l.StrokeWidth = 1
		l.Position1 = fyne.NewPos(left.X, c.Y)
		l.Position2 = fyne.NewPos(right.X, c.Y)
		add(l)
		add(centredText(strconv.Itoa(y+1), colGrid, cell*0.42, fyne.NewPos(left.X-cell*0.7, c.Y), false))
	}
	for _, s := range starPoints(rules) {
		p, sz := sqRect(s, 0.2)
		dot := canvas.NewCircle(colGrid)
		dot.Move(p)
		dot.Resize(sz)
		add(dot)
	}

	// Unsolved defender moves, counted per square (drawn last).
	count := map[engine.Square]int{}
	var uorder []engine.Square
	for _, m := range v.Unsolved {
		for i := 0; i < m.Len(); i++ {
			s := m.At(i)
			if count[s] == 0 {
				uorder = append(uorder, s)
			}
			count[s]++
		}
	}

	// Children of the position: a coloured square on each empty square of a
	// stored move, the best status winning (not under an unsolved mark).
	best := map[engine.Square]c6book.Status{}
	rank := map[c6book.Status]int{c6book.StatusUnknown: 1, c6book.StatusDisproved: 2, c6book.StatusOpen: 3, c6book.StatusProved: 4}
	var order []engine.Square
	for _, ch := range v.Children {
		for i := 0; i < ch.Move.Len(); i++ {
			s := ch.Move.At(i)
			if pos.At(s) != engine.Empty || count[s] > 0 {
				continue
			}
			old, seen := best[s]
			if !seen {
				order = append(order, s)
			}
			if !seen || rank[ch.Status] > rank[old] {
				best[s] = ch.Status
			}
		}
	}
	for _, s := range order {
		rect := canvas.NewRectangle(statusNRGBA(best[s]))
		p, sz := sqRect(s, 0.42)
		rect.Move(p)
		rect.Resize(sz)
		add(rect)
	}

	// Stones, move numbers and the last turn.
	hist := pos.History()
	number := map[engine.Square]int{}
	last := map[engine.Square]bool{}
	for i, m := range hist {
		for j := 0; j < m.Len(); j++ {
			number[m.At(j)] = i + 1
			if i == len(hist)-1 {
				last[m.At(j)] = true
			}
		}
	}
	stone := func(s engine.Square, c engine.Color, alpha uint8) {
		fill, stroke := colBlack, colBlack
		if c == engine.White {
			fill, stroke = colWhite, colGrid
		}
		fill.A, stroke.A = alpha, alpha
		circ := canvas.NewCircle(fill)
		circ.StrokeColor = stroke
		circ.StrokeWidth = 1
		p, sz := sqRect(s, 0.92)
		circ.Move(p)
		circ.Resize(sz)
		add(circ)
	}
	for s := engine.Square(0); int(s) < rules.Squares(); s++ {
		c := pos.At(s)
		if c == engine.Empty {
			continue
		}
		stone(s, c, 0xff)
		x, y := rules.XY(s)
		ctr := g.centre(x, y)
		textCol := colWhite
		if c == engine.White {
			textCol = colBlack
		}
		if last[s] {
			ring := canvas.NewCircle(colTransp)
			ring.StrokeColor = colLast
			ring.StrokeWidth = 2
			p, sz := sqRect(s, 1.02)
			ring.Move(p)
			ring.Resize(sz)
			add(ring)
			if !v.Numbers {
				dot := canvas.NewCircle(colLast)
				p, sz := sqRect(s, 0.3)
				dot.Move(p)
				dot.Resize(sz)
				add(dot)
			}
		}
		if v.Numbers && number[s] > 0 {
			col := textCol
			if last[s] {
				col = colLast
			}
			add(centredText(strconv.Itoa(number[s]), col, cell*0.42, ctr, true))
		}
	}
	if v.Pending != engine.NoSquare {
		stone(v.Pending, pos.ToMove(), 0x90)
	}

	// Unsolved defender moves: a red ring with the number of unsolved moves
	// through the square.
	for _, s := range uorder {
		ring := canvas.NewRectangle(colUnsolvedBg)
		ring.StrokeColor = colUnsolved
		ring.StrokeWidth = 2
		p, sz := sqRect(s, 0.84)
		ring.Move(p)
		ring.Resize(sz)
		add(ring)
		x, y := rules.XY(s)
		add(centredText(strconv.Itoa(count[s]), colUnsolved, cell*0.6, g.centre(x, y), true))
	}

	// Board labels.
	for s := engine.Square(0); int(s) < rules.Squares(); s++ {
		txt, ok := v.Marks[s]
		if !ok || txt == "" {
			continue
		}
		x, y := rules.XY(s)
		ctr := g.centre(x, y)
		col := colBlack
		switch pos.At(s) {
		case engine.Black:
			col = colWhite
		case engine.Empty:
			back := canvas.NewRectangle(colWood)
			p, sz := sqRect(s, 0.7)
			back.Move(p)
			back.Resize(sz)
			add(back)
		}
		add(centredText(txt, col, cell*0.5, ctr, true))
	}
	r.objs = objs
}

// centredText returns a text object centred on c.
func centredText(s string, col color.Color, size float32, c fyne.Position, bold bool) *canvas.Text {
	t := canvas.NewText(s, col)
	t.TextSize = size
	t.TextStyle.Bold = bold
	ms := t.MinSize()
	t.Move(fyne.NewPos(c.X-ms.Width/2, c.Y-ms.Height/2))
	t.Resize(ms)
	return t
}

// starPoints are the traditional marks: the 3-3 style points of a 19×19
// board, the centre of other odd boards.
func starPoints(r engine.Rules) []engine.Square {
	if r.M == 19 && r.N == 19 {
		var out []engine.Square
		for _, x := range []int{3, 9, 15} {
			for _, y := range []int{3, 9, 15} {
				out = append(out, r.Sq(x, y))
			}
		}
		return out
	}
	if r.M%2 == 1 && r.N%2 == 1 {
		return []engine.Square{r.Sq(r.M/2, r.N/2)}
	}
	return nil
}
