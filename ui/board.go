// Package ui holds c6book's Fyne widgets. It never runs SQL: it talks to
// small interfaces (BookStore, Verifier) that the app wires to the proof book
// and the engine.
package ui

import (
	"image"
	"image/color"
	"image/draw"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// BoardView is everything the board draws: the position and its overlays.
type BoardView struct {
	Pos     *board.Board
	Numbers bool        // move numbers on stones (from the position's history)
	Pending game.Square // first stone of a two-stone turn, NoSquare when none
	Zone    []game.Square
	// Unsolved defender moves: each square of each move is marked, with the
	// number of unsolved moves it belongs to.
	Unsolved []game.Move
	// Children are the stored moves out of Pos in the Replies list's
	// order: each is marked with its letter (replyLetter) in its status
	// colour (replies.go).
	Children []session.Child
	// Hide says which Children the Replies filter hides (not marked; their
	// letters stay those of the full list); nil: none.
	Hide []bool
	// Preview is a move shown, not played: the squares of a selected engine
	// candidate, drawn as faint stones of the side to move.
	Preview []game.Square
	// PreviewReply is the opponent's answer the engine expects to Preview
	// (the next move of its line; when every move loses, the threat),
	// drawn as faint stones of the other side.
	PreviewReply []game.Square
	Marks        map[game.Square]string
}

// ViewOf is the view that draws picture p (the board export's data,
// session.Picture), with move numbers on the stones when numbers.
func ViewOf(p session.Picture, numbers bool) BoardView {
	return BoardView{Pos: p.Pos, Numbers: numbers, Pending: game.NoSquare, Zone: p.Zone, Unsolved: p.Unsolved, Children: p.Children, Marks: p.Marks}
}

// Colours of the overlays (the board's own come from the theme:
// boardcolors.go).
var (
	colZone     = color.NRGBA{0x40, 0x90, 0xff, 0x58}
	colUnsolved = color.NRGBA{0xd0, 0x00, 0x30, 0xff}
	colTransp   = color.NRGBA{}
	colWin      = color.NRGBA{0xff, 0xc0, 0x00, 0xff}
	colPreview  = color.NRGBA{0x30, 0x60, 0xc0, 0xff}
)

// statusColour is the colour used for a proof status everywhere.
func statusColour(s c6book.Status) color.Color { return statusNRGBA(s) }

func statusNRGBA(s c6book.Status) color.NRGBA {
	switch s {
	case c6book.StatusOpen:
		return color.NRGBA{0xf0, 0x8c, 0x00, 0xff}
	case c6book.StatusProved:
		return color.NRGBA{0x10, 0x90, 0x30, 0xff}
	case c6book.StatusDisproved:
		return color.NRGBA{0x80, 0x20, 0x90, 0xff}
	case c6book.StatusUnchecked: // stored as proved, not re-checked since an outside change
		return color.NRGBA{0x80, 0x80, 0x80, 0xff}
	}
	return color.NRGBA{0x30, 0x60, 0xc0, 0xff}
}

// Board is the board widget: it draws a BoardView, reports taps on squares
// and forwards keys when focused.
type Board struct {
	widget.BaseWidget
	view BoardView

	// onSquare is called when a square is tapped.
	onSquare func(game.Square)
	// onKey receives keys typed while the board has the focus.
	onKey func(*fyne.KeyEvent)
	// onMenu is a right click on square s, at abs in the window (the
	// board's menu: menus.go).
	onMenu func(s game.Square, abs fyne.Position)
	// onReplyFocus is called when the stored reply the board ties and
	// previews changes (hovered on the board or in the list, or through
	// the pending stone): its index in the view's Children, -1 when none.
	onReplyFocus func(i int)

	focus int // the reply hovered (board or list), -1 when none
	shown int // the reply last told to onReplyFocus, -1 when none
}

// NewBoard returns a board widget showing pos.
func NewBoard(pos *board.Board) *Board {
	b := &Board{view: BoardView{Pos: pos, Pending: game.NoSquare}, focus: -1, shown: -1}
	b.ExtendBaseWidget(b)
	return b
}

// SetView replaces what the board shows and redraws it.
func (b *Board) SetView(v BoardView) {
	if v.Pos == nil {
		v.Pos = b.view.Pos
	}
	if v.Pos != b.view.Pos || len(v.Children) != len(b.view.Children) {
		b.focus = -1 // other replies
	}
	b.view = v
	b.Refresh()
	b.focusChanged()
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

func geomFor(r game.Rules, size fyne.Size) boardGeom {
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

// squareAt returns the square under p (widget coordinates).
func (b *Board) squareAt(p fyne.Position) (game.Square, bool) {
	r := b.view.Pos.Rules()
	g := geomFor(r, b.Size())
	fx := (p.X-g.x0)/g.cell + 0.5
	fy := (p.Y-g.y0)/g.cell + 0.5
	if fx < 0 || fy < 0 {
		return game.NoSquare, false
	}
	x, row := int(fx), int(fy)
	y := r.N - 1 - row
	if !r.OnBoard(x, y) {
		return game.NoSquare, false
	}
	return r.Sq(x, y), true
}

// PointOf returns the centre of square s in widget coordinates.
func (b *Board) PointOf(s game.Square) fyne.Position {
	r := b.view.Pos.Rules()
	x, y := r.XY(s)
	return geomFor(r, b.Size()).centre(x, y)
}

// Tapped implements fyne.Tappable.
func (b *Board) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
		c.Focus(b)
	}
	if s, ok := b.squareAt(ev.Position); ok && b.onSquare != nil {
		b.onSquare(s)
	}
}

// TappedSecondary implements fyne.SecondaryTappable: the board's menu.
func (b *Board) TappedSecondary(ev *fyne.PointEvent) {
	if s, ok := b.squareAt(ev.Position); ok && b.onMenu != nil {
		b.onMenu(s, ev.AbsolutePosition)
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
	if b.onKey != nil {
		b.onKey(ev)
	}
}

// CreateRenderer implements fyne.Widget.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	r := &boardRenderer{b: b, tick: canvas.NewRectangle(colTransp), tie: canvas.NewLine(colTie)}
	r.tie.Hide()
	r.base = canvas.NewRaster(r.drawBase)
	r.stones.mk = newCircle
	r.rings.mk = newCircle
	r.dots.mk = newCircle
	r.nums.mk = newText
	r.unsolved.mk = newRect
	r.counts.mk = newText
	r.markBacks.mk = newRect
	r.marks.mk = newText
	r.replyTxt.mk = newText
	return r
}

// boardRenderer keeps its canvas objects from one view to the next: the
// wood, the grid and the star points are one raster (a texture made again
// only when the board is resized), the coordinates are made once per rule
// set, and the overlays come from pools whose objects are moved, recoloured,
// shown or hidden. A new view changes the fields of the objects it touches
// and marks the window dirty once: the GL painter reads shapes and texts
// when it paints, so nothing is rebuilt, no texture is freed, and a
// position switch costs the stones and marks that changed.
type boardRenderer struct {
	b    *Board
	size fyne.Size

	// base is the board's raster: the wood, grid, star points and
	// coordinates, the relevance zone and the reply marks (drawBase).
	base     *canvas.Raster
	pal      boardPalette      // the colours base was drawn with
	baseM    game.Rules        // the rules base was drawn for
	coordArt textArt           // the coordinates' letters and numbers
	tick     *canvas.Rectangle // refreshed to have the window repainted

	zoneSq    []game.Square      // the relevance zone base shows
	layer     []replyMark        // the reply marks base shows
	spare     []replyMark        // the marks shown before (reused)
	art       baseArt            // what drawing base again reuses
	replyTxt  pool[*canvas.Text] // the focused reply's letters
	tie       *canvas.Line       // joins the focused reply's stones
	stones    pool[*canvas.Circle]
	rings     pool[*canvas.Circle] // the last turn, and the winning line
	dots      pool[*canvas.Circle]
	nums      pool[*canvas.Text]
	unsolved  pool[*canvas.Rectangle]
	counts    pool[*canvas.Text]
	markBacks pool[*canvas.Rectangle]
	marks     pool[*canvas.Text]

	grown bool // a pool grew: objs is out of date
	objs  []fyne.CanvasObject
}

// pool is a layer of reusable canvas objects of one kind.
type pool[T fyne.CanvasObject] struct {
	items []T
	n     int
	mk    func() T
}

func (p *pool[T]) start() { p.n = 0 }

// next returns the layer's next object, shown.
func (p *pool[T]) next(grown *bool) T {
	if p.n == len(p.items) {
		p.items = append(p.items, p.mk())
		*grown = true
	}
	o := p.items[p.n]
	p.n++
	if !o.Visible() {
		o.Show()
	}
	return o
}

// end hides the objects the view did not use.
func (p *pool[T]) end() {
	for _, o := range p.items[p.n:] {
		if o.Visible() {
			o.Hide()
		}
	}
}

func newRect() *canvas.Rectangle { return canvas.NewRectangle(colTransp) }
func newCircle() *canvas.Circle  { return canvas.NewCircle(colTransp) }
func newText() *canvas.Text      { return canvas.NewText("", colTransp) }

func (r *boardRenderer) Layout(size fyne.Size) {
	r.size = size
	r.update()
}

func (r *boardRenderer) MinSize() fyne.Size {
	rules := r.b.view.Pos.Rules()
	return fyne.NewSize(float32(rules.M+1)*16, float32(rules.N+1)*16)
}

// Refresh shows the board's view: only the objects that changed are
// touched, and the window is marked for repainting.
func (r *boardRenderer) Refresh() {
	r.size = r.b.Size()
	r.update()
	canvas.Refresh(r.tick)
}

func (r *boardRenderer) Destroy() {}

func (r *boardRenderer) Objects() []fyne.CanvasObject {
	if r.objs == nil || r.grown {
		r.collect()
	}
	return r.objs
}

// collect lists the objects in drawing order.
func (r *boardRenderer) collect() {
	objs := append(r.objs[:0], r.base)
	objs = append(objs, r.tie)
	objs = appendAll(objs, r.stones.items)
	objs = appendAll(objs, r.rings.items)
	objs = appendAll(objs, r.dots.items)
	objs = appendAll(objs, r.nums.items)
	objs = appendAll(objs, r.replyTxt.items)
	objs = appendAll(objs, r.unsolved.items)
	objs = appendAll(objs, r.counts.items)
	objs = appendAll(objs, r.markBacks.items)
	objs = appendAll(objs, r.marks.items)
	r.objs = append(objs, r.tick)
	r.grown = false
}

func appendAll[T fyne.CanvasObject](objs []fyne.CanvasObject, items []T) []fyne.CanvasObject {
	for _, o := range items {
		objs = append(objs, o)
	}
	return objs
}

// place moves and sizes o (each only when it changed).
func place(o fyne.CanvasObject, p fyne.Position, sz fyne.Size) {
	if o.Position() != p {
		o.Move(p)
	}
	if o.Size() != sz {
		o.Resize(sz)
	}
}

// setText shows s centred on c.
func setText(t *canvas.Text, s string, col color.Color, size float32, c fyne.Position, bold bool) {
	t.Text, t.Color, t.TextSize, t.TextStyle.Bold = s, col, size, bold
	ms := t.MinSize()
	place(t, fyne.NewPos(c.X-ms.Width/2, c.Y-ms.Height/2), ms)
}

// pixels is a raster's image with the board's geometry at its pixel size.
type pixels struct {
	img   *image.RGBA
	g     boardGeom
	sc    float32 // pixels per unit
	rules game.Rules
}

// pixelsFor is img (w×h pixels) with the board's geometry (ok false when
// there is nothing to draw).
func (r *boardRenderer) pixelsFor(img *image.RGBA, w, h int) (pixels, bool) {
	p := pixels{img: img, rules: r.b.view.Pos.Rules()}
	if r.size.Width <= 0 || w <= 0 {
		return p, false
	}
	p.sc = float32(w) / r.size.Width
	p.g = geomFor(p.rules, r.size)
	return p, true
}

// px is the pixel of a unit coordinate (neighbouring shapes share edges).
func (p pixels) px(v float32) int { return int(v*p.sc + 0.5) }

func (p pixels) fill(x0, y0, x1, y1 int, c color.NRGBA) {
	draw.Draw(p.img, image.Rect(x0, y0, x1, y1), &image.Uniform{c}, image.Point{}, draw.Src)
}

// drawBase draws the board's raster at its pixel size: the background
// (drawBackground, kept while the size, the colours and the rules stay),
// the relevance zone and the reply marks (replylayer.go). One raster, so
// the painter fills the board's area once per frame; it is drawn again
// when the zone or the marks change.
func (r *boardRenderer) drawBase(w, h int) image.Image {
	a := &r.art
	if a.img == nil || a.img.Rect.Dx() != w || a.img.Rect.Dy() != h {
		a.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	rules := r.b.view.Pos.Rules()
	if a.bg == nil || a.bg.Rect != a.img.Rect || a.bgPal != r.pal || a.bgRules != rules || a.bgSize != r.size {
		if a.bg == nil || a.bg.Rect != a.img.Rect {
			a.bg = image.NewRGBA(a.img.Rect)
		} else {
			clear(a.bg.Pix)
		}
		a.bgPal, a.bgRules, a.bgSize = r.pal, rules, r.size
		r.drawBackground(a.bg, w, h)
	}
	copy(a.img.Pix, a.bg.Pix)
	p, ok := r.pixelsFor(a.img, w, h)
	if !ok {
		return a.img
	}
	r.drawZone(p)
	r.drawReplyLayer(p)
	return a.img
}

// drawBackground draws the wood, the grid, the star points and the
// coordinates into img (crisp one-pixel lines at any scale).
func (r *boardRenderer) drawBackground(img *image.RGBA, w, h int) {
	p, ok := r.pixelsFor(img, w, h)
	if !ok {
		return
	}
	g, rules, px := p.g, p.rules, p.px
	colWood, colGrid := r.pal.wood, r.pal.grid
	p.fill(px(g.x0-g.cell), px(g.y0-g.cell*0.75), px(g.x0-g.cell+g.cell*float32(rules.M+1)), px(g.y0-g.cell*0.75+g.cell*float32(rules.N+1)), colWood)
	top, bottom := g.centre(0, rules.N-1), g.centre(0, 0)
	left, right := g.centre(0, 0), g.centre(rules.M-1, 0)
	lw := max(1, int(p.sc+0.5))
	for x := 0; x < rules.M; x++ {
		cx := px(g.centre(x, 0).X) - lw/2
		p.fill(cx, px(top.Y)-lw/2, cx+lw, px(bottom.Y)-lw/2+lw, colGrid)
	}
	for y := 0; y < rules.N; y++ {
		cy := px(g.centre(0, y).Y) - lw/2
		p.fill(px(left.X)-lw/2, cy, px(right.X)-lw/2+lw, cy+lw, colGrid)
	}
	rad := g.cell * 0.1 * p.sc
	for _, s := range starPoints(rules) {
		x, y := rules.XY(s)
		c := g.centre(x, y)
		cx, cy := c.X*p.sc, c.Y*p.sc
		for yy := int(cy - rad - 1); yy <= int(cy+rad+1); yy++ {
			for xx := int(cx - rad - 1); xx <= int(cx+rad+1); xx++ {
				dx, dy := float32(xx)+0.5-cx, float32(yy)+0.5-cy
				if dx*dx+dy*dy <= rad*rad && image.Pt(xx, yy).In(p.img.Rect) {
					p.img.Set(xx, yy, colGrid)
				}
			}
		}
	}
	size := g.cell * 0.42 * p.sc
	for x := 0; x < rules.M; x++ {
		c := g.centre(x, 0)
		r.coordArt.draw(p.img, string(rune('a'+x)), false, size, c.X*p.sc, (c.Y+g.cell*0.75)*p.sc, colGrid)
	}
	for y := 0; y < rules.N; y++ {
		c := g.centre(0, y)
		r.coordArt.draw(p.img, strconv.Itoa(y+1), false, size, (c.X-g.cell*0.7)*p.sc, c.Y*p.sc, colGrid)
	}
}

// drawZone draws the relevance zone's translucent squares over the
// background: neighbouring squares share their pixel edges (no seams, no
// square drawn twice).
func (r *boardRenderer) drawZone(p pixels) {
	for _, s := range r.zoneSq {
		x, y := p.rules.XY(s)
		if !p.rules.OnBoard(x, y) {
			continue
		}
		c, half := p.g.centre(x, y), p.g.cell/2
		draw.Draw(p.img, image.Rect(p.px(c.X-half), p.px(c.Y-half), p.px(c.X+half), p.px(c.Y+half)), image.NewUniform(colZone), image.Point{}, draw.Over)
	}
}

// update shows the view on the kept objects.
func (r *boardRenderer) update() {
	v := r.b.view
	pos := v.Pos
	rules := pos.Rules()
	g := geomFor(rules, r.size)
	cell := g.cell
	grown := &r.grown
	pal := currentPalette() // the theme's (light or dark)
	if pal != r.pal {
		r.pal = pal
		r.base.Refresh() // the wood and grid in the new colours
	}
	colWood, colGrid, colBlack, colWhite, colLast := pal.wood, pal.grid, pal.black, pal.white, pal.last

	if r.base.Size() != r.size {
		r.base.Resize(r.size) // the raster is drawn again at the new size
	}
	if r.baseM != rules {
		r.baseM = rules
		r.base.Refresh() // another board: its grid and coordinates are drawn again
	}

	sqRect := func(s game.Square, frac float32) (fyne.Position, fyne.Size) {
		x, y := rules.XY(s)
		c := g.centre(x, y)
		h := cell * frac / 2
		return fyne.NewPos(c.X-h, c.Y-h), fyne.NewSize(2*h, 2*h)
	}
	rect := func(p *pool[*canvas.Rectangle], s game.Square, frac float32, fill, stroke color.Color, sw float32) {
		o := p.next(grown)
		o.FillColor, o.StrokeColor, o.StrokeWidth = fill, stroke, sw
		pp, sz := sqRect(s, frac)
		place(o, pp, sz)
	}
	circle := func(p *pool[*canvas.Circle], s game.Square, frac float32, fill, stroke color.Color, sw float32) {
		o := p.next(grown)
		o.FillColor, o.StrokeColor, o.StrokeWidth = fill, stroke, sw
		pp, sz := sqRect(s, frac)
		place(o, pp, sz)
	}
	for _, p := range []interface{ start() }{&r.replyTxt, &r.stones, &r.rings, &r.dots, &r.nums, &r.unsolved, &r.counts, &r.markBacks, &r.marks} {
		p.start()
	}

	// Relevance zone: translucent squares over the grid (the lines show
	// through), in the base raster, drawn again when the zone changes.
	if !slices.Equal(v.Zone, r.zoneSq) {
		r.zoneSq = append(r.zoneSq[:0], v.Zone...)
		r.base.Refresh()
	}

	// Unsolved defender moves, counted per square (drawn last).
	count := map[game.Square]int{}
	var uorder []game.Square
	for _, m := range v.Unsolved {
		for i := 0; i < m.Len(); i++ {
			s := m.At(i)
			if count[s] == 0 {
				uorder = append(uorder, s)
			}
			count[s]++
		}
	}

	// Stored replies: a lettered mark on each empty square of each (not
	// under an unsolved mark), the focused one tied and previewed below.
	focus := replyFocus(v, r.b.focus)
	r.drawReplies(v, focus, count)

	// Stones, move numbers and the last turn.
	hist := pos.History()
	number := map[game.Square]int{}
	last := map[game.Square]bool{}
	for i, m := range hist {
		for j := 0; j < m.Len(); j++ {
			number[m.At(j)] = i + 1
			if i == len(hist)-1 {
				last[m.At(j)] = true
			}
		}
	}
	stone := func(s game.Square, c game.Color, alpha uint8) {
		fill, stroke := colBlack, colBlack
		if c == game.White {
			fill, stroke = colWhite, colGrid
		}
		fill.A, stroke.A = alpha, alpha
		circle(&r.stones, s, 0.92, fill, stroke, 1)
	}
	type numbered struct {
		s   game.Square
		col color.Color
	}
	var nums []numbered
	for s := game.Square(0); int(s) < rules.Squares(); s++ {
		c := pos.At(s)
		if c == game.Empty {
			continue
		}
		stone(s, c, 0xff)
		textCol := colWhite
		if c == game.White {
			textCol = colBlack
		}
		if last[s] {
			circle(&r.rings, s, 1.02, colTransp, colLast, 2)
			if !v.Numbers {
				circle(&r.dots, s, 0.3, colLast, colTransp, 0)
			}
		}
		if v.Numbers && number[s] > 0 {
			col := textCol
			if last[s] {
				col = colLast
			}
			nums = append(nums, numbered{s, col})
		}
	}
	if v.Pending != game.NoSquare {
		stone(v.Pending, pos.ToMove(), 0x90)
	}
	for _, s := range v.Preview {
		if pos.At(s) == game.Empty {
			stone(s, pos.ToMove(), 0x70)
			circle(&r.dots, s, 0.3, colPreview, colTransp, 0)
		}
	}
	for _, s := range v.PreviewReply {
		if pos.At(s) == game.Empty && !slices.Contains(v.Preview, s) {
			stone(s, pos.ToMove().Opp(), 0x70)
			circle(&r.dots, s, 0.3, colPreview, colTransp, 0)
		}
	}

	r.drawReplyFocus(v, focus, g, circle)

	// The winning line of a finished game: a gold ring round each of its
	// stones.
	for _, run := range winningRuns(pos) {
		for _, s := range run {
			circle(&r.rings, s, 1.08, colTransp, colWin, 3)
		}
	}
	for _, n := range nums {
		x, y := rules.XY(n.s)
		setText(r.nums.next(grown), strconv.Itoa(number[n.s]), n.col, cell*0.42, g.centre(x, y), true)
	}

	// Unsolved defender moves: a thin red square round the point (the grid
	// and the stones beside it stay readable under a report of a hundred
	// moves), the number of unsolved moves through the square small in
	// its upper right corner.
	for _, s := range uorder {
		rect(&r.unsolved, s, 0.62, colTransp, colUnsolved, 1.5)
		x, y := rules.XY(s)
		c := g.centre(x, y).Add(fyne.NewPos(cell*0.3, -cell*0.3))
		setText(r.counts.next(grown), strconv.Itoa(count[s]), colUnsolved, cell*0.4, c, true)
	}

	// Board labels.
	for s := game.Square(0); int(s) < rules.Squares(); s++ {
		txt, ok := v.Marks[s]
		if !ok || txt == "" {
			continue
		}
		x, y := rules.XY(s)
		col := colBlack
		switch pos.At(s) {
		case game.Black:
			col = colWhite
		case game.Empty:
			rect(&r.markBacks, s, 0.7, colWood, colTransp, 0)
		}
		setText(r.marks.next(grown), txt, col, cell*0.5, g.centre(x, y), true)
	}
	for _, p := range []interface{ end() }{&r.replyTxt, &r.stones, &r.rings, &r.dots, &r.nums, &r.unsolved, &r.counts, &r.markBacks, &r.marks} {
		p.end()
	}
}

// winningRuns are the runs of K or more stones of the winner (none while
// the game goes on), each from one end to the other.
func winningRuns(pos *board.Board) [][]game.Square {
	w := pos.Winner()
	if w == game.Empty {
		return nil
	}
	rules := pos.Rules()
	var runs [][]game.Square
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for s := game.Square(0); int(s) < rules.Squares(); s++ {
			x, y := rules.XY(s)
			if pos.At(s) != w {
				continue
			}
			// Only from the start of a run.
			if px, py := x-d[0], y-d[1]; rules.OnBoard(px, py) && pos.At(rules.Sq(px, py)) == w {
				continue
			}
			var run []game.Square
			for cx, cy := x, y; rules.OnBoard(cx, cy) && pos.At(rules.Sq(cx, cy)) == w; cx, cy = cx+d[0], cy+d[1] {
				run = append(run, rules.Sq(cx, cy))
			}
			if len(run) >= rules.K {
				runs = append(runs, run)
			}
		}
	}
	return runs
}

// starPoints are the traditional marks: the 3-3 style points of a 19×19
// board, the centre of other odd boards.
func starPoints(r game.Rules) []game.Square {
	if r.M == 19 && r.N == 19 {
		var out []game.Square
		for _, x := range []int{3, 9, 15} {
			for _, y := range []int{3, 9, 15} {
				out = append(out, r.Sq(x, y))
			}
		}
		return out
	}
	if r.M%2 == 1 && r.N%2 == 1 {
		return []game.Square{r.Sq(r.M/2, r.N/2)}
	}
	return nil
}
