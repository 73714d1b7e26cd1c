package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/game"
)

// The right-click menus of the board and of the Line and Replies rows. Each
// item calls the session's action for it (the same one its button, key or
// menu calls): a menu adds no use case of its own.

// boardMenu is the menu of square s: play there, verify the shown
// position, copy the line, label the square.
func (wb *Workbench) boardMenu(s game.Square) *fyne.Menu {
	c := wb.s.Cursor()
	name := game.SquareName(wb.s.Rules(), s)
	play := fyne.NewMenuItem("Play "+name, func() { c.TapSquare(s) })
	play.Disabled = c.Marking() || c.Position().At(s) != game.Empty || c.Position().Winner() != game.Empty
	label := "Label " + name
	if _, ok := c.Info().Marks[s]; ok {
		label = "Remove the label of " + name
	}
	lab := fyne.NewMenuItem(label, func() { wb.s.History().LabelSquare(s) })
	lab.Disabled = wb.s.ReadOnly() != ""
	return fyne.NewMenu("", play, wb.verifyItem(), wb.copyItem("Copy line", c.CopyLine()), lab)
}

// lineMenu is the menu of the Line's row i (the position after i moves).
func (wb *Workbench) lineMenu(i int) *fyne.Menu {
	c := wb.s.Cursor()
	return fyne.NewMenu("",
		fyne.NewMenuItem("Go to this position", func() { c.GoToPly(i) }),
		fyne.NewMenuItem("Verify from here", func() {
			c.GoToPly(i)
			wb.s.Prover().Verify()
		}),
		wb.copyItem("Copy line to here", c.LineTextTo(i)))
}

// replyMenu is the menu of the Replies' row of reply i.
func (wb *Workbench) replyMenu(i int) *fyne.Menu {
	c := wb.s.Cursor()
	kids := c.Children()
	if i < 0 || i >= len(kids) {
		return fyne.NewMenu("")
	}
	m := kids[i].Move
	return fyne.NewMenu("",
		fyne.NewMenuItem("Show "+c.MoveText(m), func() { c.SelectChild(i) }),
		fyne.NewMenuItem("Verify after "+c.MoveText(m), func() {
			c.SelectChild(i)
			wb.s.Prover().Verify()
		}),
		wb.copyItem("Copy line with "+c.MoveText(m), c.LineWith(m)))
}

// verifyItem is Verify on the shown position (disabled where the Verify
// button is, saying why).
func (wb *Workbench) verifyItem() *fyne.MenuItem {
	it := fyne.NewMenuItem("Verify from here", wb.s.Prover().Verify)
	if why := wb.ui.verifyBlocked(); why != "" || wb.s.ReadOnly() != "" || wb.s.Prover().VerifyJob() != nil {
		it.Disabled = true
	}
	return it
}

// copyItem puts text on the clipboard (the line in turn notation).
func (wb *Workbench) copyItem(label, text string) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, func() { wb.copyText(text) })
	if text == "" {
		it.Label = fmt.Sprintf("%s (the root: no move)", label)
		it.Disabled = true
	}
	return it
}

// copyText puts text on the app's clipboard.
func (wb *Workbench) copyText(text string) {
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(text)
	}
}

// showMenu pops m up at abs in the workbench's window.
func (wb *Workbench) showMenu(m *fyne.Menu, abs fyne.Position) {
	c := fyne.CurrentApp().Driver().CanvasForObject(wb.ui.board)
	if c == nil || len(m.Items) == 0 {
		return
	}
	wb.lastMenu = m
	widget.ShowPopUpMenuAtPosition(m, c, abs)
}

// menuRow is a list row with a right-click menu.
type menuRow struct {
	widget.BaseWidget
	content fyne.CanvasObject
	menu    func() *fyne.Menu
	wb      *Workbench
}

func newMenuRow(wb *Workbench, content fyne.CanvasObject) *menuRow {
	r := &menuRow{wb: wb, content: content}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer implements fyne.Widget.
func (r *menuRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.content))
}

// TappedSecondary implements fyne.SecondaryTappable.
func (r *menuRow) TappedSecondary(ev *fyne.PointEvent) {
	if r.menu != nil {
		r.wb.showMenu(r.menu(), ev.AbsolutePosition)
	}
}
