package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"c6book"
)

// widgets are the workbench's panels, laid out. Each panel keeps its own
// widgets and renders one part of the session; lists are virtualised
// (widget.List) and read in-memory slices only. (The panels are embedded:
// their widgets are reached as fields of widgets.)
type widgets struct {
	wb      *Workbench
	content fyne.CanvasObject
	tabs    *container.AppTabs
	// gamesTab, solvedTab and atlasTab load their lists when selected.
	gamesTab, solvedTab, atlasTab *container.TabItem

	*boardPanel
	*linePanel
	*verifyPanel
	*enginePanel
	auto    *autoPanel    // the auto-pilot's row (auto.go)
	summary *summaryPanel // how the last Verify or Auto run ended (summary.go)
	*notesPanel
	*findPanel
	*gamesPanel
	proof *proofPanel // the Proof tab and Show proof (proofpanel.go)
	atlas *atlasPanel // the Atlas tab and the Solved tab's atlas rows (atlas.go)

	// proveHead is the Prove tab's report area: the auto-pilot's texts,
	// the progress, the last run's summary and the verdict. It scrolls in
	// its own part of the tab: a long report never moves the buttons above
	// it nor squeezes the lists below it (its height is the user's, a
	// split).
	proveHead *fyne.Container
	// splits are the draggable splits by name (SplitOffsets).
	splits map[string]*container.Split
}

func swatch() *canvas.Rectangle {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(12, 12))
	r.CornerRadius = 3
	return r
}

// row is a list row: a status swatch and a label.
func newRow() fyne.CanvasObject {
	return container.NewHBox(container.NewCenter(swatch()), widget.NewLabel(""))
}

func setRow(o fyne.CanvasObject, st c6book.Status, known bool, text string, bold bool) {
	c := o.(*fyne.Container)
	sw := c.Objects[0].(*fyne.Container).Objects[0].(*canvas.Rectangle)
	if known {
		sw.FillColor = statusColour(st)
	} else {
		sw.FillColor = color.Transparent
	}
	sw.Refresh()
	l := c.Objects[1].(*widget.Label)
	l.TextStyle.Bold = bold
	l.SetText(text)
}

func newWidgets(wb *Workbench) *widgets {
	u := &widgets{wb: wb}
	u.boardPanel = newBoardPanel(wb)
	u.linePanel = newLinePanel(wb)
	u.verifyPanel = newVerifyPanel(wb)
	u.enginePanel = newEnginePanel(wb)
	work := container.NewHSplit(u.unsolvedBox, u.candBox)
	work.SetOffset(0.42)
	u.auto = newAutoPanel(wb)
	u.proof = newProofPanel(wb)
	u.summary = newSummaryPanel(wb)
	// The Prove tab: its controls in fixed rows (Suggest at one place
	// whatever the position), then the report over the lists.
	controls := container.NewVBox(
		// (Engine move here, not in the board's toolbar: this row has room
		// to spare, and the window must stay narrower than a 1280 px screen.)
		container.NewHBox(widget.NewLabel("Attacker"), u.attacker, u.lambda, layout.NewSpacer(), u.engineB),
		container.NewHBox(u.verifyB, u.stopB, u.suggestB, u.budgetS, layout.NewSpacer(), u.disproveB, u.nextB),
		u.auto.row)
	u.proveHead = container.NewVBox(u.auto.box,
		u.progress, container.NewBorder(nil, nil, nil, u.goVerifyB, u.progressL), u.summary.box,
		container.NewBorder(nil, nil, nil, container.NewVBox(u.proof.showB), u.verdictL))
	report := container.NewVSplit(container.NewVScroll(u.proveHead), work)
	report.SetOffset(0.25)
	prove := container.NewBorder(controls, nil, nil, nil, report)
	u.notesPanel = newNotesPanel(wb)
	u.findPanel = newFindPanel(wb)
	u.gamesPanel = newGamesPanel(wb)
	u.atlas = newAtlasPanel(wb)

	u.gamesTab = container.NewTabItem("Games", u.gamesPanel.box)
	u.solvedTab = container.NewTabItem("Solved", container.NewBorder(u.atlas.provedBox, nil, nil, nil, u.solvedBox))
	u.atlasTab = container.NewTabItem("Atlas", u.atlas.box)
	u.tabs = container.NewAppTabs(
		container.NewTabItem("Prove", prove),
		container.NewTabItem("Notes", u.notesPanel.box),
		u.gamesTab,
		container.NewTabItem("Search", u.searchBox),
		u.solvedTab,
		u.proof.tab,
		u.atlasTab,
	)
	u.tabs.OnSelected = func(t *container.TabItem) {
		switch t {
		case u.solvedTab:
			wb.LoadSolved()
			wb.loadAtlas()
		case u.atlasTab:
			wb.loadAtlas()
		case u.gamesTab:
			u.showGames()
		}
	}
	right := container.NewVSplit(u.linePanel.box, u.tabs)
	right.SetOffset(0.33)
	split := container.NewHSplit(u.boardPanel.box, right)
	split.SetOffset(0.52) // the Line and Replies panes readable at 1280 px (TestPanesReadableAtDefaultSize)
	u.splits = map[string]*container.Split{"board": split, "panes": right, "line": u.linePanel.box.(*container.Split),
		"report": report, "work": work}
	u.content = split
	return u
}

// update shows the workbench's state.
func (u *widgets) update() {
	editable := u.wb.s.ReadOnly() == ""
	u.boardPanel.show(editable)
	u.showDisprove(editable)
	u.setEditable(editable)
	u.linePanel.show()
	u.notesPanel.show()
	u.showGames()
	u.showVerify()
	if !u.wb.s.Prover().Suggesting() {
		u.showCandidates()
	}
}

// setEditable enables or disables what writes to the book (a read-only
// book): Verify (its verdict is stored), the notes and square labels.
func (u *widgets) setEditable(on bool) {
	switch {
	case !on && !u.verifyB.Disabled():
		u.verifyB.Disable()
	case on && u.verifyB.Disabled() && !u.wb.s.Prover().Running():
		u.enableVerify()
	}
	for _, w := range []fyne.Disableable{u.saveB, u.labelE, u.commentE, u.marking} {
		if on && w.Disabled() {
			w.Enable()
		} else if !on && !w.Disabled() {
			w.Disable()
		}
	}
	if !on && u.marking.Checked {
		u.wb.s.Cursor().SetMarking(false)
		u.marking.SetChecked(false)
	}
}

// setButton changes a button only when needed (a refresh re-renders its
// icon).
func setButton(b *widget.Button, text string, enabled bool) {
	if b.Text != text {
		b.SetText(text)
	}
	if enabled && b.Disabled() {
		b.Enable()
	} else if !enabled && !b.Disabled() {
		b.Disable()
	}
}
