package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/game"
	"c6book/session"
)

// verifyPanel is the Prove tab's verifier: the attacker and λ, Verify,
// Stop, Next and Mark disproved, the progress of a verification and the
// shown position's verdict with its unsolved defender moves.
type verifyPanel struct {
	wb        *Workbench
	attacker  *widget.RadioGroup
	lambda    *keySelect
	verifyB   *widget.Button
	stopB     *widget.Button // stops the verifier and the engine (enginePanel)
	nextB     *widget.Button
	disproveB *widget.Button
	progress  *widget.ProgressBar
	progressL *widget.Label
	goVerifyB *widget.Button
	verdictL  *widget.Label
	unsolvedL *keyList
	// unsolved are the unsolved list's rows: each reason with its count
	// (session.GroupUnsolved), then its moves.
	unsolved    []unsolvedRow
	unsolvedBox fyne.CanvasObject // the unsolved moves with their title
	listW       float32           // the unsolved list's width (rowHeights)
	measure     *widget.Label     // measures a row's wrapped height
}

func newVerifyPanel(wb *Workbench) *verifyPanel {
	vp := &verifyPanel{wb: wb}
	// Proving.
	vp.attacker = widget.NewRadioGroup([]string{"Black", "White"}, func(s string) {
		c := game.Black
		if s == "White" {
			c = game.White
		}
		if s != "" && c != wb.s.Cursor().Attacker() {
			wb.SetAttacker(c)
		}
		wb.releaseFocus() // its item took the focus: the arrows navigate
	})
	vp.attacker.Horizontal = true
	vp.attacker.Required = true
	vp.attacker.SetSelected("Black")
	vp.lambda = wb.newSelect([]string{"λ2", "λ3"}, func(s string) {
		if s == "λ3" {
			wb.s.Prover().SetLambda(3)
		} else {
			wb.s.Prover().SetLambda(2)
		}
	})
	vp.lambda.SetSelected("λ2")
	vp.verifyB = widget.NewButtonWithIcon("Verify", theme.MediaPlayIcon(), wb.Prover().Verify)
	vp.verifyB.Importance = widget.HighImportance
	vp.stopB = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), wb.Prover().Stop)
	vp.stopB.Disable()
	vp.nextB = widget.NewButtonWithIcon("Next", theme.MediaFastForwardIcon(), wb.Cursor().Next)
	vp.disproveB = widget.NewButtonWithIcon("Mark disproved", theme.CancelIcon(), wb.History().ToggleDisproved)
	vp.progress = widget.NewProgressBar()
	vp.progress.Hide()
	vp.progressL = widget.NewLabel("")
	vp.progressL.Wrapping = fyne.TextWrapWord
	vp.progressL.Hide() // (shown with the progress bar: no blank line in the report)
	vp.goVerifyB = widget.NewButtonWithIcon("Go to it", theme.NavigateNextIcon(), wb.s.Prover().GoToVerify)
	vp.goVerifyB.Hide()
	vp.verdictL = widget.NewLabel("")
	vp.verdictL.Wrapping = fyne.TextWrapWord
	vp.unsolvedL = wb.newList(
		func() int { return len(vp.unsolved) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Wrapping = fyne.TextWrapWord // the reason in full (rowHeights)
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(vp.unsolved) {
				o.(*widget.Label).SetText(vp.unsolvedText(i))
			}
		})
	vp.unsolvedL.OnSelected = func(i widget.ListItemID) {
		vp.unsolvedL.UnselectAll()
		if i < len(vp.unsolved) && !vp.unsolved[i].head {
			wb.Cursor().PlayMove(vp.unsolved[i].move)
		}
	}
	vp.unsolvedBox = container.NewBorder(widget.NewLabelWithStyle("Unsolved defender moves", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, container.New(&widthLayout{onWidth: vp.rowHeights}, vp.unsolvedL))
	return vp
}

// unsolvedRow is a row of the unsolved list: a reason with its count, or
// one of its moves (a click plays it).
type unsolvedRow struct {
	head bool
	why  string
	n    int
	move game.Move
}

// unsolvedRows lists v's groups (session.GroupUnsolved): each reason with
// its count, then its moves.
func unsolvedRows(v *c6book.Verdict) []unsolvedRow {
	var out []unsolvedRow
	for _, g := range session.GroupUnsolved(v) {
		out = append(out, unsolvedRow{head: true, why: g.Why, n: len(g.Moves)})
		for _, m := range g.Moves {
			out = append(out, unsolvedRow{move: m})
		}
	}
	return out
}

// unsolvedText is the i-th unsolved row: a reason with its count, or a
// move.
func (vp *verifyPanel) unsolvedText(i int) string {
	row := vp.unsolved[i]
	if row.head {
		return fmt.Sprintf("%d · %s", row.n, row.why)
	}
	return "    " + game.MoveName(vp.wb.s.Rules(), row.move)
}

// rowHeights gives each reason's row the height of its text wrapped in a
// list w wide, so that no reason is cut off however narrow the column.
func (vp *verifyPanel) rowHeights(w float32) {
	vp.listW = w
	if w <= 0 {
		return
	}
	if vp.measure == nil {
		vp.measure = widget.NewLabel("")
		vp.measure.Wrapping = fyne.TextWrapWord
	}
	tw := max(w-theme.ScrollBarSize()-2*theme.Padding(), 40)
	// A move's row is one compact line; a reason's is measured in the
	// app's theme, a little more than its compact text needs.
	one := compactLineHeight(vp.measure)
	for i, row := range vp.unsolved {
		if !row.head {
			vp.unsolvedL.SetItemHeight(i, one)
			continue
		}
		vp.measure.Resize(fyne.NewSize(tw, 1))
		vp.measure.SetText(vp.unsolvedText(i)) // (after the width: MinSize is kept until a refresh)
		vp.unsolvedL.SetItemHeight(i, vp.measure.MinSize().Height)
	}
}

// widthLayout lays out one object over the whole container and calls
// onWidth when the container's width changed.
type widthLayout struct {
	w       float32
	onWidth func(w float32)
}

func (l *widthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size.Width != l.w {
		l.w = size.Width
		l.onWidth(size.Width)
	}
}

func (l *widthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// showDisprove renders Mark (or Clear) disproved.
func (vp *verifyPanel) showDisprove(editable bool) {
	if vp.wb.s.Cursor().Info().Status == c6book.StatusDisproved {
		setButton(vp.disproveB, "Clear disproved", editable)
	} else {
		setButton(vp.disproveB, "Mark disproved", editable)
	}
}

// showVerify shows the verifier's state: its progress while it runs, then
// what it left to say, else the shown position's verdict.
func (vp *verifyPanel) showVerify() {
	s := vp.wb.s
	if j := s.Prover().VerifyJob(); j != nil {
		vp.verifyB.Disable()
		vp.stopB.Enable()
		if vp.progress.Hidden {
			vp.progress.SetValue(0)
			vp.setShown(vp.progress, true)
			vp.setShown(vp.progressL, true)
			vp.progressL.SetText("verifying…")
			vp.verdictL.SetText("")
		}
		if p := j.Progress(); p.Text != "" {
			vp.progressL.SetText(vp.verifyingWhat() + p.Text)
		} else if p.Phase != "" {
			vp.showProgress(p)
		} else {
			vp.progressL.SetText(vp.verifyingWhat() + "starting…")
		}
		vp.setShown(vp.goVerifyB, s.Prover().VerifyElsewhere())
		return
	}
	vp.setShown(vp.goVerifyB, false)
	vp.enableVerify()
	if !s.Prover().Suggesting() {
		vp.stopB.Disable()
	}
	if !vp.progress.Hidden {
		vp.progress.SetValue(1)
		vp.setShown(vp.progress, false)
		vp.setShown(vp.progressL, false)
		vp.progressL.SetText("")
	}
	if t := s.Prover().VerifyText(); t != session.VerifyShown {
		vp.verdictL.SetText(string(t))
		return
	}
	vp.showVerdict(s.Cursor().Verdict())
}

func (vp *verifyPanel) showVerdict(v *c6book.Verdict) {
	if !vp.wb.s.Cursor().Loaded() {
		// The book's answer is on its way: neither the verdict the
		// position had before an edit (a "PROVED" after Undo) nor "No
		// verdict" for one it has.
		vp.verdictL.SetText("Reading the book…")
		return
	}
	if info := vp.wb.s.Cursor().Info(); v == nil && info.ByTwin {
		vp.unsolved = nil
		a := vp.wb.s.Cursor().Attacker()
		sq := game.SquareName(vp.wb.s.Rules(), info.TwinStone)
		vp.verdictL.SetText(fmt.Sprintf("PROVED for %s by its twin: without %s's stone on %s this position is proved, by a proof whose zone does not reach %s.",
			colourName(a), colourName(a.Opp()), sq, sq))
		vp.unsolvedL.Refresh()
		return
	}
	if v == nil {
		vp.unsolved = nil
		text := "No verdict for this position."
		if why := vp.verifyBlocked(); why != "" {
			text += " Verify is disabled: " + why + "."
		}
		vp.verdictL.SetText(text)
		vp.unsolvedL.Refresh()
		return
	}
	// The expert's work list: unsolved moves, then (λ3) open seminull
	// positions, which are one-stone moves.
	vp.unsolved = unsolvedRows(v)
	var sb strings.Builder
	if v.Proved() {
		fmt.Fprintf(&sb, "PROVED for %s (order %d)", colourName(v.Attacker), v.Order)
	} else if vp.wb.s.Cursor().Info().Status == c6book.StatusProved && len(v.Items()) == 0 {
		// Its verdict left moves to prove; the book has proved them all.
		fmt.Fprintf(&sb, "PROVED for %s through its replies: every defender move its verdict left open is proved", colourName(v.Attacker))
	} else {
		if v.AllUnsolved {
			// The reason (null move not refuted, or the defender makes six
			// at once) is the verdict's note, shown below.
			fmt.Fprintf(&sb, "OPEN for %s: every defender move is unsolved", colourName(v.Attacker))
			if v.Note == "" {
				sb.WriteString(" (the null move is not refuted)")
			}
		} else {
			fmt.Fprintf(&sb, "OPEN for %s: %s", colourName(v.Attacker), session.Plural(len(v.Unsolved), "unsolved defender move", "unsolved defender moves"))
		}
		if len(v.OpenSeminull) > 0 {
			fmt.Fprintf(&sb, ", %s", session.Plural(len(v.OpenSeminull), "open seminull position", "open seminull positions"))
		}
	}
	lam := v.Lambda
	if lam == 0 {
		lam = 2
	}
	fmt.Fprintf(&sb, "\nλ%d · %s · %s · %s", lam, session.Plural(v.Calls, "solver call", "solver calls"), session.Plural(v.Nodes, "node", "nodes"), v.Elapsed().Round(time.Millisecond))
	if v.Note != "" {
		sb.WriteString("\n" + v.Note)
	}
	vp.verdictL.SetText(sb.String())
	vp.rowHeights(vp.listW)
	vp.unsolvedL.Refresh()
}

// setShown shows or hides o, one of the Prove tab's controls, and lays the
// tab out again when that changed (a container keeps the places it gave its
// objects until then).
func (vp *verifyPanel) setShown(o fyne.CanvasObject, on bool) {
	if o.Visible() == on {
		return
	}
	if on {
		o.Show()
	} else {
		o.Hide()
	}
	vp.wb.ui.proveHead.Refresh()
}

// verifyBlocked says why Verify cannot run on the shown position ("" when
// it can): the verifier proves a win for the side that has just moved, so
// the defender must be to move.
func (vp *verifyPanel) verifyBlocked() string {
	s := vp.wb.s
	p := s.Cursor().Position()
	switch {
	case p.Winner() != game.Empty:
		return "the game is over"
	case p.ToMove() == s.Cursor().Attacker():
		return fmt.Sprintf("it proves a win for the side that has just moved, and the attacker (%s) is to move",
			colourName(s.Cursor().Attacker()))
	}
	return ""
}

// enableVerify enables Verify where it can run (a writable book, the
// defender to move, no verification running) and disables it elsewhere.
func (vp *verifyPanel) enableVerify() {
	s := vp.wb.s
	on := s.ReadOnly() == "" && vp.verifyBlocked() == "" && s.Prover().VerifyJob() == nil
	if on && vp.verifyB.Disabled() {
		vp.verifyB.Enable()
	} else if !on && !vp.verifyB.Disabled() {
		vp.verifyB.Disable()
	}
}

func (vp *verifyPanel) showProgress(p session.Progress) {
	if p.Total > 0 {
		vp.progress.SetValue(float64(p.Done) / float64(p.Total))
	}
	vp.progressL.SetText(vp.verifyingWhat() + fmt.Sprintf("%s: %d/%s · %s · %s", p.Phase, p.Done, session.Plural(p.Total, "solver call", "solver calls"), session.Plural(p.Nodes, "node", "nodes"),
		p.Elapsed.Round(100*time.Millisecond)))
}

// verifyingWhat names the position being verified: "Verifying … 3. k9l9
// 4. m10m11: " (its last turns).
func (vp *verifyPanel) verifyingWhat() string {
	line := vp.wb.s.Prover().VerifyLine()
	if len(line) == 0 {
		return "Verifying the empty board: "
	}
	r, start, prefix := vp.wb.s.Rules(), max(len(line)-4, 0), ""
	if start > 0 {
		prefix = "… "
	}
	parts := make([]string, 0, len(line)-start)
	for i := start; i < len(line); i++ {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, game.MoveName(r, line[i])))
	}
	return "Verifying " + prefix + strings.Join(parts, " ") + ": "
}
