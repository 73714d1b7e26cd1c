package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/game"
	"c6book/session"
)

// enginePanel is the Prove tab's engine: Suggest with the player's time,
// Engine move, the player's progress or answer, and the candidates (a click
// previews one on the board, Play or a double click plays it).
type enginePanel struct {
	wb         *Workbench
	suggestB   *widget.Button
	budgetS    *keySelect     // the player's time for a move
	engineB    *widget.Button // Play engine move
	playL      *widget.Label  // the player's progress, or its answer summed up
	candHead   *fyne.Container
	candL      *widget.Label
	candList   *keyList
	candNote   *widget.Label // over the empty list: how to use it, or why Suggest is disabled
	shownCands []session.Candidate
	candSel    int // the selected candidate (previewed on the board), -1 when none
	playCandB  *widget.Button
	candBox    fyne.CanvasObject // the candidates with their head and Play
}

func newEnginePanel(wb *Workbench) *enginePanel {
	ep := &enginePanel{wb: wb}
	ep.engineB = widget.NewButtonWithIcon("Engine move", theme.ComputerIcon(), wb.Prover().PlayEngineMove)
	ep.suggestB = widget.NewButtonWithIcon("Suggest", theme.SearchIcon(), wb.Prover().Suggest)
	ep.budgetS = wb.newSelect(budgetNames(), func(name string) {
		if d, ok := budgetOf(name); ok && d != wb.s.Prover().PlayBudget() {
			wb.s.Prover().SetPlayBudget(d)
		}
	})
	ep.budgetS.PlaceHolder = "0.3 s" // its widest choice: the placeholder sets the width
	ep.budgetS.SetSelected(budgetName(wb.s.Prover().PlayBudget()))
	ep.playL = widget.NewLabel("")
	ep.playL.Wrapping = fyne.TextWrapWord
	ep.playL.Hide()
	ep.candL = widget.NewLabelWithStyle("Engine candidates", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	ep.candL.Truncation = fyne.TextTruncateEllipsis // never widens the window
	ep.candHead = container.NewVBox(ep.candL, ep.playL)
	ep.candNote = widget.NewLabel("")
	ep.candNote.Wrapping = fyne.TextWrapWord
	// Candidates: a click selects one and shows it on the board; Play (or a
	// double click) plays it, storing it in the book.
	ep.candSel = -1
	ep.candList = wb.newList(
		func() int { return len(ep.shownCands) },
		func() fyne.CanvasObject { return newCandRow() },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(ep.shownCands) {
				c := ep.shownCands[i]
				row := o.(*candRow)
				row.onTap = func() { ep.candList.Select(i) }
				row.onDouble = func() { ep.playCandidate(i) }
				if t := game.MoveName(wb.s.Rules(), c.Move) + "  " + c.Note; row.Text != t {
					row.SetText(t)
				}
			}
		})
	ep.candList.OnSelected = func(i widget.ListItemID) {
		if i < len(ep.shownCands) {
			ep.candSel = i
			ep.playCandB.Enable()
			wb.redrawBoard()
		}
	}
	ep.candList.OnUnselected = func(i widget.ListItemID) {
		if ep.candSel == i { // (the list is not told: it may be selecting another)
			ep.candSel = -1
			ep.playCandB.Disable()
			wb.redrawBoard()
		}
	}
	ep.playCandB = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), func() { ep.playCandidate(ep.candSel) })
	ep.playCandB.Disable()
	ep.candBox = container.NewBorder(ep.candHead, container.NewHBox(ep.playCandB), nil, nil, container.NewStack(compact(ep.candList), ep.candNote))
	return ep
}

// candRow is a candidate's row: a click selects it, a double click plays
// it. (The row takes both: the driver gives a click to the deepest object
// that takes taps or double taps.)
type candRow struct {
	widget.Label
	onTap, onDouble func()
}

// Tapped implements fyne.Tappable.
func (r *candRow) Tapped(*fyne.PointEvent) {
	if r.onTap != nil {
		r.onTap()
	}
}

func newCandRow() *candRow {
	r := &candRow{}
	r.ExtendBaseWidget(r)
	return r
}

// DoubleTapped implements fyne.DoubleTappable.
func (r *candRow) DoubleTapped(*fyne.PointEvent) {
	if r.onDouble != nil {
		r.onDouble()
	}
}

// preview is the selected candidate, shown on the board (NoMove: none).
func (ep *enginePanel) preview() (game.Move, bool) {
	if ep.candSel < 0 || ep.candSel >= len(ep.shownCands) {
		return game.Move{}, false
	}
	return ep.shownCands[ep.candSel].Move, true
}

// previewReply is the opponent's answer the engine expects to the selected
// candidate (the next move of its line).
func (ep *enginePanel) previewReply() (game.Move, bool) {
	if ep.candSel < 0 || ep.candSel >= len(ep.shownCands) {
		return game.Move{}, false
	}
	c := ep.shownCands[ep.candSel]
	if len(c.PV) < 2 || c.PV[0] != c.Move {
		return game.Move{}, false
	}
	return c.PV[1], true
}

// playCandidate plays the i-th candidate (stored in the book if new).
func (ep *enginePanel) playCandidate(i int) {
	if i < 0 || i >= len(ep.shownCands) {
		return
	}
	m := ep.shownCands[i].Move
	ep.clearCandidate()
	ep.wb.Cursor().PlayMove(m)
}

// clearCandidate drops the selection and its preview.
func (ep *enginePanel) clearCandidate() {
	had := ep.candSel >= 0
	ep.candSel = -1
	if !ep.playCandB.Disabled() {
		ep.playCandB.Disable()
	}
	if had {
		ep.candList.UnselectAll()
		ep.wb.redrawBoard()
	}
}

// showSuggest shows the candidate search or the player: running (its
// latest progress), or its answer.
func (ep *enginePanel) showSuggest() {
	s := ep.wb.s
	ep.showPlayText()
	if s.Prover().Suggesting() {
		ep.suggestB.Disable()
		ep.engineB.Disable()
		ep.wb.ui.stopB.Enable()
		text := "Engine candidates: searching…"
		if run, move := s.Prover().Thinking(); run && move {
			text = "Engine move: thinking…"
		}
		if ep.candL.Text != text {
			ep.candL.SetText(text)
		}
		return
	}
	if !s.Prover().Running() {
		ep.wb.ui.stopB.Disable()
	}
	ep.showCandidates()
}

// showPlayText shows what the player has to say about the shown position.
func (ep *enginePanel) showPlayText() {
	t := ep.wb.s.Prover().PlayText()
	if ep.playL.Text != t {
		ep.playL.SetText(t)
	}
	if on := t != ""; ep.playL.Visible() != on {
		if on {
			ep.playL.Show()
		} else {
			ep.playL.Hide()
		}
		ep.candHead.Refresh()
	}
}

// suggestBlocked says why Suggest cannot run on the shown position ("" when
// it can): it proposes moves for the attacker, on the attacker's turn.
func (ep *enginePanel) suggestBlocked() string {
	s := ep.wb.s
	p := s.Cursor().Position()
	switch {
	case p.Winner() != game.Empty:
		return "the game is over"
	case p.ToMove() != s.Cursor().Attacker():
		return fmt.Sprintf("it proposes moves for the attacker (%s), and %s is to move",
			colourName(s.Cursor().Attacker()), colourName(p.ToMove()))
	}
	return ""
}

// showCandidates shows the candidates of the shown position and whether
// Suggest can run (the candidate search not running).
func (ep *enginePanel) showCandidates() {
	cs, ok := ep.wb.s.Prover().Candidates()
	if !sameCandidates(cs, ep.shownCands) {
		ep.shownCands = cs
		ep.clearCandidate()
		ep.candList.Refresh()
	}
	why := ep.suggestBlocked()
	text, note := "Engine candidates", ""
	switch {
	case ok:
		text = fmt.Sprintf("Engine candidates (%d)", len(cs))
		if why, none := ep.wb.s.Prover().NoCandidates(); none {
			note = why.Text() // the engine's reason, from its answer
		}
	case why != "":
		note = "Suggest is disabled: " + why + "."
	default:
		note = "Suggest asks the engine for attacker moves. A click on one shows it on the board; Play or a double click plays it."
	}
	if ep.candL.Text != text {
		ep.candL.SetText(text)
	}
	if ep.candNote.Text != note {
		ep.candNote.SetText(note)
	}
	if why != "" && !ep.suggestB.Disabled() {
		ep.suggestB.Disable()
	} else if why == "" && ep.suggestB.Disabled() {
		ep.suggestB.Enable()
	}
	ep.showPlayText()
	engineOn := ep.wb.s.Prover().HasPlayer() && session.NoMove(ep.wb.s.Cursor().Position()) == ""
	if engineOn && ep.engineB.Disabled() {
		ep.engineB.Enable()
	} else if !engineOn && !ep.engineB.Disabled() {
		ep.engineB.Disable()
	}
}

// The player's time for a move, as the Suggest row's select names it.
func budgetChoices() []time.Duration {
	return []time.Duration{300 * time.Millisecond, time.Second, 3 * time.Second, 10 * time.Second, 30 * time.Second}
}

func budgetName(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%g s", d.Seconds())
}

func budgetNames() []string {
	out := make([]string, len(budgetChoices()))
	for i, d := range budgetChoices() {
		out[i] = budgetName(d)
	}
	return out
}

func budgetOf(name string) (time.Duration, bool) {
	for _, d := range budgetChoices() {
		if budgetName(d) == name {
			return d, true
		}
	}
	return 0, false
}

func sameCandidates(a, b []session.Candidate) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Move != b[i].Move || a[i].Note != b[i].Note || a[i].Score != b[i].Score || a[i].Loses != b[i].Loses || a[i].Unsearched != b[i].Unsearched {
			return false
		}
	}
	return true
}
