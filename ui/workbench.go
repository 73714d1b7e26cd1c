package ui

import (
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"

	"c6book/engine/game"
	"c6book/session"
)

// Workbench is the whole working area: the board, the book tree, the proving
// panel, notes, search and the solved browser, each a panel (widgets.go).
// The model is a session.Session, whose parts the workbench exposes
// (Cursor, Prover, History, Notes) rather than forwarding them; its own
// methods are those that also set a widget. All its methods run on the UI
// goroutine.
type Workbench struct {
	s   *session.Session
	win fyne.Window

	// OnError reports an error to the user (an error dialog by default).
	OnError func(error)
	// OnChanged is called after the position or the book changed (the app
	// updates its title).
	OnChanged func()

	numbers bool // move numbers on the board
	// filter chooses the replies the board and the Replies list show
	// (replyfilter.go); OnReplyFilter is told when the user changes it
	// (the app remembers it in the preferences).
	filter        ReplyFilter
	OnReplyFilter func(ReplyFilter)

	ui *widgets
	// lastMenu is the right-click menu shown last (menus.go).
	lastMenu *fyne.Menu
}

// NewWorkbenchConfig builds the workbench over store, showing its root,
// with the session's Config (the app: Do is fyne.Do; tests deliver
// background results through a queue they drain, and may run book calls
// inline). win is used for dialogs (may be nil in tests that set OnError).
// It fails only if the store's rules are not playable.
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

// Session is the model the workbench shows: the book, its jobs and its
// parts (below).
func (wb *Workbench) Session() *session.Session { return wb.s }

// Cursor is the session's line, cursor and what the book knows about them.
func (wb *Workbench) Cursor() *session.Cursor { return wb.s.Cursor() }

// Prover is the session's verifier, engine player and auto-pilot.
func (wb *Workbench) Prover() *session.Prover { return wb.s.Prover() }

// History is the session's undo stack and edits.
func (wb *Workbench) History() *session.History { return wb.s.History() }

// Notes are the session's notes typed for the shown position.
func (wb *Workbench) Notes() *session.Notes { return wb.s.Notes() }

func (wb *Workbench) showError(err error) {
	if wb.win != nil {
		dialog.ShowError(err, wb.win)
	}
}

// render shows what changed.
func (wb *Workbench) render(c session.Change) {
	wb.releaseFocus() // a radio item clicked again (no change) keeps the focus until a change
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
	if c&(session.ChangeProof|session.ChangePosition) != 0 {
		wb.ui.proof.show() // (proofpanel.go)
	}
	if c&(session.ChangeAuto|session.ChangeVerify|session.ChangePosition) != 0 {
		wb.ui.summary.show() // (another book: its summary is gone)
	}
}

// Content is the workbench's canvas object.
func (wb *Workbench) Content() fyne.CanvasObject { return wb.ui.content }

// BoardWidget is the board.
func (wb *Workbench) BoardWidget() *Board { return wb.ui.board }

// SetAttacker chooses the attacker.
func (wb *Workbench) SetAttacker(c game.Color) {
	wb.ui.attacker.SetSelected(colourName(c))
	wb.s.Cursor().SetAttacker(c)
}

// SetLambda chooses λ2 or λ3 for Verify.
func (wb *Workbench) SetLambda(l int) {
	wb.s.Prover().SetLambda(l)
	wb.ui.lambda.SetSelected(fmt.Sprintf("λ%d", l))
}

// setNumbers shows or hides move numbers.
func (wb *Workbench) setNumbers(on bool) {
	wb.numbers = on
	wb.ui.numbers.SetChecked(on)
	wb.redrawBoard()
}

// SetReplyFilter chooses the stored replies the board marks and the
// Replies list shows (the letters stay those of the full list).
func (wb *Workbench) SetReplyFilter(f ReplyFilter) {
	wb.filter = f
	wb.ui.filterS.SetSelected(f.label())
	wb.redrawBoard()
	wb.ui.linePanel.show()
}

// ReplyFilter is the filter SetReplyFilter chose.
func (wb *Workbench) ReplyFilter() ReplyFilter { return wb.filter }

// hiddenReplies is which of the shown position's replies the filter
// hides (BoardView.Hide).
func (wb *Workbench) hiddenReplies() []bool {
	c := wb.s.Cursor()
	var next game.Move
	has := c.Cur() < c.LineLen()
	if has {
		next = c.LineMove(c.Cur())
	}
	return hiddenReplies(wb.filter, c.Children(), next, has)
}

// SetMarking makes taps label squares (A, B, C…) instead of playing.
func (wb *Workbench) SetMarking(on bool) {
	wb.s.Cursor().SetMarking(on)
	wb.ui.marking.SetChecked(wb.s.Cursor().Marking())
}

func (wb *Workbench) boardView() BoardView {
	if v, ok := wb.proofView(); ok { // a proof step shown (proofpanel.go)
		return v
	}
	c := wb.s.Cursor()
	info := c.Info()
	info.Verdict = c.Verdict() // the verdict shown (a fresh one before it is stored)
	v := ViewOf(session.PictureOf(c.Position(), info, c.Children(), true), wb.numbers)
	v.Pending = c.Pending()
	v.Hide = wb.hiddenReplies()
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

// typedKey handles the keys of the board and of the window when nothing
// has the focus: the navigation keys (keys.go).
func (wb *Workbench) typedKey(ev *fyne.KeyEvent) { wb.navKey(ev) }

// Attach installs the keyboard handling and the undo and engine move
// shortcuts on a window.
func (wb *Workbench) Attach(w fyne.Window) {
	w.Canvas().SetOnTypedKey(answerDialogKeys(w.Canvas(), wb.typedKey)) // (dialogs: Enter and Esc, dialogkeys.go)
	w.Canvas().AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { wb.s.History().Undo() })
	for _, sc := range RedoShortcuts() { // Redo, copy and paste a line (linetext.go)
		w.Canvas().AddShortcut(sc, func(fyne.Shortcut) { wb.s.History().Redo() })
	}
	w.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { wb.CopyLine() })
	w.Canvas().AddShortcut(&fyne.ShortcutPaste{}, func(fyne.Shortcut) { wb.PasteLine() })
	w.Canvas().AddShortcut(EngineMoveShortcut(), func(fyne.Shortcut) { wb.s.Prover().PlayEngineMove() })
}

// EngineMoveShortcut is Play engine move's key (Ctrl+E; ⌘E on a Mac), for
// the menu to show.
func EngineMoveShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
}

// SetPlayBudget sets the engine player's time for a move (Suggest, Play
// engine move); the select next to Suggest shows it when it is one of its
// choices.
func (wb *Workbench) SetPlayBudget(d time.Duration) {
	wb.s.Prover().SetPlayBudget(d)
	if name := budgetName(wb.s.Prover().PlayBudget()); slices.Contains(wb.ui.budgetS.Options, name) {
		wb.ui.budgetS.SetSelected(name)
	}
}

// Search finds positions whose comment matches query (shown in the Search
// tab when the book answers).
func (wb *Workbench) Search(query string) { wb.s.Cursor().Search(query, wb.ui.setSearch) }

// SearchResults are the positions the last search found.
func (wb *Workbench) SearchResults() []session.Entry {
	return append([]session.Entry(nil), wb.ui.searchRes...)
}

// LoadSolved lists the proved positions for the attacker (in the Solved
// tab when the book answers).
func (wb *Workbench) LoadSolved() { wb.s.Cursor().LoadSolved(wb.ui.setSolved) }

// SetSolvedMinOrder lists in the Solved tab only the proofs of λ order at
// least n (0 adds the game ends) and reloads it.
func (wb *Workbench) SetSolvedMinOrder(n int) {
	wb.s.Cursor().SetSolvedMinOrder(n)
	wb.LoadSolved()
}

// Solved are the proved positions listed.
func (wb *Workbench) Solved() []session.Entry {
	return append([]session.Entry(nil), wb.ui.solvedRes...)
}

func colourName(c game.Color) string { return session.ColourName(c) }
