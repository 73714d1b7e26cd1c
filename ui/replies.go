package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"

	"c6book"
	"c6book/engine/game"
	"c6book/session"
)

// Stored replies on the board, the way RenLib users read a tree: each
// reply has a letter by its place in the Replies list (most games first),
// drawn on its squares in its status colour; hovering a reply (on the
// board or in the list), or placing the first stone of a two-stone turn on
// one, ties its stones together and previews it.

// replyLetter is the name of the i-th reply (0-based) of the Replies list
// and of the board: A–Z, then a–z, then its number in the list (53, 54…).
func replyLetter(i int) string {
	switch {
	case i < 0:
		return ""
	case i < 26:
		return string(rune('A' + i))
	case i < 52:
		return string(rune('a' + i - 26))
	}
	return strconv.Itoa(i + 1)
}

// replyFocus is the reply the board ties and previews: the one focused
// (hovered), else the first through the pending stone; -1 when none.
func replyFocus(v BoardView, focus int) int {
	if focus >= 0 && focus < len(v.Children) {
		return focus
	}
	if v.Pending == game.NoSquare {
		return -1
	}
	for i, ch := range v.Children {
		if v.shows(i) && moveHas(ch.Move, v.Pending) {
			return i
		}
	}
	return -1
}

// shows reports whether reply i of the view is marked (not hidden by the
// Replies filter).
func (v BoardView) shows(i int) bool { return i >= len(v.Hide) || !v.Hide[i] }

func moveHas(m game.Move, s game.Square) bool {
	for i := 0; i < m.Len(); i++ {
		if m.At(i) == s {
			return true
		}
	}
	return false
}

// replyAt is the first reply of the view shown (in list order) with a
// stone on s, -1 when none.
func replyAt(v BoardView, s game.Square) int {
	for i, ch := range v.Children {
		if v.shows(i) && moveHas(ch.Move, s) {
			return i
		}
	}
	return -1
}

// focusedReply is the reply the board ties and previews (an index into the
// view's Children), -1 when none.
func (b *Board) focusedReply() int { return replyFocus(b.view, b.focus) }

// setReplyFocus ties and previews reply i of the view's Children (-1:
// none), as hovering it does.
func (b *Board) setReplyFocus(i int) {
	if i < -1 || i >= len(b.view.Children) {
		i = -1
	}
	if i == b.focus {
		return
	}
	b.focus = i
	b.Refresh()
	b.focusChanged()
}

// focusChanged tells onReplyFocus when the reply tied and previewed
// changed.
func (b *Board) focusChanged() {
	if f := b.focusedReply(); f != b.shown {
		b.shown = f
		if b.onReplyFocus != nil {
			b.onReplyFocus(f)
		}
	}
}

// hoverAt focuses the reply under p.
func (b *Board) hoverAt(p fyne.Position) {
	i := -1
	if s, ok := b.squareAt(p); ok && b.view.Pos.At(s) == game.Empty {
		i = replyAt(b.view, s)
	}
	b.setReplyFocus(i)
}

// MouseIn implements desktop.Hoverable.
func (b *Board) MouseIn(ev *desktop.MouseEvent) { b.hoverAt(ev.Position) }

// MouseMoved implements desktop.Hoverable.
func (b *Board) MouseMoved(ev *desktop.MouseEvent) { b.hoverAt(ev.Position) }

// MouseOut implements desktop.Hoverable.
func (b *Board) MouseOut() { b.hoverAt(fyne.NewPos(-1, -1)) }

var _ desktop.Hoverable = (*Board)(nil)

// Colours of the reply marks.
var (
	colReplyText = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	colTie       = color.NRGBA{0x10, 0x10, 0x10, 0xd0}
)

// dimAlpha is the alpha of the other replies' marks while one is focused.
const dimAlpha = 0x48

// replySquares lists the empty squares the replies use (not under an
// unsolved mark), each with the first reply through it and how many use
// it, in the order first met.
type replySquare struct {
	s     game.Square
	first int // index of the first reply (list order) with a stone here
	n     int // replies with a stone here
}

func replySquares(v BoardView, unsolved map[game.Square]int) []replySquare {
	at := map[game.Square]int{}
	var out []replySquare
	for i, ch := range v.Children {
		if !v.shows(i) {
			continue
		}
		for j := 0; j < ch.Move.Len(); j++ {
			s := ch.Move.At(j)
			if v.Pos.At(s) != game.Empty || unsolved[s] > 0 {
				continue
			}
			if k, ok := at[s]; ok {
				if out[k].first != i { // a reply with both stones here counts once
					out[k].n++
				}
				continue
			}
			at[s] = len(out)
			out = append(out, replySquare{s: s, first: i, n: 1})
		}
	}
	return out
}

// drawReplies shows the reply marks (replyMarks) in the board's raster: a
// rounded square in the status colour of the first reply through it with
// that reply's letter, and a small "+" when other replies use it too.
// While a reply is focused, the others are dimmed and its squares show its
// own letter (drawReplyFocus draws its stones). The raster is drawn again
// only when the marks changed.
func (r *boardRenderer) drawReplies(v BoardView, focus int, unsolved map[game.Square]int) {
	old := r.layer
	r.layer = replyMarks(r.spare, v, focus, unsolved, r.pal)
	r.spare = old
	if !slices.Equal(r.layer, old) {
		r.base.Refresh()
	}
}

// drawReplyFocus draws the focused reply: a line tying its stones, each a
// faint stone of the side to move ringed in the reply's status colour,
// with its letter.
func (r *boardRenderer) drawReplyFocus(v BoardView, focus int, g boardGeom, circle func(*pool[*canvas.Circle], game.Square, float32, color.Color, color.Color, float32)) {
	if focus < 0 {
		if r.tie.Visible() {
			r.tie.Hide()
		}
		return
	}
	rules := v.Pos.Rules()
	ch := v.Children[focus]
	col := statusNRGBA(ch.Status)
	var pts []fyne.Position
	for j := 0; j < ch.Move.Len(); j++ {
		s := ch.Move.At(j)
		x, y := rules.XY(s)
		pts = append(pts, g.centre(x, y))
		if s == v.Pending { // drawn as the pending stone: ring it
			circle(&r.rings, s, 0.92, colTransp, col, 3)
			continue
		}
		if v.Pos.At(s) != game.Empty {
			continue
		}
		fill, text := r.pal.black, r.pal.white
		if v.Pos.ToMove() == game.White {
			fill, text = r.pal.white, r.pal.black
		}
		fill.A = 0xa0
		circle(&r.stones, s, 0.92, fill, col, 3)
		setText(r.replyTxt.next(&r.grown), replyLetter(focus), text, g.cell*0.44, pts[len(pts)-1], true)
	}
	if len(pts) < 2 {
		if r.tie.Visible() {
			r.tie.Hide()
		}
		return
	}
	r.tie.StrokeColor, r.tie.StrokeWidth = colTie, max(2, g.cell*0.08)
	if r.tie.Position1 != pts[0] || r.tie.Position2 != pts[1] {
		r.tie.Position1, r.tie.Position2 = pts[0], pts[1]
	}
	if !r.tie.Visible() {
		r.tie.Show()
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// undecidedHelp says what an undecided game is, for the help button and
// the Games pane.
const undecidedHelp = "Black and White count the games won by six in a row on the board. " +
	"Undecided games are the others: a LittleGolem record holds the moves only, " +
	"so a game that ended by resignation, on time or abandoned, and a game drawn at the " +
	"site's 150-turn limit, has no winner the book can see. " +
	"B % is Black's share of the decided games (Black + White) only."

// statsText is a position's or a reply's games by result:
// "1,551 games · B 175 · W 149 · 1,227 undecided".
func statsText(g c6book.GameStats) string {
	if g.Games == 0 {
		return "no games"
	}
	unit := "games"
	if g.Games == 1 {
		unit = "game"
	}
	return fmt.Sprintf("%s %s · B %s · W %s · %s undecided", thousands(g.Games), unit,
		thousands(g.BlackWins), thousands(g.WhiteWins), thousands(g.Unfinished))
}

// rateText is Black's share of the decided games, with its base:
// "B 54% of 324 decided", "" when none is decided.
func rateText(g c6book.GameStats) string {
	rate, ok := g.BlackRate()
	if !ok {
		return ""
	}
	return fmt.Sprintf("B %.0f%% of %s decided", 100*rate, thousands(g.Decided()))
}

// replyHoverText is the stats line for a hovered reply, two lines: letter,
// move (named move, as the line prints it) and games by result; Black's
// rate, status and label.
func replyHoverText(move string, i int, c session.Child) string {
	text := fmt.Sprintf("Reply %s: %s · %s\n", replyLetter(i), move, statsText(c.Games))
	if rt := rateText(c.Games); rt != "" {
		text += rt + " · "
	}
	text += c.Status.String()
	if c.Label != "" {
		text += " · [" + c.Label + "]"
	}
	return text
}
