package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine"
)

// boardPanel is the board with its toolbar (navigation, Undo, move numbers,
// square labels) and the status line under it.
type boardPanel struct {
	wb      *Workbench
	box     fyne.CanvasObject
	board   *Board
	statusL *widget.Label
	numbers *widget.Check
	marking *widget.Check
	undoB   *widget.Button
}

func newBoardPanel(wb *Workbench) *boardPanel {
	bp := &boardPanel{wb: wb}
	bp.board = NewBoard(engine.MustNewBoard(engine.Connect6()))
	bp.board.onSquare = func(s engine.Square) { wb.Cursor().TapSquare(s) }
	bp.board.onKey = func(ev *fyne.KeyEvent) { wb.typedKey(ev) }

	bp.statusL = widget.NewLabel("")
	bp.statusL.Truncation = fyne.TextTruncateEllipsis // a long line never widens the window
	bp.numbers = widget.NewCheck("Numbers", func(on bool) {
		if on != wb.numbers {
			wb.setNumbers(on)
		}
	})
	bp.numbers.SetChecked(true)
	bp.marking = widget.NewCheck("Label squares", func(on bool) { wb.s.Cursor().SetMarking(on) })
	bp.undoB = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), wb.History().Undo)
	tools := container.NewHBox(
		widget.NewButtonWithIcon("", theme.MediaSkipPreviousIcon(), wb.Cursor().Home),
		widget.NewButtonWithIcon("", theme.NavigateBackIcon(), wb.Cursor().Back),
		widget.NewButtonWithIcon("", theme.NavigateNextIcon(), wb.Cursor().Forward),
		widget.NewButtonWithIcon("", theme.MediaSkipNextIcon(), wb.Cursor().End),
		bp.undoB, bp.numbers, bp.marking,
	)
	left := container.NewBorder(tools, bp.statusL, nil, nil, bp.board)
	bp.box = left
	return bp
}

// show renders the status line and Undo (editable: the book can be
// written).
func (bp *boardPanel) show(editable bool) {
	c := bp.wb.s.Cursor()
	st := c.Info().Status
	side := colourName(c.Position().ToMove())
	text := fmt.Sprintf("Turn %d · %s to move · %s for %s · %d stored replies", c.Position().Turn()+1, side,
		st, colourName(c.Attacker()), len(c.Children()))
	if w := c.Position().Winner(); w != engine.Empty {
		text = fmt.Sprintf("Turn %d · %s has won", c.Position().Turn(), colourName(w))
	}
	if !c.Info().Found && c.Cur() > 0 {
		text += " · not in the book"
	}
	if warn := c.Info().Warning; warn != "" {
		text = warn + " · " + text
	}
	if !editable {
		text = "Read-only (" + bp.wb.s.ReadOnly() + ") · " + text
	}
	bp.statusL.SetText(text)
	if d := bp.wb.s.History().CanUndo(); d != "" && editable {
		setButton(bp.undoB, "Undo "+d, true)
	} else {
		setButton(bp.undoB, "Undo", false)
	}
}
