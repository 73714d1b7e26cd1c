package ui

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine"
	"c6book/session"
)

// widgets are the workbench's panels. Lists are virtualised (widget.List)
// and read the workbench's in-memory slices only.
type widgets struct {
	wb      *Workbench
	content fyne.CanvasObject

	board    *Board
	statusL  *widget.Label
	numbers  *widget.Check
	marking  *widget.Check
	undoB    *widget.Button
	lineList *widget.List
	kidsL    *widget.Label
	kidList  *widget.List

	attacker   *widget.RadioGroup
	lambda     *widget.Select
	verifyB    *widget.Button
	stopB      *widget.Button
	nextB      *widget.Button
	disproveB  *widget.Button
	suggestB   *widget.Button
	budgetS    *widget.Select // the player's time for a move
	engineB    *widget.Button // Play engine move
	playL      *widget.Label  // the player's progress, or its answer summed up
	candHead   *fyne.Container
	candL      *widget.Label
	candList   *widget.List
	candNote   *widget.Label // over the empty list: how to use it, or why Suggest is disabled
	shownCands []session.Candidate
	candSel    int // the selected candidate (previewed on the board), -1 when none
	playCandB  *widget.Button
	progress   *widget.ProgressBar
	progressL  *widget.Label
	goVerifyB  *widget.Button
	proveHead  *fyne.Container // the Prove tab's controls, progress and verdict
	auto       *autoPanel      // the auto-pilot's row (auto.go)
	kidsPos    *engine.Board   // the position the replies list was scrolled for
	verdictL   *widget.Label
	unsolvedL  *widget.List
	unsolved   []engine.Move
	why        map[engine.Move]string // why each unsolved move is unsolved
	notesPos   *engine.Board          // the position the notes were filled for
	filling    bool                   // the notes are being filled (not typed)
	labelE     *widget.Entry
	commentE   *widget.Entry
	saveB      *widget.Button
	searchE    *widget.Entry
	searchRes  []session.Entry
	searchList *widget.List
	solvedRes  []session.Entry
	solvedList *widget.List
	solvedMin  *widget.Select // the Solved list's least λ order
	tabs       *container.AppTabs

	gamesL     *widget.Label
	gamesList  *widget.List
	games      []session.GameInfo
	gamesTotal int64
	gamesPos   *engine.Board // the position the games were listed for
	gamesMore  bool          // a page is being read
}

// gamesPage is how many games the Games pane reads at a time.
const gamesPage = 100

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
		sw.FillColor = StatusColour(st)
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
	u.board = NewBoard(engine.MustNewBoard(engine.Connect6()))
	u.board.OnSquare = func(s engine.Square) { wb.Cursor().TapSquare(s) }
	u.board.OnKey = func(ev *fyne.KeyEvent) { wb.TypedKey(ev) }

	u.statusL = widget.NewLabel("")
	u.statusL.Truncation = fyne.TextTruncateEllipsis // a long line never widens the window
	u.numbers = widget.NewCheck("Numbers", func(on bool) {
		if on != wb.numbers {
			wb.SetNumbers(on)
		}
	})
	u.numbers.SetChecked(true)
	u.marking = widget.NewCheck("Label squares", func(on bool) { wb.s.Cursor().SetMarking(on) })
	u.undoB = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), wb.History().Undo)
	u.engineB = widget.NewButtonWithIcon("Engine move", theme.ComputerIcon(), wb.Prover().PlayEngineMove)
	tools := container.NewHBox(
		widget.NewButtonWithIcon("", theme.MediaSkipPreviousIcon(), wb.Cursor().Home),
		widget.NewButtonWithIcon("", theme.NavigateBackIcon(), wb.Cursor().Back),
		widget.NewButtonWithIcon("", theme.NavigateNextIcon(), wb.Cursor().Forward),
		widget.NewButtonWithIcon("", theme.MediaSkipNextIcon(), wb.Cursor().End),
		u.undoB, u.numbers, u.marking,
	)
	left := container.NewBorder(tools, u.statusL, nil, nil, u.board)

	// The line (root first) and the children of the shown position.
	u.lineList = widget.NewList(
		func() int { return wb.s.Cursor().LineLen() + 1 },
		newRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			text := "root"
			if i > 0 && i <= wb.s.Cursor().LineLen() {
				text = fmt.Sprintf("%d. %s %s", i, moverName(wb.s.Rules(), i-1), engine.MoveName(wb.s.Rules(), wb.s.Cursor().LineMove(i-1)))
			}
			st := wb.s.Cursor().LineStatus(i)
			text += "  " + st.String()
			if n := wb.s.Cursor().LineVariations(i); n > 0 {
				text += fmt.Sprintf("  (+%d)", n)
			}
			setRow(o, st, true, text, i == wb.s.Cursor().Cur())
		})
	u.lineList.OnSelected = func(i widget.ListItemID) {
		u.lineList.UnselectAll()
		wb.Cursor().GoToPly(i)
	}
	u.kidsL = widget.NewLabel("Replies")
	u.kidList = widget.NewList(
		func() int { return len(wb.s.Cursor().Children()) },
		newRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(wb.s.Cursor().Children()) {
				return
			}
			c := wb.s.Cursor().Children()[i]
			setRow(o, c.Status, true, replyText(wb.s.Rules(), c), false)
		})
	u.kidList.OnSelected = func(i widget.ListItemID) {
		u.kidList.UnselectAll()
		wb.Cursor().SelectChild(i)
	}
	tree := container.NewHSplit(
		container.NewBorder(widget.NewLabelWithStyle("Line", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, u.lineList),
		container.NewBorder(u.kidsL, nil, nil, nil, u.kidList))
	tree.SetOffset(0.45)

	// Proving.
	u.attacker = widget.NewRadioGroup([]string{"Black", "White"}, func(s string) {
		c := engine.Black
		if s == "White" {
			c = engine.White
		}
		if s != "" && c != wb.s.Cursor().Attacker() {
			wb.SetAttacker(c)
		}
	})
	u.attacker.Horizontal = true
	u.attacker.Required = true
	u.attacker.SetSelected("Black")
	u.lambda = widget.NewSelect([]string{"λ2", "λ3"}, func(s string) {
		if s == "λ3" {
			wb.s.Prover().SetLambda(3)
		} else {
			wb.s.Prover().SetLambda(2)
		}
	})
	u.lambda.SetSelected("λ2")
	u.verifyB = widget.NewButtonWithIcon("Verify", theme.MediaPlayIcon(), wb.Prover().Verify)
	u.verifyB.Importance = widget.HighImportance
	u.stopB = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), wb.Prover().Stop)
	u.stopB.Disable()
	u.nextB = widget.NewButtonWithIcon("Next", theme.MediaFastForwardIcon(), wb.Cursor().Next)
	u.disproveB = widget.NewButtonWithIcon("Mark disproved", theme.CancelIcon(), wb.History().ToggleDisproved)
	u.progress = widget.NewProgressBar()
	u.progress.Hide()
	u.progressL = widget.NewLabel("")
	u.progressL.Wrapping = fyne.TextWrapWord
	u.goVerifyB = widget.NewButtonWithIcon("Go to it", theme.NavigateNextIcon(), wb.s.Prover().GoToVerify)
	u.goVerifyB.Hide()
	u.verdictL = widget.NewLabel("")
	u.verdictL.Wrapping = fyne.TextWrapWord
	u.unsolvedL = widget.NewList(
		func() int { return len(u.unsolved) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(u.unsolved) {
				m := u.unsolved[i]
				text := engine.MoveName(wb.s.Rules(), m)
				if m.Len() < wb.s.Rules().StonesForTurn(wb.s.Cursor().Position().Turn()) {
					text += "  (seminull: answer it)"
				} else if why, ok := u.why[m]; ok {
					text += "  " + why
				}
				o.(*widget.Label).SetText(text)
			}
		})
	u.unsolvedL.OnSelected = func(i widget.ListItemID) {
		u.unsolvedL.UnselectAll()
		if i < len(u.unsolved) {
			wb.Cursor().PlayMove(u.unsolved[i])
		}
	}
	u.suggestB = widget.NewButtonWithIcon("Suggest", theme.SearchIcon(), wb.Prover().Suggest)
	u.budgetS = widget.NewSelect(budgetNames(), func(name string) {
		if d, ok := budgetOf(name); ok && d != wb.s.Prover().PlayBudget() {
			wb.s.Prover().SetPlayBudget(d)
		}
	})
	u.budgetS.PlaceHolder = "0.3 s" // its widest choice: the placeholder sets the width
	u.budgetS.SetSelected(budgetName(wb.s.Prover().PlayBudget()))
	u.playL = widget.NewLabel("")
	u.playL.Wrapping = fyne.TextWrapWord
	u.playL.Hide()
	u.candL = widget.NewLabelWithStyle("Engine candidates", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.candL.Truncation = fyne.TextTruncateEllipsis // never widens the window
	u.candHead = container.NewVBox(u.candL, u.playL)
	u.candNote = widget.NewLabel("")
	u.candNote.Wrapping = fyne.TextWrapWord
	// Candidates: a click selects one and shows it on the board; Play (or a
	// double click) plays it, storing it in the book.
	u.candSel = -1
	u.candList = widget.NewList(
		func() int { return len(u.shownCands) },
		func() fyne.CanvasObject { return newCandRow() },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(u.shownCands) {
				c := u.shownCands[i]
				row := o.(*candRow)
				row.onTap = func() { u.candList.Select(i) }
				row.onDouble = func() { u.playCandidate(i) }
				if t := engine.MoveName(wb.s.Rules(), c.Move) + "  " + c.Note; row.Text != t {
					row.SetText(t)
				}
			}
		})
	u.candList.OnSelected = func(i widget.ListItemID) {
		if i < len(u.shownCands) {
			u.candSel = i
			u.playCandB.Enable()
			wb.redrawBoard()
		}
	}
	u.candList.OnUnselected = func(i widget.ListItemID) {
		if u.candSel == i { // (the list is not told: it may be selecting another)
			u.candSel = -1
			u.playCandB.Disable()
			wb.redrawBoard()
		}
	}
	u.playCandB = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), func() { u.playCandidate(u.candSel) })
	u.playCandB.Disable()
	work := container.NewHSplit(
		container.NewBorder(widget.NewLabelWithStyle("Unsolved defender moves", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			nil, nil, nil, u.unsolvedL),
		container.NewBorder(u.candHead, container.NewHBox(u.playCandB), nil, nil, container.NewStack(u.candList, u.candNote)))
	work.SetOffset(0.42)
	u.auto = newAutoPanel(wb)
	u.proveHead = container.NewVBox(
		// (Engine move here, not in the board's toolbar: this row has room
		// to spare, and the window must stay narrower than a 1280 px screen.)
		container.NewHBox(widget.NewLabel("Attacker"), u.attacker, u.lambda, layout.NewSpacer(), u.engineB),
		container.NewHBox(u.verifyB, u.stopB, u.suggestB, u.budgetS, layout.NewSpacer(), u.disproveB, u.nextB),
		u.auto.box,
		u.progress, container.NewBorder(nil, nil, nil, u.goVerifyB, u.progressL), u.verdictL)
	prove := container.NewBorder(u.proveHead, nil, nil, nil, work)

	// Notes.
	u.labelE = widget.NewEntry()
	u.labelE.SetPlaceHolder("label (joseki, trap…)")
	u.commentE = widget.NewMultiLineEntry()
	u.commentE.SetPlaceHolder("comment (saved as you type)")
	u.commentE.Wrapping = fyne.TextWrapWord
	// Saved as you type (once the typing pauses) and when the position
	// changes; the button saves at once.
	typed := func(string) {
		if !u.filling {
			wb.s.Notes().Edit(u.commentE.Text, u.labelE.Text)
		}
	}
	u.labelE.OnChanged = typed
	u.commentE.OnChanged = typed
	u.saveB = widget.NewButtonWithIcon("Save notes", theme.DocumentSaveIcon(), func() {
		wb.Notes().Save(u.commentE.Text, u.labelE.Text)
	})
	notes := container.NewBorder(container.NewVBox(u.labelE), container.NewHBox(u.saveB,
		// (short: the widest tab sets the right pane's width, and so the board's)
		widget.NewLabel("“Label squares” puts letters on the board.")), nil, nil, u.commentE)

	// Search in comments and the solved browser.
	entryList := func(res *[]session.Entry) *widget.List {
		l := widget.NewList(
			func() int { return len(*res) },
			newRow,
			func(i widget.ListItemID, o fyne.CanvasObject) {
				if i >= len(*res) {
					return
				}
				e := (*res)[i]
				text := e.Short
				if text == "" {
					text = engine.FormatTurns(wb.s.Rules(), e.Line)
				}
				switch {
				case e.Line == nil && e.Ref != 0:
					text = fmt.Sprintf("position #%d, %d stones", e.Ref, e.Stones)
				case text == "":
					text = "root"
				}
				if e.Label != "" {
					text = "[" + e.Label + "] " + text
				}
				if e.Text != "" {
					text += " — " + firstLine(e.Text, 60)
				}
				setRow(o, e.Status, true, text, false)
			})
		l.OnSelected = func(i widget.ListItemID) {
			l.UnselectAll()
			if i < len(*res) {
				wb.Cursor().OpenEntry((*res)[i])
			}
		}
		return l
	}
	u.searchE = widget.NewEntry()
	u.searchE.SetPlaceHolder("search comments")
	u.searchE.OnSubmitted = func(q string) { wb.Search(q) }
	u.searchList = entryList(&u.searchRes)
	search := container.NewBorder(container.NewBorder(nil, nil, nil,
		widget.NewButtonWithIcon("", theme.SearchIcon(), func() { wb.Search(u.searchE.Text) }), u.searchE),
		nil, nil, nil, u.searchList)
	u.solvedList = entryList(&u.solvedRes)
	// The least λ order listed (README, "Orders").
	minOrders := []string{"order ≥ 1", "order ≥ 2", "order 3", "order ≥ 0 (wins at once too)"}
	u.solvedMin = widget.NewSelect(minOrders, nil)
	u.solvedMin.SetSelectedIndex(0) // the session's default, 1
	u.solvedMin.OnChanged = func(s string) {
		for i, o := range minOrders {
			if o == s {
				wb.SetSolvedMinOrder((i + 1) % 4)
			}
		}
	}
	solved := container.NewBorder(container.NewHBox(widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { wb.LoadSolved() }), u.solvedMin),
		nil, nil, nil, u.solvedList)

	// The games through the shown position, read a page at a time as the
	// list scrolls down.
	u.gamesL = widget.NewLabel("Games")
	u.gamesList = widget.NewList(
		func() int { return len(u.games) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(u.games) {
				return
			}
			o.(*widget.Label).SetText(gameText(u.games[i]))
			if i == len(u.games)-1 && int64(len(u.games)) < u.gamesTotal {
				u.moreGames()
			}
		})
	u.gamesList.OnSelected = func(i widget.ListItemID) {
		u.gamesList.UnselectAll()
		if i < len(u.games) {
			wb.s.Cursor().OpenGame(u.games[i].ID)
		}
	}
	games := container.NewBorder(u.gamesL, nil, nil, nil, u.gamesList)

	u.tabs = container.NewAppTabs(
		container.NewTabItem("Prove", prove),
		container.NewTabItem("Notes", notes),
		container.NewTabItem("Games", games),
		container.NewTabItem("Search", search),
		container.NewTabItem("Solved", solved),
	)
	u.tabs.OnSelected = func(t *container.TabItem) {
		switch t.Text {
		case "Solved":
			wb.LoadSolved()
		case "Games":
			u.showGames()
		}
	}
	right := container.NewVSplit(tree, u.tabs)
	right.SetOffset(0.45)
	split := container.NewHSplit(left, right)
	split.SetOffset(0.6)
	u.content = split
	return u
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
func (u *widgets) preview() (engine.Move, bool) {
	if u.candSel < 0 || u.candSel >= len(u.shownCands) {
		return engine.Move{}, false
	}
	return u.shownCands[u.candSel].Move, true
}

// previewReply is the opponent's answer the engine expects to the selected
// candidate (the next move of its line).
func (u *widgets) previewReply() (engine.Move, bool) {
	if u.candSel < 0 || u.candSel >= len(u.shownCands) {
		return engine.Move{}, false
	}
	c := u.shownCands[u.candSel]
	if len(c.PV) < 2 || c.PV[0] != c.Move {
		return engine.Move{}, false
	}
	return c.PV[1], true
}

// playCandidate plays the i-th candidate (stored in the book if new).
func (u *widgets) playCandidate(i int) {
	if i < 0 || i >= len(u.shownCands) {
		return
	}
	m := u.shownCands[i].Move
	u.clearCandidate()
	u.wb.Cursor().PlayMove(m)
}

// clearCandidate drops the selection and its preview.
func (u *widgets) clearCandidate() {
	had := u.candSel >= 0
	u.candSel = -1
	if !u.playCandB.Disabled() {
		u.playCandB.Disable()
	}
	if had {
		u.candList.UnselectAll()
		u.wb.redrawBoard()
	}
}

// replyText is a row of the replies list: the move, its games and Black's
// win rate, its status and label.
func replyText(r engine.Rules, c session.Child) string {
	text := engine.MoveName(r, c.Move)
	if g := c.Games.Games; g > 0 {
		unit := "games"
		if g == 1 {
			unit = "game"
		}
		text += fmt.Sprintf("  %d %s", g, unit)
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

// gameText is a row of the Games pane: source, id, length, result.
func gameText(g session.GameInfo) string {
	res := "unfinished"
	switch g.Result {
	case engine.Black:
		res = "Black won"
	case engine.White:
		res = "White won"
	}
	return fmt.Sprintf("%s %s · %d turns · %s", g.Source, g.ExtID, g.Turns, res)
}

// showGames lists the games through the shown position (when the Games
// pane is shown and the list is another position's).
func (u *widgets) showGames() {
	if u.tabs.Selected() == nil || u.tabs.Selected().Text != "Games" {
		return
	}
	p := u.wb.s.Cursor().Position()
	if p == u.gamesPos {
		return
	}
	u.gamesPos, u.games, u.gamesTotal, u.gamesMore = p, nil, 0, true
	u.gamesL.SetText("Games: reading…")
	u.gamesList.Refresh()
	u.gamesList.ScrollToTop()
	u.wb.s.Cursor().LoadGames(0, gamesPage, func(gs []session.GameInfo, total int64) {
		if u.gamesPos != p {
			return
		}
		u.games, u.gamesTotal, u.gamesMore = gs, total, false
		u.gamesL.SetText(fmt.Sprintf("Games through this position: %d", total))
		u.gamesList.Refresh()
	})
}

// moreGames reads the next page of games.
func (u *widgets) moreGames() {
	if u.gamesMore {
		return
	}
	p, n := u.gamesPos, len(u.games)
	u.gamesMore = true
	u.wb.s.Cursor().LoadGames(n, gamesPage, func(gs []session.GameInfo, total int64) {
		if u.gamesPos != p || len(u.games) != n {
			return
		}
		u.games, u.gamesTotal, u.gamesMore = append(u.games, gs...), total, false
		u.gamesList.Refresh()
	})
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

// moverName is "B" or "W" for the i-th turn (0-based).
func moverName(r engine.Rules, i int) string {
	if i%2 == 0 {
		return "B"
	}
	return "W"
}

// update shows the workbench's state.
func (u *widgets) update() {
	wb := u.wb
	st := wb.s.Cursor().Info().Status
	side := colourName(wb.s.Cursor().Position().ToMove())
	text := fmt.Sprintf("Turn %d · %s to move · %s for %s · %d stored replies", wb.s.Cursor().Position().Turn()+1, side,
		st, colourName(wb.s.Cursor().Attacker()), len(wb.s.Cursor().Children()))
	if w := wb.s.Cursor().Position().Winner(); w != engine.Empty {
		text = fmt.Sprintf("Turn %d · %s has won", wb.s.Cursor().Position().Turn(), colourName(w))
	}
	if !wb.s.Cursor().Info().Found && wb.s.Cursor().Cur() > 0 {
		text += " · not in the book"
	}
	if warn := wb.s.Cursor().Info().Warning; warn != "" {
		text = warn + " · " + text
	}
	editable := wb.s.ReadOnly() == ""
	if !editable {
		text = "Read-only (" + wb.s.ReadOnly() + ") · " + text
	}
	u.statusL.SetText(text)
	if st == c6book.StatusDisproved {
		setButton(u.disproveB, "Clear disproved", editable)
	} else {
		setButton(u.disproveB, "Mark disproved", editable)
	}
	if d := wb.History().CanUndo(); d != "" && editable {
		setButton(u.undoB, "Undo "+d, true)
	} else {
		setButton(u.undoB, "Undo", false)
	}
	u.setEditable(editable)
	u.lineList.Refresh()
	u.lineList.ScrollTo(wb.s.Cursor().Cur())
	u.kidsL.SetText(fmt.Sprintf("Replies (%d)", len(wb.s.Cursor().Children())))
	u.kidList.Refresh()
	if p := wb.s.Cursor().Position(); p != u.kidsPos {
		// A new position (a reload of the same one, as the auto-pilot's
		// verdicts land, keeps the place).
		u.kidsPos = p
		u.kidList.ScrollToTop()
	}

	// Notes follow the position, but never overwrite typing in place.
	// (Once the book has answered for a new position; a reload of the same
	// one after an edit leaves them alone.)
	if p := wb.s.Cursor().Position(); wb.s.Cursor().Loaded() && (p != u.notesPos || !wb.s.Cursor().Info().Found) && !wb.s.Notes().Pending() {
		u.notesPos = p
		u.filling = true
		u.labelE.SetText(wb.s.Cursor().Info().Label)
		u.commentE.SetText(wb.s.Cursor().Info().Comment)
		u.filling = false
	}
	u.showGames()
	u.showVerify()
	if !wb.s.Prover().Suggesting() {
		u.showCandidates()
	}
}

// showVerify shows the verifier's state: its progress while it runs, then
// what it left to say, else the shown position's verdict.
func (u *widgets) showVerify() {
	s := u.wb.s
	if j := s.Prover().VerifyJob(); j != nil {
		u.verifyB.Disable()
		u.stopB.Enable()
		if u.progress.Hidden {
			u.progress.SetValue(0)
			u.setShown(u.progress, true)
			u.progressL.SetText("verifying…")
			u.verdictL.SetText("")
		}
		if p := j.Progress(); p.Text != "" {
			u.progressL.SetText(u.verifyingWhat() + p.Text)
		} else if p.Phase != "" {
			u.showProgress(p)
		} else {
			u.progressL.SetText(u.verifyingWhat() + "starting…")
		}
		u.setShown(u.goVerifyB, s.Prover().VerifyElsewhere())
		return
	}
	u.setShown(u.goVerifyB, false)
	u.enableVerify()
	if !s.Prover().Suggesting() {
		u.stopB.Disable()
	}
	if !u.progress.Hidden {
		u.progress.SetValue(1)
		u.setShown(u.progress, false)
		u.progressL.SetText("")
	}
	if t := s.Prover().VerifyText(); t != "" {
		u.verdictL.SetText(t)
		return
	}
	u.showVerdict(s.Cursor().Verdict())
}

func (u *widgets) showVerdict(v *c6book.Verdict) {
	if v == nil {
		u.unsolved = nil
		text := "No verdict for this position."
		if why := u.verifyBlocked(); why != "" {
			text += " Verify is disabled: " + why + "."
		}
		u.verdictL.SetText(text)
		u.unsolvedL.Refresh()
		return
	}
	// The expert's work list: unsolved moves, then (λ3) open seminull
	// positions, which are one-stone moves.
	u.unsolved = v.Items()
	u.why = make(map[engine.Move]string, len(v.Unsolved))
	for _, it := range v.Unsolved {
		u.why[it.Move] = it.Why()
	}
	var sb strings.Builder
	if v.Proved() {
		fmt.Fprintf(&sb, "PROVED for %s (order %d)", colourName(v.Attacker), v.Order)
	} else {
		if v.AllUnsolved {
			// The reason (null move not refuted, or the defender makes six
			// at once) is the verdict's note, shown below.
			fmt.Fprintf(&sb, "OPEN for %s: every defender move is unsolved", colourName(v.Attacker))
			if v.Note == "" {
				sb.WriteString(" (the null move is not refuted)")
			}
		} else {
			fmt.Fprintf(&sb, "OPEN for %s: %d unsolved defender moves", colourName(v.Attacker), len(v.Unsolved))
		}
		if len(v.OpenSeminull) > 0 {
			fmt.Fprintf(&sb, ", %d open seminull positions", len(v.OpenSeminull))
		}
	}
	lam := v.Lambda
	if lam == 0 {
		lam = 2
	}
	fmt.Fprintf(&sb, "\nλ%d · %d solver calls · %d nodes · %s", lam, v.Calls, v.Nodes, v.Elapsed().Round(time.Millisecond))
	if v.Note != "" {
		sb.WriteString("\n" + v.Note)
	}
	u.verdictL.SetText(sb.String())
	u.unsolvedL.Refresh()
}

// setShown shows or hides o, one of the Prove tab's controls, and lays the
// tab out again when that changed (a container keeps the places it gave its
// objects until then).
func (u *widgets) setShown(o fyne.CanvasObject, on bool) {
	if o.Visible() == on {
		return
	}
	if on {
		o.Show()
	} else {
		o.Hide()
	}
	u.proveHead.Refresh()
}

func (u *widgets) setVerdictText(s string) { u.verdictL.SetText(s) }

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

// showSuggest shows the candidate search or the player: running (its
// latest progress), or its answer.
func (u *widgets) showSuggest() {
	s := u.wb.s
	u.showPlayText()
	if s.Prover().Suggesting() {
		u.suggestB.Disable()
		u.engineB.Disable()
		u.stopB.Enable()
		text := "Engine candidates: searching…"
		if run, move := s.Prover().Thinking(); run && move {
			text = "Engine move: thinking…"
		}
		if u.candL.Text != text {
			u.candL.SetText(text)
		}
		return
	}
	if !s.Prover().Running() {
		u.stopB.Disable()
	}
	u.showCandidates()
}

// showPlayText shows what the player has to say about the shown position.
func (u *widgets) showPlayText() {
	t := u.wb.s.Prover().PlayText()
	if u.playL.Text != t {
		u.playL.SetText(t)
	}
	if on := t != ""; u.playL.Visible() != on {
		if on {
			u.playL.Show()
		} else {
			u.playL.Hide()
		}
		u.candHead.Refresh()
	}
}

// verifyBlocked says why Verify cannot run on the shown position ("" when
// it can): the verifier proves a win for the side that has just moved, so
// the defender must be to move.
func (u *widgets) verifyBlocked() string {
	s := u.wb.s
	p := s.Cursor().Position()
	switch {
	case p.Winner() != engine.Empty:
		return "the game is over"
	case p.ToMove() == s.Cursor().Attacker():
		return fmt.Sprintf("it proves a win for the side that has just moved, and the attacker (%s) is to move",
			colourName(s.Cursor().Attacker()))
	}
	return ""
}

// enableVerify enables Verify where it can run (a writable book, the
// defender to move, no verification running) and disables it elsewhere.
func (u *widgets) enableVerify() {
	s := u.wb.s
	on := s.ReadOnly() == "" && u.verifyBlocked() == "" && s.Prover().VerifyJob() == nil
	if on && u.verifyB.Disabled() {
		u.verifyB.Enable()
	} else if !on && !u.verifyB.Disabled() {
		u.verifyB.Disable()
	}
}

// suggestBlocked says why Suggest cannot run on the shown position ("" when
// it can): it proposes moves for the attacker, on the attacker's turn.
func (u *widgets) suggestBlocked() string {
	s := u.wb.s
	p := s.Cursor().Position()
	switch {
	case p.Winner() != engine.Empty:
		return "the game is over"
	case p.ToMove() != s.Cursor().Attacker():
		return fmt.Sprintf("it proposes moves for the attacker (%s), and %s is to move",
			colourName(s.Cursor().Attacker()), colourName(p.ToMove()))
	}
	return ""
}

// showCandidates shows the candidates of the shown position and whether
// Suggest can run (the candidate search not running).
func (u *widgets) showCandidates() {
	cs, ok := u.wb.s.Prover().Candidates()
	if !sameCandidates(cs, u.shownCands) {
		u.shownCands = cs
		u.clearCandidate()
		u.candList.Refresh()
	}
	why := u.suggestBlocked()
	text, note := "Engine candidates", ""
	switch {
	case ok:
		text = fmt.Sprintf("Engine candidates (%d)", len(cs))
		if len(cs) == 0 {
			note = "The threat search found no move that makes a threat here."
		}
	case why != "":
		note = "Suggest is disabled: " + why + "."
	default:
		note = "Suggest asks the engine for attacker moves. A click on one shows it on the board; Play or a double click plays it."
	}
	if u.candL.Text != text {
		u.candL.SetText(text)
	}
	if u.candNote.Text != note {
		u.candNote.SetText(note)
	}
	if why != "" && !u.suggestB.Disabled() {
		u.suggestB.Disable()
	} else if why == "" && u.suggestB.Disabled() {
		u.suggestB.Enable()
	}
	u.showPlayText()
	engineOn := u.wb.s.Prover().HasPlayer() && session.NoMove(u.wb.s.Cursor().Position()) == ""
	if engineOn && u.engineB.Disabled() {
		u.engineB.Enable()
	} else if !engineOn && !u.engineB.Disabled() {
		u.engineB.Disable()
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

func (u *widgets) showProgress(p session.Progress) {
	if p.Total > 0 {
		u.progress.SetValue(float64(p.Done) / float64(p.Total))
	}
	u.progressL.SetText(u.verifyingWhat() + fmt.Sprintf("%s: %d/%d solver calls · %d nodes · %s", p.Phase, p.Done, p.Total, p.Nodes,
		p.Elapsed.Round(100*time.Millisecond)))
}

// verifyingWhat names the position being verified: "Verifying … 3. k9l9
// 4. m10m11: " (its last turns).
func (u *widgets) verifyingWhat() string {
	line := u.wb.s.Prover().VerifyLine()
	if len(line) == 0 {
		return "Verifying the empty board: "
	}
	r, start, prefix := u.wb.s.Rules(), max(len(line)-4, 0), ""
	if start > 0 {
		prefix = "… "
	}
	parts := make([]string, 0, len(line)-start)
	for i := start; i < len(line); i++ {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, engine.MoveName(r, line[i])))
	}
	return "Verifying " + prefix + strings.Join(parts, " ") + ": "
}

func (u *widgets) setSearch(es []session.Entry) {
	u.searchRes = es
	u.searchList.Refresh()
}

func (u *widgets) setSolved(es []session.Entry) {
	u.solvedRes = es
	u.solvedList.Refresh()
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
