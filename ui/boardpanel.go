package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// boardPanel is the board with its toolbar (navigation, Undo, move numbers,
// square labels) and the status line under it.
type boardPanel struct {
	wb      *Workbench
	box     fyne.CanvasObject
	board   *Board
	statusL *widget.Label
	// statsL is the games through the position by result, or the hovered
	// reply's row (replies.go); helpB says what undecided means.
	statsL  *widget.Label
	helpB   *widget.Button
	hovered int // the reply statsL shows, -1 for the position
	numbers *keyCheck
	marking *keyCheck
	undoB   *widget.Button
	// undoL says what Undo takes back, cut to the room left (a long one
	// never widens the toolbar over its neighbours).
	undoL *widget.Label
	// filterS chooses the replies shown (Workbench.SetReplyFilter).
	filterS *keySelect
}

func newBoardPanel(wb *Workbench) *boardPanel {
	bp := &boardPanel{wb: wb, hovered: -1}
	bp.board = NewBoard(board.MustNewBoard(game.Connect6()))
	bp.board.onSquare = func(s game.Square) {
		if wb.s.ProofShown() != nil {
			wb.s.CloseProof() // a tap while a proof is shown goes back to the position
			return
		}
		wb.Cursor().TapSquare(s)
	}
	bp.board.onKey = func(ev *fyne.KeyEvent) { wb.typedKey(ev) }
	bp.board.onMenu = func(s game.Square, abs fyne.Position) { wb.showMenu(wb.boardMenu(s), abs) }
	bp.board.onReplyFocus = func(i int) {
		bp.showHover(i)
		if wb.ui != nil {
			wb.ui.showReplyFocus(i)
		}
	}

	bp.statusL = widget.NewLabel("")
	bp.statusL.Truncation = fyne.TextTruncateEllipsis // a long line never widens the window
	bp.statsL = widget.NewLabel("")
	bp.statsL.Truncation = fyne.TextTruncateEllipsis
	bp.helpB = widget.NewButtonWithIcon("", theme.QuestionIcon(), bp.showUndecidedHelp)
	bp.helpB.Importance = widget.LowImportance
	bp.numbers = wb.newCheck("Numbers", func(on bool) {
		if on != wb.numbers {
			wb.setNumbers(on)
		}
	})
	bp.numbers.SetChecked(true)
	bp.marking = wb.newCheck("Label squares", func(on bool) { wb.s.Cursor().SetMarking(on) })
	bp.undoB = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), wb.History().Undo)
	bp.undoL = widget.NewLabel("")
	bp.undoL.Truncation = fyne.TextTruncateEllipsis
	var labels []string
	for _, f := range replyFilters {
		labels = append(labels, f.label())
	}
	bp.filterS = wb.newSelect(labels, func(l string) {
		for _, f := range replyFilters {
			if f.label() == l && f != wb.filter {
				wb.SetReplyFilter(f)
				if wb.OnReplyFilter != nil {
					wb.OnReplyFilter(f)
				}
			}
		}
	})
	bp.filterS.SetSelected(ReplyFilter{}.label())
	tools := container.NewBorder(nil, nil, container.NewHBox(
		widget.NewButtonWithIcon("", theme.MediaSkipPreviousIcon(), wb.Cursor().Home),
		widget.NewButtonWithIcon("", theme.NavigateBackIcon(), wb.Cursor().Back),
		widget.NewButtonWithIcon("", theme.NavigateNextIcon(), wb.Cursor().Forward),
		widget.NewButtonWithIcon("", theme.MediaSkipNextIcon(), wb.Cursor().End),
		bp.undoB), container.NewHBox(bp.numbers, bp.marking), bp.undoL)
	// The replies filter sits at the end of the stats line: the toolbar
	// keeps the window narrower than 1280 px. The stats line has two lines
	// (games by result; rate and status) to fit beside it, and is always as
	// tall: hovering a reply never moves the board.
	twoLines := canvas.NewRectangle(color.Transparent)
	twoLines.SetMinSize(fyne.NewSize(0, widget.NewLabel("1\n2").MinSize().Height))
	status := container.NewVBox(
		bp.statusL,
		container.NewBorder(nil, nil, nil, container.NewCenter(container.NewHBox(bp.filterS, bp.helpB)), container.NewStack(twoLines, bp.statsL)))
	left := container.NewBorder(tools, status, nil, nil, bp.board)
	bp.box = left
	return bp
}

// show renders the status line and Undo (editable: the book can be
// written).
func (bp *boardPanel) show(editable bool) {
	c := bp.wb.s.Cursor()
	st := c.Info().Status
	side := colourName(c.Position().ToMove())
	text := fmt.Sprintf("Turn %d · %s to move · %s for %s · %s", c.Position().Turn()+1, side,
		st, colourName(c.Attacker()), session.Plural(len(c.Children()), "stored reply", "stored replies"))
	if !c.Loaded() {
		// The book's answer is on its way: no status, count or "not in the
		// book" it has not given (a stored position read as unknown).
		text = fmt.Sprintf("Turn %d · %s to move · reading the book…", c.Position().Turn()+1, side)
	}
	if w := c.Position().Winner(); w != game.Empty {
		text = fmt.Sprintf("Turn %d · %s has won", c.Position().Turn(), colourName(w))
	}
	if c.Loaded() && !c.Info().Found && c.Cur() > 0 {
		text += " · not in the book"
	}
	if warn := c.Info().Warning; warn != "" {
		text = warn + " · " + text
	}
	if !editable {
		text = "Read-only (" + bp.wb.s.ReadOnly() + ") · " + text
	}
	bp.statusL.SetText(text)
	bp.hovered = -2 // (shown again)
	bp.showHover(bp.board.focusedReply())
	d := bp.wb.s.History().CanUndo()
	if !editable {
		d = ""
	}
	setButton(bp.undoB, "Undo", d != "")
	if bp.undoL.Text != d {
		bp.undoL.SetText(d)
	}
}

// positionStatsText is the stats line of a position, two lines: its games
// by result; Black's share of the decided ones.
func positionStatsText(g c6book.GameStats) string {
	if g.Games == 0 {
		return "No imported game reached this position"
	}
	return "This position: " + statsText(g) + "\n" + rateText(g)
}

// showHover shows reply i's row in the stats line while the board ties
// and previews it, the position's games again when i < 0.
func (bp *boardPanel) showHover(i int) {
	kids := bp.wb.s.Cursor().Children()
	if i < 0 || i >= len(kids) {
		i = -1
	}
	if i == bp.hovered {
		return
	}
	bp.hovered = i
	if i < 0 {
		bp.statsL.SetText(positionStatsText(bp.wb.s.Cursor().Info().Games))
		return
	}
	bp.statsL.SetText(replyHoverText(bp.wb.s.Cursor().MoveText(kids[i].Move), i, kids[i]))
}

// hoverReply ties and previews reply i on the board, its row in the stats
// line (-1: none), as hovering its row does.
func (wb *Workbench) hoverReply(i int) { wb.ui.board.setReplyFocus(i) }

// showUndecidedHelp says what the stats line's numbers count.
func (bp *boardPanel) showUndecidedHelp() {
	if bp.wb.win != nil {
		dialog.ShowInformation("Game statistics", undecidedHelp, bp.wb.win)
	}
}

// UndoText is what the toolbar says Undo takes back ("" when nothing).
func (wb *Workbench) UndoText() string { return wb.ui.undoL.Text }
