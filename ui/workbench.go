package ui

import (
	"c6book"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"c6book/engine"
)

// Workbench is the whole working area: the board, the book tree, the proving
// panel, notes, search and the solved browser, over one book. All its
// methods run on the UI goroutine; long work (Verify) runs on its own
// goroutine and comes back through Do.
type Workbench struct {
	store    BookStore
	verifier Verifier
	win      fyne.Window

	// Do runs f on the UI goroutine (fyne.Do by default). Tests replace it
	// to drive background results deterministically.
	Do func(f func())
	// OnError reports an error to the user (an error dialog by default).
	OnError func(error)
	// OnChanged is called after the position or the book changed (the app
	// updates its title).
	OnChanged func()

	rules    engine.Rules
	readOnly string        // why the store cannot be written ("" when it can)
	empty    *engine.Board // the empty board, cloned for replays
	line     []engine.Move // the current line from the root; may go past cur
	cur      int           // moves of line played to reach pos
	pos      *engine.Board
	pending  engine.Square
	attacker engine.Color
	lambda   int
	numbers  bool
	marking  bool // taps put labels on squares instead of playing

	info     Position
	children []Child
	verdict  *c6book.Verdict          // verdict shown for the current position
	status   map[posKey]c6book.Status // cache of statuses along lines
	lineSt   []c6book.Status          // status after each prefix of line
	nkids    map[posKey]int           // stored replies of positions seen (for the line's variations)
	lineAlt  []int                    // stored replies of the position before each move of line (-1: unknown)
	undo     []edit

	job *verifyJob

	suggest    context.CancelFunc // running candidate search
	suggestKey posKey
	cands      []Candidate
	candsKey   posKey

	ui *widgets
}

type posKey struct {
	hash uint64
	side engine.Color
}

func keyOf(b *engine.Board) posKey { return posKey{b.Hash(), b.ToMove()} }

// edit is one undoable change to the book.
type edit struct {
	what     string // "move", "comment", "marks"
	line     []engine.Move
	move     engine.Move
	comment  string
	label    string
	marks    map[engine.Square]string
	describe string
}

type verifyJob struct {
	store  BookStore // the book the verdict goes to
	cancel context.CancelFunc
	key    posKey
	line   []engine.Move

	mu   sync.Mutex
	last Progress
	sent time.Time
}

// NewWorkbench builds the workbench over store, showing its root. win is used
// for dialogs (may be nil in tests that set OnError). It fails only if the
// store's rules are not playable.
func NewWorkbench(store BookStore, verifier Verifier, win fyne.Window) (*Workbench, error) {
	wb := &Workbench{
		verifier: verifier,
		win:      win,
		Do:       fyne.Do,
		pending:  engine.NoSquare,
		attacker: engine.Black,
		lambda:   2,
		numbers:  true,
	}
	wb.OnError = wb.showError
	wb.ui = newWidgets(wb)
	if err := wb.SetStore(store); err != nil {
		return nil, err
	}
	return wb, nil
}

func (wb *Workbench) showError(err error) {
	if wb.win != nil {
		dialog.ShowError(err, wb.win)
	}
}

func (wb *Workbench) fail(err error) {
	if err != nil && wb.OnError != nil {
		wb.OnError(err)
	}
}

// SetStore switches to another book and shows its root. A book whose rules
// the engine cannot play is refused (the current one stays).
func (wb *Workbench) SetStore(store BookStore) error {
	empty, err := engine.NewBoard(store.Rules())
	if err != nil {
		return fmt.Errorf("book rules %v: %w", store.Rules(), err)
	}
	wb.Stop()
	wb.store = store
	wb.readOnly = ""
	if ro, ok := store.(ReadOnlyStore); ok {
		wb.readOnly = ro.ReadOnly()
	}
	wb.rules = store.Rules()
	wb.empty = empty
	wb.undo = nil
	wb.line = nil
	wb.ui.board.SetView(BoardView{Pos: empty.Clone(), Pending: engine.NoSquare})
	wb.goTo(nil, 0)
	return nil
}

// Reload shows the current line again with fresh data from the book (after
// an import, for instance).
func (wb *Workbench) Reload() {
	wb.status = nil
	if _, err := replay(wb.empty, wb.line); err != nil {
		wb.line = wb.line[:wb.cur]
	}
	wb.goTo(wb.line, wb.cur)
}

// Store returns the book shown.
func (wb *Workbench) Store() BookStore { return wb.store }

// ReadOnly says why the book shown cannot be written ("" when it can).
func (wb *Workbench) ReadOnly() string { return wb.readOnly }

// refuseEdit reports (and returns true) when the book is read-only.
func (wb *Workbench) refuseEdit(what string) bool {
	if wb.readOnly == "" {
		return false
	}
	wb.fail(fmt.Errorf("%s: the book is read-only (%s)", what, wb.readOnly))
	return true
}

// Content is the workbench's canvas object.
func (wb *Workbench) Content() fyne.CanvasObject { return wb.ui.content }

// BoardWidget is the board.
func (wb *Workbench) BoardWidget() *Board { return wb.ui.board }

// Line returns the current line and how many of its moves are played.
func (wb *Workbench) Line() ([]engine.Move, int) {
	return append([]engine.Move(nil), wb.line...), wb.cur
}

// Position returns the shown position (do not modify it).
func (wb *Workbench) Position() *engine.Board { return wb.pos }

// Children returns the stored moves out of the shown position.
func (wb *Workbench) Children() []Child { return append([]Child(nil), wb.children...) }

// Info returns what the book knows about the shown position.
func (wb *Workbench) Info() Position { return wb.info }

// Pending is the first stone of a two-stone turn being entered.
func (wb *Workbench) Pending() engine.Square { return wb.pending }

// c6book.Verdict is the verdict shown for the current position, if any.
func (wb *Workbench) Verdict() *c6book.Verdict { return wb.verdict }

// Attacker is the attacker the statuses and the prover refer to.
func (wb *Workbench) Attacker() engine.Color { return wb.attacker }

// SetAttacker chooses the attacker.
func (wb *Workbench) SetAttacker(c engine.Color) {
	if c == wb.attacker {
		return
	}
	wb.attacker = c
	wb.ui.attacker.SetSelected(colourName(c))
	wb.status = nil
	wb.refresh(true)
}

// SetLambda chooses λ2 or λ3 for Verify.
func (wb *Workbench) SetLambda(l int) {
	wb.lambda = l
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
	wb.marking = on
	wb.ui.marking.SetChecked(on)
}

// goTo shows line[:cur].
func (wb *Workbench) goTo(line []engine.Move, cur int) {
	b, err := replay(wb.empty, line[:cur])
	if err != nil {
		wb.fail(fmt.Errorf("cannot show the line: %w", err))
		return
	}
	wb.line = append([]engine.Move(nil), line...)
	wb.cur = cur
	wb.pos = b
	wb.pending = engine.NoSquare
	wb.refresh(false)
}

// refresh reloads what the book knows about the shown position (one
// Position and one Children query) and redraws everything.
func (wb *Workbench) refresh(fullLine bool) {
	ctx := context.Background()
	info, err := wb.store.Position(ctx, wb.pos, wb.attacker)
	if err != nil {
		wb.fail(err)
	}
	ch, err := wb.store.Children(ctx, wb.pos, wb.attacker)
	if err != nil {
		wb.fail(err)
	}
	wb.info, wb.children = info, ch
	wb.verdict = info.Verdict
	if wb.status == nil {
		wb.status = map[posKey]c6book.Status{}
		wb.nkids = map[posKey]int{}
	}
	wb.nkids[keyOf(wb.pos)] = len(ch)
	wb.status[keyOf(wb.pos)] = info.Status
	// Statuses of the line's positions: the children list of each position
	// gives the status of the next one; fill only what is unknown.
	wb.fillLineStatus(ctx, fullLine)
	wb.redraw()
}

func (wb *Workbench) fillLineStatus(ctx context.Context, all bool) {
	b := wb.empty.Clone()
	wb.lineSt = wb.lineSt[:0]
	wb.lineAlt = wb.lineAlt[:0]
	for i := 0; i <= len(wb.line); i++ {
		k := keyOf(b)
		if n, ok := wb.nkids[k]; ok {
			wb.lineAlt = append(wb.lineAlt, n)
		} else {
			wb.lineAlt = append(wb.lineAlt, -1)
		}
		if _, ok := wb.status[k]; !ok || all && i != wb.cur {
			p, err := wb.store.Position(ctx, b, wb.attacker)
			if err != nil {
				// The rest of the line keeps the statuses it had.
				wb.fail(fmt.Errorf("reading the line's position %d: %w", i, err))
				return
			}
			wb.status[k] = p.Status
		}
		wb.lineSt = append(wb.lineSt, wb.status[k])
		if i == len(wb.line) {
			return
		}
		m := wb.line[i]
		var err error
		if m.Len() < wb.rules.StonesForTurn(b.Turn()) {
			err = b.PlayPartial(m)
		} else {
			err = b.Play(m)
		}
		if err != nil {
			wb.fail(fmt.Errorf("replaying the line's move %d: %w", i+1, err))
			return
		}
	}
}

// lineVariations is the number of stored moves, other than the line's, out
// of the position before move i (1-based) of the line; -1 when not known.
func (wb *Workbench) lineVariations(i int) int {
	if i >= 1 && i-1 < len(wb.lineAlt) && wb.lineAlt[i-1] > 0 {
		return wb.lineAlt[i-1] - 1
	}
	return -1
}

// lineStatus is the status of the position after the first i moves.
func (wb *Workbench) lineStatus(i int) c6book.Status {
	if i < len(wb.lineSt) {
		return wb.lineSt[i]
	}
	return c6book.StatusUnknown
}

func (wb *Workbench) boardView() BoardView {
	v := BoardView{
		Pos:      wb.pos,
		Numbers:  wb.numbers,
		Pending:  wb.pending,
		Children: wb.children,
		Marks:    wb.info.Marks,
	}
	if wb.verdict != nil {
		v.Unsolved = wb.verdict.Items()
		v.Zone = wb.verdict.NullZone
	}
	return v
}

func (wb *Workbench) redrawBoard() { wb.ui.board.SetView(wb.boardView()) }

func (wb *Workbench) redraw() {
	wb.redrawBoard()
	wb.ui.update()
	if wb.OnChanged != nil {
		wb.OnChanged()
	}
}

// TapSquare is a tap on s: it plays (two taps for a two-stone turn), or
// labels the square in marking mode.
func (wb *Workbench) TapSquare(s engine.Square) {
	if wb.marking {
		wb.toggleMark(s)
		return
	}
	if s == wb.pending {
		wb.pending = engine.NoSquare
		wb.redrawBoard()
		return
	}
	if wb.pos.At(s) != engine.Empty {
		return
	}
	if w := wb.pos.Winner(); w != engine.Empty {
		wb.fail(fmt.Errorf("the game is over: %s has won", colourName(w)))
		return
	}
	need := wb.rules.StonesForTurn(wb.pos.Turn())
	var m engine.Move
	switch {
	case need == 1:
		m = engine.NewMove(s)
	case wb.pending == engine.NoSquare:
		wb.pending = s
		wb.redrawBoard()
		return
	default:
		m = engine.NewMove(wb.pending, s)
	}
	wb.pending = engine.NoSquare
	wb.PlayMove(m)
}

// PlayMove plays m from the shown position, storing it in the book if it is
// new (an undoable edit), and shows the position after it.
func (wb *Workbench) PlayMove(m engine.Move) {
	partial := m.Len() < wb.rules.StonesForTurn(wb.pos.Turn())
	if err := wb.pos.Check(m, partial); err != nil {
		wb.fail(err)
		wb.redrawBoard()
		return
	}
	known := false
	for _, c := range wb.children {
		if c.Move == m {
			known = true
			break
		}
	}
	if !known && wb.readOnly == "" {
		// (A read-only book only shows the move: nothing is stored.)
		created, err := wb.store.AddMove(context.Background(), wb.pos, m)
		if err != nil {
			wb.fail(err)
			return
		}
		if created {
			wb.pushEdit(edit{what: "move", line: wb.prefix(), move: m,
				describe: "add " + engine.MoveName(wb.rules, m)})
			wb.status = nil // statuses above may change
		}
	}
	line := append(wb.prefix(), m)
	if wb.cur < len(wb.line) && wb.line[wb.cur] == m {
		line = wb.line // keep the rest of the line
	}
	wb.goTo(line, wb.cur+1)
}

func (wb *Workbench) prefix() []engine.Move {
	return append([]engine.Move(nil), wb.line[:wb.cur]...)
}

func (wb *Workbench) pushEdit(e edit) {
	wb.undo = append(wb.undo, e)
	if len(wb.undo) > 200 {
		wb.undo = wb.undo[1:]
	}
}

// Undo takes back the last edit (a pending stone first).
func (wb *Workbench) Undo() {
	if wb.pending != engine.NoSquare {
		wb.pending = engine.NoSquare
		wb.redrawBoard()
		return
	}
	if len(wb.undo) == 0 || wb.refuseEdit("undo") {
		return
	}
	e := wb.undo[len(wb.undo)-1]
	ctx := context.Background()
	b, err := replay(wb.empty, e.line)
	if err != nil {
		wb.fail(err)
		return
	}
	switch e.what {
	case "move":
		err = wb.store.RemoveMove(ctx, b, e.move)
	case "comment":
		err = wb.store.SetComment(ctx, b, e.comment)
		if err == nil {
			err = wb.store.SetLabel(ctx, b, e.label)
		}
	case "marks":
		err = wb.store.SetMarks(ctx, b, e.marks)
	}
	if err != nil {
		wb.fail(fmt.Errorf("undo %s: %w", e.describe, err))
		return
	}
	wb.undo = wb.undo[:len(wb.undo)-1]
	wb.status = nil
	wb.goTo(e.line, len(e.line))
}

// CanUndo describes the edit Undo would take back ("" when none).
func (wb *Workbench) CanUndo() string {
	if len(wb.undo) == 0 {
		return ""
	}
	return wb.undo[len(wb.undo)-1].describe
}

// Back goes one move back along the line.
func (wb *Workbench) Back() {
	if wb.cur > 0 {
		wb.goTo(wb.line, wb.cur-1)
	}
}

// Forward goes one move forward along the line, or into the first stored
// child at the end of the line.
func (wb *Workbench) Forward() {
	if wb.cur < len(wb.line) {
		wb.goTo(wb.line, wb.cur+1)
		return
	}
	if len(wb.children) > 0 {
		wb.goTo(append(wb.prefix(), wb.children[0].Move), wb.cur+1)
	}
}

// Home goes to the root, keeping the line.
func (wb *Workbench) Home() { wb.goTo(wb.line, 0) }

// End goes to the end of the line.
func (wb *Workbench) End() { wb.goTo(wb.line, len(wb.line)) }

// Sibling replaces the last move played by the previous (delta -1) or next
// (+1) stored alternative.
func (wb *Workbench) Sibling(delta int) {
	if wb.cur == 0 {
		return
	}
	parent, err := replay(wb.empty, wb.line[:wb.cur-1])
	if err != nil {
		wb.fail(err)
		return
	}
	sibs, err := wb.store.Children(context.Background(), parent, wb.attacker)
	if err != nil {
		wb.fail(err)
		return
	}
	if wb.nkids != nil {
		wb.nkids[keyOf(parent)] = len(sibs)
	}
	// The book may store a symmetric image of the move played: match by
	// the position reached.
	want, _ := wb.pos.CanonicalKey()
	i := -1
	for j, c := range sibs {
		if c.Move == wb.line[wb.cur-1] {
			i = j
			break
		}
		nb := parent.Clone()
		if nb.Play(c.Move) == nil && nb.ToMove() == wb.pos.ToMove() {
			if k, _ := nb.CanonicalKey(); k == want {
				i = j
			}
		}
	}
	j := i + delta
	if i < 0 || j < 0 || j >= len(sibs) {
		return
	}
	line := append(append([]engine.Move(nil), wb.line[:wb.cur-1]...), sibs[j].Move)
	wb.goTo(line, wb.cur)
}

// SelectChild plays the i-th stored child.
func (wb *Workbench) SelectChild(i int) {
	if i >= 0 && i < len(wb.children) {
		wb.PlayMove(wb.children[i].Move)
	}
}

// GoToLine shows the end of line (from the root).
func (wb *Workbench) GoToLine(line []engine.Move) { wb.goTo(line, len(line)) }

// OpenEntry shows a position found by a query.
func (wb *Workbench) OpenEntry(e Entry) {
	line := e.Line
	if line == nil {
		var err error
		if line, err = wb.store.Resolve(context.Background(), e); err != nil {
			wb.fail(err)
			return
		}
	}
	wb.GoToLine(line)
}

// GoToPly shows the first i moves of the current line.
func (wb *Workbench) GoToPly(i int) {
	if i >= 0 && i <= len(wb.line) {
		wb.goTo(wb.line, i)
	}
}

// TypedKey handles navigation keys (board focus or window).
func (wb *Workbench) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyLeft:
		wb.Back()
	case fyne.KeyRight:
		wb.Forward()
	case fyne.KeyUp:
		wb.Sibling(-1)
	case fyne.KeyDown:
		wb.Sibling(+1)
	case fyne.KeyHome:
		wb.Home()
	case fyne.KeyEnd:
		wb.End()
	case fyne.KeyEscape:
		if wb.pending != engine.NoSquare {
			wb.pending = engine.NoSquare
			wb.redrawBoard()
		}
	}
}

// Attach installs the keyboard handling and the undo shortcut on a window.
func (wb *Workbench) Attach(w fyne.Window) {
	w.Canvas().SetOnTypedKey(wb.TypedKey)
	w.Canvas().AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { wb.Undo() })
}

// SaveNotes stores the comment and the label of the shown position.
func (wb *Workbench) SaveNotes(comment, label string) {
	ctx := context.Background()
	old := wb.info
	if comment == old.Comment && label == old.Label || wb.refuseEdit("save notes") {
		return
	}
	if err := wb.store.SetComment(ctx, wb.pos, comment); err != nil {
		wb.fail(err)
		return
	}
	if err := wb.store.SetLabel(ctx, wb.pos, label); err != nil {
		wb.fail(err)
		return
	}
	wb.pushEdit(edit{what: "comment", line: wb.prefix(), comment: old.Comment, label: old.Label,
		describe: "notes"})
	wb.refresh(false)
}

func (wb *Workbench) toggleMark(s engine.Square) {
	if wb.refuseEdit("label squares") {
		return
	}
	marks := map[engine.Square]string{}
	for k, v := range wb.info.Marks {
		marks[k] = v
	}
	if _, ok := marks[s]; ok {
		delete(marks, s)
	} else {
		marks[s] = nextMarkLetter(marks)
	}
	if err := wb.store.SetMarks(context.Background(), wb.pos, marks); err != nil {
		wb.fail(err)
		return
	}
	wb.pushEdit(edit{what: "marks", line: wb.prefix(), marks: wb.info.Marks, describe: "board labels"})
	wb.refresh(false)
}

func nextMarkLetter(marks map[engine.Square]string) string {
	used := map[string]bool{}
	for _, v := range marks {
		used[v] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		if !used[string(c)] {
			return string(c)
		}
	}
	return "?"
}

// ToggleDisproved marks the shown position as disproved for the attacker
// (the expert's judgement), or clears the mark.
func (wb *Workbench) ToggleDisproved() {
	if wb.refuseEdit("mark disproved") {
		return
	}
	on := wb.info.Status != c6book.StatusDisproved
	if err := wb.store.SetDisproved(context.Background(), wb.pos, wb.attacker, on); err != nil {
		wb.fail(err)
		return
	}
	wb.status = nil
	wb.refresh(true)
}

// ErrNotDefenderToMove is returned when Verify is asked with the attacker to
// move: the verifier needs the attacker's move played first.
var ErrNotDefenderToMove = errors.New("the verifier needs the defender to move: play the attacker's move first")

// Verify starts the verifier on the shown position (the defender to move)
// on its own goroutine; Stop cancels it. The verdict is stored in the book
// (unsolved moves become children) and shown when it arrives.
func (wb *Workbench) Verify() {
	if wb.job != nil {
		return
	}
	if wb.verifier == nil {
		wb.fail(errors.New("no verifier"))
		return
	}
	if wb.refuseEdit("verify (its verdict is stored)") {
		return
	}
	if wb.pos.ToMove() != wb.attacker.Opp() {
		wb.fail(fmt.Errorf("%w (attacker %s, %s to move)", ErrNotDefenderToMove,
			colourName(wb.attacker), colourName(wb.pos.ToMove())))
		return
	}
	if w := wb.pos.Winner(); w != engine.Empty {
		wb.fail(fmt.Errorf("the game is over: %s has won", colourName(w)))
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &verifyJob{store: wb.store, cancel: cancel, key: keyOf(wb.pos), line: wb.prefix()}
	wb.job = job
	wb.ui.startVerify()
	b := wb.pos.Clone()
	lambda := wb.lambda
	store, verifier, do := wb.store, wb.verifier, wb.Do
	progress := func(p Progress) {
		// Called on the verifier's goroutine: never block, send at most
		// ten updates a second to the UI.
		job.mu.Lock()
		job.last = p
		now := time.Now()
		send := now.Sub(job.sent) >= 100*time.Millisecond
		if send {
			job.sent = now
		}
		job.mu.Unlock()
		if send {
			do(func() { wb.showProgress(job, p) })
		}
	}
	go func() {
		v, err := verifier.Verify(ctx, b, lambda, progress)
		if err == nil {
			v.Lambda = lambda
			do(func() { wb.showStoring(job) })
			// The verdict is stored even if the user moved on meanwhile;
			// while another program holds the book, the store waits for
			// it until it is stored or the user presses Stop.
			err = store.StoreVerdict(ctx, b, v)
		}
		do(func() { wb.finishVerify(job, v, err) })
	}()
}

// Suggest asks the engine for attacker moves in the shown position (the
// attacker to move), off the UI goroutine; the candidates appear in the
// Prove tab, where tapping one plays it.
func (wb *Workbench) Suggest() {
	sg, ok := wb.verifier.(Suggester)
	if !ok || wb.suggest != nil {
		return
	}
	if wb.pos.ToMove() != wb.attacker {
		wb.fail(fmt.Errorf("candidates are attacker moves: %s is the attacker, %s is to move",
			colourName(wb.attacker), colourName(wb.pos.ToMove())))
		return
	}
	if w := wb.pos.Winner(); w != engine.Empty {
		wb.fail(fmt.Errorf("the game is over: %s has won", colourName(w)))
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	wb.suggest = cancel
	key := keyOf(wb.pos)
	b := wb.pos.Clone()
	do := wb.Do
	wb.ui.startSuggest()
	go func() {
		cs, err := sg.Candidates(ctx, b, 30)
		do(func() {
			cancel()
			wb.suggest = nil
			wb.ui.stopSuggest()
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					wb.fail(fmt.Errorf("candidates: %w", err))
				}
				return
			}
			wb.cands, wb.candsKey = cs, key
			wb.ui.showCandidates()
		})
	}()
}

// Suggesting reports whether a candidate search is running.
func (wb *Workbench) Suggesting() bool { return wb.suggest != nil }

// Candidates returns the engine's proposals for the shown position.
func (wb *Workbench) Candidates() []Candidate {
	if wb.candsKey != keyOf(wb.pos) {
		return nil
	}
	return append([]Candidate(nil), wb.cands...)
}

// Running reports whether a verification is running.
func (wb *Workbench) Running() bool { return wb.job != nil }

// Stop cancels the running verification.
func (wb *Workbench) Stop() {
	if wb.job != nil {
		wb.job.cancel()
	}
	if wb.suggest != nil {
		wb.suggest()
	}
}

func (wb *Workbench) showProgress(job *verifyJob, p Progress) {
	if wb.job != job {
		return
	}
	wb.ui.showProgress(p)
}

func (wb *Workbench) showStoring(job *verifyJob) {
	if wb.job != job {
		return
	}
	wb.ui.progressL.SetText("storing the verdict (Stop gives up if another program keeps the book locked)…")
}

func (wb *Workbench) finishVerify(job *verifyJob, v c6book.Verdict, err error) {
	if wb.job != job {
		return
	}
	wb.job = nil
	job.cancel()
	wb.ui.stopVerify()
	if job.store != wb.store {
		// Another book was opened meanwhile: this verdict belongs to the
		// old one (stored there if it was still open).
		wb.ui.setVerdictText("")
		return
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			wb.ui.setVerdictText("stopped")
		} else {
			wb.ui.setVerdictText("error")
			wb.fail(fmt.Errorf("verify: %w", err))
		}
		return
	}
	wb.status = nil
	if keyOf(wb.pos) == job.key {
		wb.refresh(true)
		if wb.verdict == nil || wb.verdict.Calls != v.Calls || wb.verdict.Nodes != v.Nodes {
			// The book did not give the verdict back (or gave an older
			// one): show the one just computed.
			vv := v
			wb.verdict = &vv
			wb.redraw()
		}
	} else {
		wb.refresh(true)
	}
}

// Next jumps to the most-proving open position of the book.
func (wb *Workbench) Next() {
	e, ok, err := wb.store.Next(context.Background(), wb.attacker)
	if err != nil {
		wb.fail(err)
		return
	}
	if !ok {
		wb.fail(fmt.Errorf("no open position for %s in this book", colourName(wb.attacker)))
		return
	}
	wb.OpenEntry(e)
}

// Search finds positions whose comment matches query.
func (wb *Workbench) Search(query string) []Entry {
	es, err := wb.store.Search(context.Background(), query, 500)
	if err != nil {
		wb.fail(err)
		return nil
	}
	wb.ui.setSearch(es)
	return es
}

// LoadSolved lists the proved positions for the attacker.
func (wb *Workbench) LoadSolved() []Entry {
	es, err := wb.store.Proved(context.Background(), wb.attacker, 2000)
	if err != nil {
		wb.fail(err)
		return nil
	}
	wb.ui.setSolved(es)
	return es
}

func colourName(c engine.Color) string {
	switch c {
	case engine.Black:
		return "Black"
	case engine.White:
		return "White"
	}
	return "nobody"
}

// replay plays a line from the empty board; a turn with fewer stones than
// the rules place (a defender's null or seminull move of a λ3 proof) is
// played as a partial turn.
func replay(empty *engine.Board, line []engine.Move) (*engine.Board, error) {
	b := empty.Clone() // shares the rules' geometry tables
	for i, m := range line {
		// PlayPartial checks a full turn exactly as Play does.
		if err := b.PlayPartial(m); err != nil {
			return b, fmt.Errorf("turn %d (%s): %w", i+1, engine.MoveName(b.Rules(), m), err)
		}
	}
	return b, nil
}
