package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
)

// maxChangeButtons is how many changed replies the summary offers to jump
// to (its text names them all).
const maxChangeButtons = 12

// summaryPanel is the Prove tab's end of a run: how the last Verify or Auto
// run ended (session.RunSummary), a button per reply it changed, proved
// ones first, that shows the position after it, and one to the open
// position an auto-pilot run left.
type summaryPanel struct {
	wb      *Workbench
	box     *fyne.Container
	textL   *widget.Label
	buttons *fyne.Container
	closeB  *widget.Button
	shown   string // the summary's text shown ("" when hidden)
	closed  string // the summary the user closed
}

func newSummaryPanel(wb *Workbench) *summaryPanel {
	sp := &summaryPanel{wb: wb}
	sp.textL = widget.NewLabel("")
	sp.textL.Wrapping = fyne.TextWrapWord
	sp.buttons = container.NewGridWrap(fyne.NewSize(150, theme.Size(theme.SizeNameText)*2+theme.Padding()*2))
	sp.closeB = widget.NewButtonWithIcon("", theme.WindowCloseIcon(), func() {
		sp.closed = sp.shown
		sp.show()
	})
	sp.box = container.NewBorder(nil, sp.buttons, nil, container.NewVBox(sp.closeB), sp.textL)
	sp.box.Hide()
	return sp
}

// show renders the last run's summary (hidden while a run goes on, and
// when closed).
func (sp *summaryPanel) show() {
	sum, ok := sp.wb.s.Prover().Summary()
	text := ""
	if ok {
		text = sum.TextNamed(sp.wb.s.Cursor().MoveText)
	}
	if text == sp.closed {
		text = ""
	}
	if text == sp.shown {
		return
	}
	sp.shown = text
	sp.textL.SetText(text)
	sp.buttons.RemoveAll()
	if text != "" {
		if sum.Left != nil {
			sp.buttons.Add(widget.NewButton("→ left to prove", sp.wb.s.Prover().GoToLeft))
		}
		for i, c := range sum.Changed {
			if i == maxChangeButtons {
				break
			}
			b := widget.NewButton("→ "+sp.wb.s.Cursor().MoveText(c.Move)+" "+c.After.String(), func() { sp.wb.s.Prover().GoToChange(i) })
			if c.After == c6book.StatusProved {
				b.Importance = widget.SuccessImportance
			}
			sp.buttons.Add(b)
		}
	}
	if (text != "") != sp.box.Visible() {
		if text != "" {
			sp.box.Show()
		} else {
			sp.box.Hide()
		}
	}
	sp.box.Refresh()
	if u := sp.wb.ui; u != nil && u.proveHead != nil {
		u.proveHead.Refresh()
	}
}

// summaryText is the last run's summary shown ("" when none).
func (wb *Workbench) summaryText() string { return wb.ui.summary.shown }
