package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// linePanel is the line from the root with each position's status, and the
// replies stored out of the shown position.
type linePanel struct {
	wb       *Workbench
	box      fyne.CanvasObject
	lineList *keyList
	kidsL    *widget.Label
	kidList  *keyList
	kidsPos  *board.Board // the position the replies list was scrolled for
	// shown are the indices (in the Children) of the replies the list
	// shows, in order: those the Replies filter keeps.
	shown []int
}

// showReplies updates lp.shown from the shown position's replies and
// the Replies filter.
func (lp *linePanel) showReplies() {
	hide := lp.wb.hiddenReplies()
	lp.shown = lp.shown[:0]
	for i := range lp.wb.s.Cursor().Children() {
		if i >= len(hide) || !hide[i] {
			lp.shown = append(lp.shown, i)
		}
	}
}

// replyRowOf is the row of the replies list showing reply i, -1 when the
// filter hides it.
func (lp *linePanel) replyRowOf(i int) int {
	for r, k := range lp.shown {
		if k == i {
			return r
		}
	}
	return -1
}

func newLinePanel(wb *Workbench) *linePanel {
	lp := &linePanel{wb: wb}
	// The line (root first) and the children of the shown position.
	lp.lineList = wb.newList(
		func() int { return wb.s.Cursor().LineLen() + 1 },
		func() fyne.CanvasObject { return newMenuRow(wb, newRow()) },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			r := o.(*menuRow)
			r.menu = func() *fyne.Menu { return wb.lineMenu(i) }
			setRow(r.content, wb.s.Cursor().LineStatus(i), true, lp.lineText(i), i == wb.s.Cursor().Cur())
		})
	lp.lineList.OnSelected = func(i widget.ListItemID) {
		lp.lineList.UnselectAll()
		wb.Cursor().GoToPly(i)
	}
	lp.kidsL = widget.NewLabel("Replies")
	lp.kidList = wb.newList(
		func() int { lp.showReplies(); return len(lp.shown) },
		func() fyne.CanvasObject { return newReplyRow(wb) },
		func(r widget.ListItemID, o fyne.CanvasObject) {
			if r >= len(lp.shown) || lp.shown[r] >= len(wb.s.Cursor().Children()) {
				return
			}
			i := lp.shown[r]
			c := wb.s.Cursor().Children()[i]
			row := o.(*replyRow)
			row.i = i
			setRow(row.box, c.Status, true, replyText(wb.s.Cursor().MoveText(c.Move), i, c), false)
			row.showFocus(wb.ui != nil && wb.ui.board.focusedReply() == i)
		})
	lp.kidList.OnSelected = func(r widget.ListItemID) {
		lp.kidList.UnselectAll()
		if r < len(lp.shown) {
			wb.Cursor().SelectChild(lp.shown[r])
		}
	}
	tree := container.NewHSplit(
		compact(container.NewBorder(widget.NewLabelWithStyle("Line", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, lp.lineList)),
		compact(container.NewBorder(container.NewVBox(lp.kidsL, replyHeader()), nil, nil, nil, lp.kidList)))
	tree.SetOffset(0.35) // the Replies columns whole at 1280 px (TestPanesReadableAtDefaultSize)
	lp.box = tree
	return lp
}

// lineText is row i of the Line pane (0: the root): the move as entered,
// its status when something is known (the swatch shows it too), and how
// many other stored moves the position before it has ("+177"), short
// enough for the pane at the default window size.
func (lp *linePanel) lineText(i int) string {
	c := lp.wb.s.Cursor()
	text := "root"
	if i > 0 && i <= c.LineLen() {
		text = fmt.Sprintf("%d. %s %s", i, moverName(lp.wb.s.Rules(), i-1), c.LineMoveText(i-1))
	}
	if st := c.LineStatus(i); st != c6book.StatusUnknown {
		text += " " + st.String()
	}
	if n := c.LineVariations(i); n > 0 {
		text += fmt.Sprintf(" +%d", n)
	}
	return text
}

// showReplyFocus highlights the row of the reply the board ties and
// previews (-1: none), scrolled into view.
func (lp *linePanel) showReplyFocus(i int) {
	lp.kidList.Refresh()
	if r := lp.replyRowOf(i); r >= 0 {
		lp.kidList.ScrollTo(r)
	}
}

// show renders the line and the replies of the shown position.
func (lp *linePanel) show() {
	c := lp.wb.s.Cursor()
	lp.lineList.Refresh()
	lp.lineList.ScrollTo(c.Cur())
	lp.showReplies()
	if n := len(c.Children()); len(lp.shown) < n {
		lp.kidsL.SetText(fmt.Sprintf("Replies (%d of %d shown)", len(lp.shown), n))
	} else {
		lp.kidsL.SetText(fmt.Sprintf("Replies (%d)", n))
	}
	lp.kidList.Refresh()
	if p := c.Position(); p != lp.kidsPos {
		// A new position (a reload of the same one, as the auto-pilot's
		// verdicts land, keeps the place).
		lp.kidsPos = p
		lp.kidList.ScrollToTop()
	}
}

// replyColumns lays out a row of the replies list in monospace columns:
// letter, move, games, Black's wins, White's wins, Black's win rate over
// the decided ones ("B%"; the undecided games are the rest, in the stats
// line of a hovered reply), then the status and label; a wider number (a bigger book) widens its row
// but stays apart from its neighbours.
const replyColumns = "%-2s %-6s %5s %4s %4s %4s %s"

// replyHeader is the replies list's column titles (replyColumns), over
// the rows' text (a blank swatch in front).
func replyHeader() fyne.CanvasObject {
	h := newRow().(*fyne.Container)
	l := h.Objects[1].(*widget.Label)
	l.TextStyle = fyne.TextStyle{Monospace: true} // (no bold monospace face in every theme)
	l.SetText(strings.TrimRight(fmt.Sprintf(replyColumns, "", "move", "games", "B", "W", "B%", "status"), " "))
	return h
}

// replyText is row i of the replies list: its letter (as on the board),
// the move (named move: as the line prints it, Cursor.MoveText), its games
// and wins and Black's win rate over the decided ones (blank when no game
// played it, or none is decided), its status and label.
func replyText(move string, i int, c session.Child) string {
	games, b, w, rate := "", "", "", ""
	if g := c.Games; g.Games > 0 {
		games, b, w = strconv.FormatInt(g.Games, 10), strconv.FormatInt(g.BlackWins, 10), strconv.FormatInt(g.WhiteWins, 10)
	}
	if r, ok := c.Games.BlackRate(); ok {
		rate = fmt.Sprintf("%.0f%%", 100*r)
	}
	st := c.Status.String()
	if c.Label != "" {
		st += " [" + c.Label + "]"
	}
	return fmt.Sprintf(replyColumns, replyLetter(i), move, games, b, w, rate, st)
}

// replyRow is a row of the replies list; hovering it ties and previews its
// reply on the board, and it is highlighted while the board does (hovered
// here or on the board).
type replyRow struct {
	widget.BaseWidget
	wb  *Workbench
	box *fyne.Container   // a status swatch and a monospace label (newRow)
	bg  *canvas.Rectangle // the highlight
	i   int               // the reply shown
}

func newReplyRow(wb *Workbench) *replyRow {
	r := &replyRow{wb: wb, box: newRow().(*fyne.Container), i: -1,
		bg: canvas.NewRectangle(theme.Color(theme.ColorNameHover))}
	r.box.Objects[1].(*widget.Label).TextStyle.Monospace = true
	r.bg.Hide()
	r.ExtendBaseWidget(r)
	return r
}

// showFocus highlights the row or not.
func (r *replyRow) showFocus(on bool) {
	switch {
	case on && !r.bg.Visible():
		r.bg.FillColor = theme.Color(theme.ColorNameHover)
		r.bg.Show()
	case !on && r.bg.Visible():
		r.bg.Hide()
	}
}

// CreateRenderer implements fyne.Widget.
func (r *replyRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.bg, r.box))
}

// TappedSecondary implements fyne.SecondaryTappable: the reply's menu.
func (r *replyRow) TappedSecondary(ev *fyne.PointEvent) {
	r.wb.showMenu(r.wb.replyMenu(r.i), ev.AbsolutePosition)
}

// MouseIn implements desktop.Hoverable.
func (r *replyRow) MouseIn(*desktop.MouseEvent) { r.wb.hoverReply(r.i) }

// MouseMoved implements desktop.Hoverable.
func (r *replyRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (r *replyRow) MouseOut() {
	if r.wb.ui.board.focus == r.i {
		r.wb.hoverReply(-1)
	}
}

// moverName is "B" or "W" for the i-th turn (0-based).
func moverName(r game.Rules, i int) string {
	if i%2 == 0 {
		return "B"
	}
	return "W"
}
