package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"c6book/engine"
	"c6book/session"
)

// linePanel is the line from the root with each position's status, and the
// replies stored out of the shown position.
type linePanel struct {
	wb       *Workbench
	box      fyne.CanvasObject
	lineList *widget.List
	kidsL    *widget.Label
	kidList  *widget.List
	kidsPos  *engine.Board // the position the replies list was scrolled for
}

func newLinePanel(wb *Workbench) *linePanel {
	lp := &linePanel{wb: wb}
	// The line (root first) and the children of the shown position.
	lp.lineList = widget.NewList(
		func() int { return wb.s.Cursor().LineLen() + 1 },
		newRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			text := "root"
			if i > 0 && i <= wb.s.Cursor().LineLen() {
				text = fmt.Sprintf("%d. %s %s", i, moverName(wb.s.Rules(), i-1), wb.s.Cursor().LineMoveText(i-1))
			}
			st := wb.s.Cursor().LineStatus(i)
			text += "  " + st.String()
			if n := wb.s.Cursor().LineVariations(i); n > 0 {
				text += fmt.Sprintf("  (+%d)", n)
			}
			setRow(o, st, true, text, i == wb.s.Cursor().Cur())
		})
	lp.lineList.OnSelected = func(i widget.ListItemID) {
		lp.lineList.UnselectAll()
		wb.Cursor().GoToPly(i)
	}
	lp.kidsL = widget.NewLabel("Replies")
	lp.kidList = widget.NewList(
		func() int { return len(wb.s.Cursor().Children()) },
		newRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(wb.s.Cursor().Children()) {
				return
			}
			c := wb.s.Cursor().Children()[i]
			setRow(o, c.Status, true, replyText(wb.s.Rules(), c), false)
		})
	lp.kidList.OnSelected = func(i widget.ListItemID) {
		lp.kidList.UnselectAll()
		wb.Cursor().SelectChild(i)
	}
	tree := container.NewHSplit(
		container.NewBorder(widget.NewLabelWithStyle("Line", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, lp.lineList),
		container.NewBorder(lp.kidsL, nil, nil, nil, lp.kidList))
	tree.SetOffset(0.45)
	lp.box = tree
	return lp
}

// show renders the line and the replies of the shown position.
func (lp *linePanel) show() {
	c := lp.wb.s.Cursor()
	lp.lineList.Refresh()
	lp.lineList.ScrollTo(c.Cur())
	lp.kidsL.SetText(fmt.Sprintf("Replies (%d)", len(c.Children())))
	lp.kidList.Refresh()
	if p := c.Position(); p != lp.kidsPos {
		// A new position (a reload of the same one, as the auto-pilot's
		// verdicts land, keeps the place).
		lp.kidsPos = p
		lp.kidList.ScrollToTop()
	}
}

// replyText is a row of the replies list: the move, its games and Black's
// win rate, its status and label.
func replyText(r engine.Rules, c session.Child) string {
	text := engine.MoveName(r, c.Move)
	if g := c.Games.Games; g > 0 {
		text += "  " + session.Plural(g, "game", "games")
		if rate, ok := c.Games.BlackRate(); ok {
			text += fmt.Sprintf(" · B %.0f%%", 100*rate)
		}
	}
	text += "  " + c.Status.String()
	if c.Label != "" {
		text += "  [" + c.Label + "]"
	}
	return text
}

// moverName is "B" or "W" for the i-th turn (0-based).
func moverName(r engine.Rules, i int) string {
	if i%2 == 0 {
		return "B"
	}
	return "W"
}
