package ui

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"c6book/engine/game"
)

// The reply layer: every reply mark (a rounded square in its status
// colour, its letter, a "+" where several replies meet) is drawn into the
// board's raster (over the wood, the grid and the zone), so the painter
// gets no object for them and fills the board's area once, instead of two
// or three objects per square. The layer is a list of marks (the model the
// raster draws and the tests read); the raster is drawn again only when
// the marks, the zone, the board's size or the theme change, not on every
// frame.

// replyMark is one square of the reply layer.
type replyMark struct {
	s       game.Square
	letter  string      // the first reply's letter (replyLetter)
	fill    color.NRGBA // its status colour (alpha dimAlpha while another reply is focused)
	text    color.NRGBA // the letter's colour
	plus    bool        // other replies use the square too
	plusCol color.NRGBA
}

// replyMarks lists the marks of the view's replies (drawReplyFocus draws
// the focused reply's own squares).
func replyMarks(marks []replyMark, v BoardView, focus int, unsolved map[game.Square]int, pal boardPalette) []replyMark {
	marks = marks[:0]
	var fm game.Move
	if focus >= 0 {
		fm = v.Children[focus].Move
	}
	for _, rs := range replySquares(v, unsolved) {
		if focus >= 0 && moveHas(fm, rs.s) {
			continue // drawn as the focused reply's stone
		}
		m := replyMark{s: rs.s, letter: replyLetter(rs.first), fill: statusNRGBA(v.Children[rs.first].Status),
			text: colReplyText, plus: rs.n > 1, plusCol: pal.grid}
		if focus >= 0 {
			m.fill.A, m.text.A, m.plusCol.A = dimAlpha, dimAlpha*2, dimAlpha*2
		}
		marks = append(marks, m)
	}
	return marks
}

// baseArt keeps what drawing the board's raster again reuses: the image,
// the background (with what it was drawn for), the mark's shape and the
// letters at the current pixel size.
type baseArt struct {
	img     *image.RGBA
	bg      *image.RGBA
	bgPal   boardPalette
	bgRules game.Rules
	bgSize  fyne.Size
	cell    float32 // the cell size, in pixels, square is for
	square  *image.Alpha
	text    textArt
}

// drawReplyLayer draws the marks (r.layer) over p.
func (r *boardRenderer) drawReplyLayer(p pixels) {
	a := &r.art
	if len(r.layer) == 0 {
		return
	}
	g, sc, rules := p.g, p.sc, p.rules
	cell := g.cell * sc
	if cell != a.cell || a.square == nil {
		a.cell, a.square = cell, roundedSquare(int(cell*0.62+0.5), cell*0.14)
	}
	side := a.square.Rect.Dx()
	for _, m := range r.layer {
		x, y := rules.XY(m.s)
		c := g.centre(x, y)
		cx, cy := c.X*sc, c.Y*sc
		x0, y0 := int(math.Round(float64(cx)-float64(side)/2)), int(math.Round(float64(cy)-float64(side)/2))
		draw.DrawMask(p.img, image.Rect(x0, y0, x0+side, y0+side), image.NewUniform(m.fill), image.Point{},
			a.square, image.Point{}, draw.Over)
		size := cell * 0.44
		if len(m.letter) > 1 {
			size = cell * 0.32
		}
		a.text.draw(p.img, m.letter, true, size, cx, cy, m.text)
		if m.plus {
			// a small "+" at the square's top right corner
			px, py := cx+cell*0.36, cy-cell*0.31
			arm, th := cell*0.09, max(1, cell*0.045)
			fill := func(x0, y0, x1, y1 float32) {
				rc := image.Rect(int(math.Round(float64(x0))), int(math.Round(float64(y0))), int(math.Round(float64(x1))), int(math.Round(float64(y1))))
				draw.Draw(p.img, rc, image.NewUniform(m.plusCol), image.Point{}, draw.Over)
			}
			fill(px-arm, py-th/2, px+arm, py+th/2)
			fill(px-th/2, py-arm, px+th/2, py-th/2)
			fill(px-th/2, py+th/2, px+th/2, py+arm)
		}
	}
}

// roundedSquare is the coverage of a side×side square with corners of
// radius rad (pixels), anti-aliased.
func roundedSquare(side int, rad float32) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, side, side))
	half := float64(side) / 2
	rr := math.Min(float64(rad), half)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			// distance outside the rounded square (negative inside)
			dx := math.Abs(float64(x)+0.5-half) - (half - rr)
			dy := math.Abs(float64(y)+0.5-half) - (half - rr)
			d := math.Hypot(math.Max(dx, 0), math.Max(dy, 0)) + math.Min(math.Max(dx, dy), 0) - rr
			cov := math.Min(math.Max(0.5-d, 0), 1)
			m.Pix[y*m.Stride+x] = uint8(cov*255 + 0.5)
		}
	}
	return m
}

// textArt draws short strings into a raster's image in the theme's font
// (Go's when the theme's cannot be read), keeping the faces and the
// strings' coverage it made (bounded: emptied when it holds too many).
// Used on the UI goroutine only (a raster's generator).
type textArt struct {
	fonts  map[bool]*opentype.Font // by bold
	fontOf map[bool]string         // the theme font resource each was parsed from
	faces  map[faceKey]font.Face
	glyphs map[glyphKey]glyph
}

type faceKey struct {
	bold bool
	size float32
}

type glyphKey struct {
	s string
	faceKey
}

// glyph is a string's coverage with its centre.
type glyph struct {
	mask   *image.Alpha
	cx, cy int // the centre of the string's capital height, in mask pixels
}

const maxGlyphs = 1024

// draw draws s in col, size pixels high, centred on (cx, cy) (the middle
// of its capital height).
func (a *textArt) draw(dst draw.Image, s string, bold bool, size, cx, cy float32, col color.NRGBA) {
	gl, ok := a.glyph(s, faceKey{bold, size})
	if !ok {
		return
	}
	gx, gy := int(math.Round(float64(cx)))-gl.cx, int(math.Round(float64(cy)))-gl.cy
	b := gl.mask.Rect
	draw.DrawMask(dst, b.Add(image.Pt(gx, gy)), image.NewUniform(col), image.Point{}, gl.mask, b.Min, draw.Over)
}

func (a *textArt) glyph(s string, fk faceKey) (glyph, bool) {
	k := glyphKey{s, fk}
	if gl, ok := a.glyphs[k]; ok {
		return gl, true
	}
	face := a.face(fk)
	if face == nil {
		return glyph{}, false
	}
	met := face.Metrics()
	adv := font.MeasureString(face, s)
	w := adv.Ceil() + 2
	asc, desc := met.Ascent.Ceil(), met.Descent.Ceil()
	mask := image.NewAlpha(image.Rect(0, 0, w, asc+desc))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.P(1, asc)}
	d.DrawString(s)
	capH := met.CapHeight.Round()
	if capH <= 0 {
		capH = asc * 7 / 10
	}
	gl := glyph{mask: mask, cx: 1 + adv.Round()/2, cy: asc - capH/2}
	if a.glyphs == nil || len(a.glyphs) >= maxGlyphs {
		a.glyphs = map[glyphKey]glyph{}
	}
	a.glyphs[k] = gl
	return gl, true
}

// face is the font at a size (nil when no font can be read).
func (a *textArt) face(fk faceKey) font.Face {
	res := theme.TextFont()
	if fk.bold {
		res = theme.TextBoldFont()
	}
	name := ""
	if res != nil {
		name = res.Name()
	}
	if a.fonts[fk.bold] == nil || a.fontOf[fk.bold] != name {
		var f *opentype.Font
		var err error
		if res != nil {
			f, err = opentype.Parse(res.Content())
		}
		if res == nil || err != nil {
			ttf := goregular.TTF
			if fk.bold {
				ttf = gobold.TTF
			}
			if f, err = opentype.Parse(ttf); err != nil {
				return nil
			}
		}
		if a.fonts == nil {
			a.fonts, a.fontOf = map[bool]*opentype.Font{}, map[bool]string{}
		}
		a.fonts[fk.bold], a.fontOf[fk.bold] = f, name
		for k, fc := range a.faces {
			if k.bold == fk.bold {
				fc.Close()
				delete(a.faces, k)
			}
		}
		a.glyphs = nil
	}
	if fc, ok := a.faces[fk]; ok {
		return fc
	}
	if len(a.faces) >= 16 { // sizes of earlier board sizes
		for k, fc := range a.faces {
			fc.Close()
			delete(a.faces, k)
		}
		a.glyphs = nil
	}
	fc, err := opentype.NewFace(a.fonts[fk.bold], &opentype.FaceOptions{Size: float64(fk.size), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	if a.faces == nil {
		a.faces = map[faceKey]font.Face{}
	}
	a.faces[fk] = fc
	return fc
}
