package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/game"
	"c6book/session"
)

// proofPanel is the Proof tab: the proof of a proved position stepped
// through on the board (session's Show proof, read off the stored
// certificate): ◀ and ▶ (and ← →) step, the steps list jumps, the replies
// list chooses which defender reply the line follows (the critical first).
// The Prove tab's "Show proof" button opens it.
type proofPanel struct {
	wb      *Workbench
	box     fyne.CanvasObject
	tab     *container.TabItem
	showB   *widget.Button // "Show proof", beside the verdict (Prove tab)
	prevB   *widget.Button
	nextB   *widget.Button
	closeB  *widget.Button
	textL   *widget.Label
	steps   *keyList
	alts    *keyList
	altsL   *widget.Label
	shownAt int // the step the lists show (-1: none)
}

func newProofPanel(wb *Workbench) *proofPanel {
	pp := &proofPanel{wb: wb, shownAt: -1}
	s := wb.s
	pp.showB = widget.NewButtonWithIcon("Show proof", theme.MediaPlayIcon(), wb.ShowProof)
	pp.showB.Disable()
	pp.prevB = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { s.ProofStep(-1) })
	pp.nextB = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { s.ProofStep(+1) })
	pp.closeB = widget.NewButtonWithIcon("Close proof", theme.CancelIcon(), s.CloseProof)
	pp.textL = widget.NewLabel("No proof shown. On a proved position, Prove → Show proof steps through its certificate.")
	pp.textL.Wrapping = fyne.TextWrapWord
	pp.steps = wb.newList(
		func() int {
			if p := s.ProofShown(); p != nil {
				return len(p.Walk.Steps())
			}
			return 0
		},
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := s.ProofShown()
			if p == nil || i >= len(p.Walk.Steps()) {
				return
			}
			l := o.(*widget.Label)
			l.TextStyle.Bold = i == p.Walk.At()
			l.Truncation = fyne.TextTruncateEllipsis
			l.SetText(p.Walk.Line()[i])
		})
	pp.steps.OnSelected = func(i widget.ListItemID) {
		pp.steps.UnselectAll()
		if p := s.ProofShown(); p != nil {
			s.ProofStep(i - p.Walk.At())
		}
	}
	pp.alts = wb.newList(
		func() int { return len(pp.stepAlts()) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			alts := pp.stepAlts()
			p := s.ProofShown()
			if p == nil || i >= len(alts) {
				return
			}
			l := o.(*widget.Label)
			l.TextStyle.Bold = i == p.Walk.Step().Choice
			l.Truncation = fyne.TextTruncateEllipsis
			l.SetText(p.Walk.AltText(alts[i]))
		})
	pp.alts.OnSelected = func(i widget.ListItemID) {
		pp.alts.UnselectAll()
		s.ProofChoose(i)
	}
	pp.altsL = widget.NewLabel("Defender replies here")
	controls := container.NewHBox(pp.prevB, pp.nextB, pp.closeB)
	lists := container.NewHSplit(
		container.NewBorder(widget.NewLabel("The line (click a step)"), nil, nil, nil, pp.steps),
		container.NewBorder(pp.altsL, nil, nil, nil, pp.alts))
	lists.SetOffset(0.55)
	pp.box = container.NewBorder(container.NewVBox(controls, pp.textL), nil, nil, nil, lists)
	pp.tab = container.NewTabItem("Proof", pp.box)
	return pp
}

// stepAlts are the defender replies of the step shown.
func (pp *proofPanel) stepAlts() []c6book.ProofAlt {
	if p := pp.wb.s.ProofShown(); p != nil {
		return p.Walk.Step().Alts
	}
	return nil
}

// show renders the proof shown (or none) and Show proof's state.
func (pp *proofPanel) show() {
	s := pp.wb.s
	switch {
	case s.ProofBusy():
		setButton(pp.showB, "Checking the certificate…", false)
	case s.ProofShown() != nil:
		setButton(pp.showB, "Show proof", false)
	default:
		setButton(pp.showB, "Show proof", s.CanShowProof())
	}
	p := s.ProofShown()
	if p == nil {
		setButton(pp.prevB, "", false)
		setButton(pp.nextB, "", false)
		setButton(pp.closeB, "Close proof", false)
		if pp.shownAt >= 0 {
			pp.textL.SetText("No proof shown. On a proved position, Prove → Show proof steps through its certificate.")
			pp.shownAt = -1
			pp.steps.Refresh()
			pp.alts.Refresh()
		}
		return
	}
	w := p.Walk
	setButton(pp.prevB, "", w.At() > 0)
	setButton(pp.nextB, "", w.At() < len(w.Steps())-1)
	setButton(pp.closeB, "Close proof", true)
	pp.textL.SetText(s.ProofText())
	n := len(w.Step().Alts)
	switch {
	case n == 0:
		pp.altsL.SetText("No defender reply here")
	case w.At() == 0:
		pp.altsL.SetText(session.Plural(n, "defender reply", "defender replies") + " answered (critical first; click one to follow it)")
	default:
		pp.altsL.SetText(session.Plural(n, "defender reply", "defender replies") + " to this move (click one to follow it)")
	}
	pp.shownAt = w.At()
	pp.steps.Refresh()
	pp.steps.ScrollTo(w.At())
	pp.alts.Refresh()
}

// proofView is the board of the proof step shown: its position, the
// strategy's zone and the attacker's threat squares (marked "!").
func (wb *Workbench) proofView() (BoardView, bool) {
	b, zone, threats := wb.s.ProofBoard()
	if b == nil {
		return BoardView{}, false
	}
	v := BoardView{Pos: b, Numbers: wb.numbers, Pending: game.NoSquare, Zone: zone}
	if len(threats) > 0 {
		v.Marks = make(map[game.Square]string, len(threats))
		for _, q := range threats {
			v.Marks[q] = "!"
		}
	}
	return v, true
}

// ShowProof shows the shown position's proof (Prove → Show proof) in the
// Proof tab.
func (wb *Workbench) ShowProof() {
	wb.ui.tabs.Select(wb.ui.proof.tab)
	wb.s.ShowProof()
}

// SelectTab shows the tab named name (Prove, Notes, Games, Search, Solved,
// Proof; any case); an unknown name changes nothing.
func (wb *Workbench) SelectTab(name string) {
	for _, t := range wb.ui.tabs.Items {
		if strings.EqualFold(t.Text, name) {
			wb.ui.tabs.Select(t)
		}
	}
}

// TabNames are the workbench's tabs, in order (SelectTab).
func TabNames() []string {
	return []string{"Prove", "Notes", "Games", "Search", "Solved", "Proof", "Atlas"}
}
