package ui

import (
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"

	"c6book"
	"c6book/engine"
	"c6book/session"
)

// Workbench is the whole working area: the board, the book tree, the proving
// panel, notes, search and the solved browser. The model is a
// session.Session (line, cursor, undo, caches, jobs, every book call off
// the UI goroutine); the workbench only renders it and turns input into
// its calls. All its methods run on the UI goroutine.
type Workbench struct {
	s   *session.Session
	win fyne.Window

	// OnError reports an error to the user (an error dialog by default).
	OnError func(error)
	// OnChanged is called after the position or the book changed (the app
	// updates its title).
	OnChanged func()

	numbers bool // move numbers on the board

	ui *widgets
}

// NewWorkbench builds the workbench over store, showing its root. win is used
// for dialogs (may be nil in tests that set OnError). It fails only if the
// store's rules are not playable.
func NewWorkbench(store session.BookStore, verifier session.Verifier, win fyne.Window) (*Workbench, error) {
	return NewWorkbenchConfig(store, verifier, win, session.Config{Do: fyne.Do})
}

// NewWorkbenchConfig is NewWorkbench with the session's Config: tests
// deliver background results through a queue they drain, and may run book
// calls inline.
func NewWorkbenchConfig(store session.BookStore, verifier session.Verifier, win fyne.Window, cfg session.Config) (*Workbench, error) {
	wb := &Workbench{win: win, numbers: true}
	wb.OnError = wb.showError
	s, err := session.New(store, verifier, cfg)
	if err != nil {
		return nil, err
	}
	wb.s = s
	wb.ui = newWidgets(wb)
	s.OnError = func(err error) {
		if wb.OnError != nil {
			wb.OnError(err)
		}
	}
	s.OnChange = wb.render
	wb.render(session.ChangePosition | session.ChangeVerify | session.ChangeAuto)
	return wb, nil
}

// Session is the model the workbench shows.
func (wb *Workbench) Session() *session.Session { return wb.s }

func (wb *Workbench) showError(err error) {
	if wb.win != nil {
		dialog.ShowError(err, wb.win)
	}
}

// render shows what changed.
func (wb *Workbench) render(c session.Change) {
	if c&(session.ChangeBoard|session.ChangePosition) != 0 {
		wb.redrawBoard()
	}
	if c&session.ChangePosition != 0 {
		wb.ui.update()
		if wb.OnChanged != nil {
			wb.OnChanged()
		}
	}
	if c&session.ChangeVerify != 0 {
		wb.ui.showVerify()
	}
	if c&session.ChangeCandidates != 0 {
		wb.ui.showSuggest()
	}
	if c&(session.ChangeAuto|session.ChangePosition) != 0 {
		wb.ui.auto.show()
	}
}

// SetStore switches to another book and shows its root. A book whose rules
// the engine cannot play is refused (the current one stays). A running
// verification is cancelled and waited for: the old book may be closed
// when SetStore returns.
func (wb *Workbench) SetStore(store session.BookStore) error {
	return wb.s.SetStore(store)
}

// Close stops the jobs and waits for them and for the book calls.
func (wb *Workbench) Close() { wb.s.Close() }

// Reload shows the current line again with fresh data from the book (after
// an import, for instance).
func (wb *Workbench) Reload() { wb.s.Reload() }

// Store returns the book shown.
func (wb *Workbench) Store() session.BookStore { return wb.s.Store() }

// ReadOnly says why the book shown cannot be written ("" when it can).
func (wb *Workbench) ReadOnly() string { return wb.s.ReadOnly() }

// Content is the workbench's canvas object.
func (wb *Workbench) Content() fyne.CanvasObject { return wb.ui.content }

// BoardWidget is the board.
func (wb *Workbench) BoardWidget() *Board { return wb.ui.board }

// Line returns the current line and how many of its moves are played.
func (wb *Workbench) Line() ([]engine.Move, int) { return wb.s.Line() }

// Position returns the shown position (do not modify it).
func (wb *Workbench) Position() *engine.Board { return wb.s.Position() }

// Children returns the stored moves out of the shown position.
func (wb *Workbench) Children() []session.Child {
	return append([]session.Child(nil), wb.s.Children()...)
}

// Info returns what the book knows about the shown position.
func (wb *Workbench) Info() session.Position { return wb.s.Info() }

// Pending is the first stone of a two-stone turn being entered.
func (wb *Workbench) Pending() engine.Square { return wb.s.Pending() }

// Verdict is the verdict shown for the current position, if any.
func (wb *Workbench) Verdict() *c6book.Verdict { return wb.s.Verdict() }

// Attacker is the attacker the statuses and the prover refer to.
func (wb *Workbench) Attacker() engine.Color { return wb.s.Attacker() }

// SetAttacker chooses the attacker.
func (wb *Workbench) SetAttacker(c engine.Color) {
	wb.ui.attacker.SetSelected(colourName(c))
	wb.s.SetAttacker(c)
}

// SetLambda chooses λ2 or λ3 for Verify.
func (wb *Workbench) SetLambda(l int) {
	wb.s.SetLambda(l)
	wb.ui.lambda.SetSelected(fmt.Sprintf("λ%d", l))
}

// SetNumbers shows or hides move numbers.
func (wb *Workbench) SetNumbers(on bool) {
	wb.numbers = on
	wb.ui.numbers.SetChecked(on)
	wb.redrawBoard()
}

// SetMarking makes taps label squares (A, B, C…) instead of playing.
func (wb *Workbench) SetMarking(on bool) {
	wb.s.SetMarking(on)
	wb.ui.marking.SetChecked(wb.s.Marking())
}

func (wb *Workbench) boardView() BoardView {
	s := wb.s
	v := BoardView{
		Pos:      s.Position(),
		Numbers:  wb.numbers,
		Pending:  s.Pending(),
		Children: s.Children(),
		Marks:    s.Info().Marks,
	}
	if vd := s.Verdict(); vd != nil {
		v.Unsolved = vd.Items()
		v.Zone = vd.NullZone
	}
	if m, ok := wb.ui.preview(); ok {
		for i := 0; i < m.Len(); i++ {
			v.Preview = append(v.Preview, m.At(i))
		}
	}
	if m, ok := wb.ui.previewReply(); ok {
		for i := 0; i < m.Len(); i++ {
			v.PreviewReply = append(v.PreviewReply, m.At(i))
		}
	}
	return v
}

func (wb *Workbench) redrawBoard() { wb.ui.board.SetView(wb.boardView()) }

// TapSquare is a tap on s: it plays (two taps for a two-stone turn), or
// labels the square in marking mode.
func (wb *Workbench) TapSquare(s engine.Square) { wb.s.TapSquare(s) }

// PlayMove plays m from the shown position, storing it in the book if it is
// new (an undoable edit), and shows the position after it.
func (wb *Workbench) PlayMove(m engine.Move) { wb.s.PlayMove(m) }

// Undo takes back the last edit (a pending stone first).
func (wb *Workbench) Undo() { wb.s.Undo() }

// CanUndo describes the edit Undo would take back ("" when none).
func (wb *Workbench) CanUndo() string { return wb.s.CanUndo() }

// Back goes one move back along the line.
func (wb *Workbench) Back() { wb.s.Back() }

// Forward goes one move forward along the line, or, at its end, into the
// most played stored reply.
func (wb *Workbench) Forward() { wb.s.Forward() }

// Home goes to the root, keeping the line.
func (wb *Workbench) Home() { wb.s.Home() }

// End goes to the end of the line.
func (wb *Workbench) End() { wb.s.End() }

// Sibling replaces the last move played by the previous (delta -1) or next
// (+1) stored alternative.
func (wb *Workbench) Sibling(delta int) { wb.s.Sibling(delta) }

// SelectChild plays the i-th stored child.
func (wb *Workbench) SelectChild(i int) { wb.s.SelectChild(i) }

// GoToLine shows the end of line (from the root).
func (wb *Workbench) GoToLine(line []engine.Move) { wb.s.GoToLine(line) }

// OpenEntry shows a position found by a query.
func (wb *Workbench) OpenEntry(e session.Entry) { wb.s.OpenEntry(e) }

// GoToPly shows the first i moves of the current line.
func (wb *Workbench) GoToPly(i int) { wb.s.GoToPly(i) }

// TypedKey handles navigation keys (board focus or window).
func (wb *Workbench) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyLeft:
		wb.s.Back()
	case fyne.KeyRight:
		wb.s.Forward()
	case fyne.KeyUp:
		wb.s.Sibling(-1)
	case fyne.KeyDown:
		wb.s.Sibling(+1)
	case fyne.KeyHome:
		wb.s.Home()
	case fyne.KeyEnd:
		wb.s.End()
	case fyne.KeyEscape:
		wb.s.DropPending()
	}
}

// Attach installs the keyboard handling and the undo and engine move
// shortcuts on a window.
func (wb *Workbench) Attach(w fyne.Window) {
	w.Canvas().SetOnTypedKey(wb.TypedKey)
	w.Canvas().AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { wb.Undo() })
	w.Canvas().AddShortcut(EngineMoveShortcut(), func(fyne.Shortcut) { wb.PlayEngineMove() })
}

// EngineMoveShortcut is Play engine move's key (Ctrl+E; ⌘E on a Mac), for
// the menu to show.
func EngineMoveShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
}

// PlayEngineMove plays the engine player's move for the side to move, once
// it has chosen it within the player's budget (off the UI goroutine; Stop
// cancels it): the line goes on with it as with a move the user plays, and
// Undo takes it back.
func (wb *Workbench) PlayEngineMove() { wb.s.PlayEngineMove() }

// PlayBudget is the engine player's time for a move.
func (wb *Workbench) PlayBudget() time.Duration { return wb.s.PlayBudget() }

// SetPlayBudget sets the engine player's time for a move (Suggest, Play
// engine move); the select next to Suggest shows it when it is one of its
// choices.
func (wb *Workbench) SetPlayBudget(d time.Duration) {
	wb.s.SetPlayBudget(d)
	if name := budgetName(wb.s.PlayBudget()); slices.Contains(wb.ui.budgetS.Options, name) {
		wb.ui.budgetS.SetSelected(name)
	}
}

// PlayText is what the engine player says about the shown position (its
// progress, or its answer summed up).
func (wb *Workbench) PlayText() string { return wb.s.PlayText() }

// SaveNotes stores the comment and the label of the shown position now
// (typing in the Notes tab stores them by itself, once it pauses).
func (wb *Workbench) SaveNotes(comment, label string) { wb.s.SaveNotes(comment, label) }

// ToggleDisproved marks the shown position as disproved for the attacker
// (the expert's judgement), or clears the mark.
func (wb *Workbench) ToggleDisproved() { wb.s.ToggleDisproved() }

// Verify starts the verifier on the shown position (the defender to move)
// off the UI goroutine; Stop cancels it. The verdict is stored in the book
// (unsolved moves become children) and shown when it arrives.
func (wb *Workbench) Verify() { wb.s.Verify() }

// Suggest asks the engine for attacker moves in the shown position (the
// attacker to move), off the UI goroutine within the player's budget; the
// ranked moves appear in the Prove tab with their scores and lines, where
// a click previews one and Play plays it.
func (wb *Workbench) Suggest() { wb.s.Suggest() }

// Suggesting reports whether the engine searches (Suggest, Engine move).
func (wb *Workbench) Suggesting() bool { return wb.s.Suggesting() }

// Candidates returns the engine's proposals for the shown position.
func (wb *Workbench) Candidates() []session.Candidate {
	cs, _ := wb.s.Candidates()
	return cs
}

// Running reports whether a verification is running.
func (wb *Workbench) Running() bool { return wb.s.Running() }

// Stop cancels the running verification and the engine's search
// (Suggest, Engine move).
func (wb *Workbench) Stop() { wb.s.Stop() }

// Next goes to the most-proving open position below the shown one, in the
// orientation of the user's line.
func (wb *Workbench) Next() { wb.s.Next() }

// Search finds positions whose comment matches query (shown in the Search
// tab when the book answers).
func (wb *Workbench) Search(query string) { wb.s.Search(query, wb.ui.setSearch) }

// SearchResults are the positions the last search found.
func (wb *Workbench) SearchResults() []session.Entry {
	return append([]session.Entry(nil), wb.ui.searchRes...)
}

// LoadSolved lists the proved positions for the attacker (in the Solved
// tab when the book answers).
func (wb *Workbench) LoadSolved() { wb.s.LoadSolved(wb.ui.setSolved) }

// SetSolvedMinOrder lists in the Solved tab only the proofs of λ order at
// least n (0 adds the game ends) and reloads it.
func (wb *Workbench) SetSolvedMinOrder(n int) {
	wb.s.SetSolvedMinOrder(n)
	wb.LoadSolved()
}

// Solved are the proved positions listed.
func (wb *Workbench) Solved() []session.Entry {
	return append([]session.Entry(nil), wb.ui.solvedRes...)
}

func colourName(c engine.Color) string { return session.ColourName(c) }
