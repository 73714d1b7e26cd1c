package session

import (
	"context"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// History is the undo stack of the edits made to the book from the
// workbench (moves, notes, square labels, disproved marks, "leave to me",
// a verify's verdict with the replies it added), and the edits that are
// not a move or notes.
// Each edit is a type that stores itself (do) and stores back what it
// replaced (undo). Its methods run on the UI goroutine.
type History struct {
	s    *Session
	undo []edit
	// redo holds the edits Undo took back, the last on top; a new edit
	// empties it.
	redo []edit
}

// maxUndo is how many edits the undo stack keeps.
const maxUndo = 200

// edit is one undoable change to the book, on the position at the end of
// its line.
type edit interface {
	at() []game.Move
	describe() string
	// do stores the change; undo stores back what it replaced.
	do(ctx context.Context, store BookStore, b *board.Board) error
	undo(ctx context.Context, store BookStore, b *board.Board) error
}

// editAt is the position an edit is on and how it is named.
type editAt struct {
	line []game.Move
	what string
}

func (e editAt) at() []game.Move  { return e.line }
func (e editAt) describe() string { return e.what }

// moveEdit adds a move; it is an edit only if the move was new.
type moveEdit struct {
	editAt
	move    game.Move
	created bool
}

func (e *moveEdit) do(ctx context.Context, store BookStore, b *board.Board) (err error) {
	e.created, err = store.AddMove(ctx, b, e.move)
	return err
}

func (e *moveEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return store.RemoveMove(ctx, b, e.move)
}

func (e *moveEdit) noOp() bool { return !e.created }

// notesEdit stores a comment and a label.
type notesEdit struct {
	editAt
	comment, label       string
	oldComment, oldLabel string
	typed                bool // stored when typing paused (see Notes.flushDraft)
	visit                int  // Cursor.visit when it was stored
}

func (e *notesEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	return setNotes(ctx, store, b, e.comment, e.label)
}

func (e *notesEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return setNotes(ctx, store, b, e.oldComment, e.oldLabel)
}

func setNotes(ctx context.Context, store BookStore, b *board.Board, comment, label string) error {
	if err := store.SetComment(ctx, b, comment); err != nil {
		return err
	}
	return store.SetLabel(ctx, b, label)
}

// marksEdit stores the board labels.
type marksEdit struct {
	editAt
	marks, old map[game.Square]string
}

func (e *marksEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	return store.SetMarks(ctx, b, e.marks)
}

func (e *marksEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return store.SetMarks(ctx, b, e.old)
}

// disprovedEdit marks (or clears) the expert's refutation.
type disprovedEdit struct {
	editAt
	attacker game.Color
	on       bool
}

func (e *disprovedEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	return store.SetDisproved(ctx, b, e.attacker, e.on)
}

func (e *disprovedEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return store.SetDisproved(ctx, b, e.attacker, !e.on)
}

// holdEdit leaves the position to the expert, or gives it back.
type holdEdit struct {
	editAt
	attacker game.Color
	on       bool
}

var errNoHold = errors.New("this book cannot store “leave to me”")

func (e *holdEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	return setHold(ctx, store, b, e.attacker, e.on)
}

func (e *holdEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return setHold(ctx, store, b, e.attacker, !e.on)
}

func setHold(ctx context.Context, store BookStore, b *board.Board, a game.Color, on bool) error {
	h, ok := store.(Holder)
	if !ok {
		return errNoHold
	}
	return h.SetHold(ctx, b, a, on)
}

// repliesEdit stores a verdict and the replies it adds; undone, the book
// is as it was before (the verdict it replaced back, its new replies
// removed: UndoVerdict).
type repliesEdit struct {
	editAt
	verdict c6book.Verdict
	stored  VerdictStored
}

func (e *repliesEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	st, err := store.StoreVerdict(ctx, b, e.verdict)
	e.stored = st
	return err
}

func (e *repliesEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	return store.UndoVerdict(ctx, b, e.stored)
}

func (e *repliesEdit) describe() string {
	switch n := len(e.stored.Added); {
	case n > 1:
		return "verify's " + Plural(n, "new reply", "new replies")
	case n == 1:
		return "verify's new reply"
	}
	return "verify"
}

// noOpEdit is an edit that may turn out to change nothing once done (a
// move already stored).
type noOpEdit interface{ noOp() bool }

func isNoOp(e edit) bool {
	n, ok := e.(noOpEdit)
	return ok && n.noOp()
}

// push puts a new edit on the undo stack: the edits undone before it can
// no longer be redone.
func (h *History) push(e edit) {
	h.redo = nil
	h.stack(e)
}

// stack puts e on the undo stack, keeping the redo stack.
func (h *History) stack(e edit) {
	h.undo = append(h.undo, e)
	if len(h.undo) > maxUndo {
		h.undo = h.undo[1:]
	}
}

// top is the last edit (nil when none).
func (h *History) top() edit {
	if len(h.undo) == 0 {
		return nil
	}
	return h.undo[len(h.undo)-1]
}

// apply stores e on b (a book call); once stored, e goes on the undo stack
// unless it changed nothing. done is told whether it was stored (a failure
// is reported).
func (h *History) apply(b *board.Board, e edit, done func(ok bool)) {
	h.s.call(func(ctx context.Context, store BookStore) func() {
		err := e.do(ctx, store, b)
		return func() {
			if err != nil {
				h.s.fail(err)
				done(false)
				return
			}
			if !isNoOp(e) {
				h.push(e)
			}
			done(true)
		}
	})
}

// Undo takes back the last edit (a pending stone first).
func (h *History) Undo() {
	s := h.s
	if s.cursor.pending1 != game.NoSquare {
		s.cursor.DropPending()
		return
	}
	s.notes.flush() // notes typed are an edit too
	if len(h.undo) == 0 || s.refuseEdit("undo") {
		return
	}
	e := h.top()
	b, err := replay(s.empty, e.at())
	if err != nil {
		s.fail(err)
		return
	}
	h.undo = h.undo[:len(h.undo)-1]
	s.call(func(ctx context.Context, store BookStore) func() {
		err := e.undo(ctx, store, b)
		return func() {
			if errors.Is(err, c6book.ErrVerdictItem) || errors.Is(err, c6book.ErrVerdictChanged) {
				// The book refuses it under the proof rules, now and later:
				// the edit leaves the stack (a later verdict took it over).
				s.fail(fmt.Errorf("cannot undo %s: %w", e.describe(), err))
				return
			}
			if err != nil {
				h.stack(e)
				s.fail(fmt.Errorf("undo %s: %w", e.describe(), err))
				return
			}
			h.redo = append(h.redo, e)
			if sum := s.prover.summary; sum != nil && sum.edit == e {
				// The last run's verdict: its summary no longer offers the
				// replies it added.
				sum.takeBack(e.(*repliesEdit).stored.Added)
				s.changed(ChangeVerify)
			}
			s.cursor.forget()
			s.cursor.goTo(e.at(), len(e.at()))
		}
	})
}

// Redo stores again the last edit Undo took back (Ctrl+Shift+Z, Ctrl+Y)
// and shows the position it is on (after the move, for a move or a line).
// A new edit since the undo leaves nothing to redo.
func (h *History) Redo() {
	s := h.s
	s.notes.flush() // notes typed are an edit: after them, nothing to redo
	if len(h.redo) == 0 || s.refuseEdit("redo") {
		return
	}
	e := h.redo[len(h.redo)-1]
	b, err := replay(s.empty, e.at())
	if err != nil {
		s.fail(err)
		return
	}
	h.redo = h.redo[:len(h.redo)-1]
	s.call(func(ctx context.Context, store BookStore) func() {
		err := e.do(ctx, store, b)
		return func() {
			if err != nil {
				s.fail(fmt.Errorf("redo %s: %w", e.describe(), err))
				return
			}
			if !isNoOp(e) {
				h.stack(e)
			}
			line := e.at()
			switch e := e.(type) {
			case *moveEdit:
				line = append(append([]game.Move(nil), line...), e.move)
			case *lineEdit:
				line = append(append([]game.Move(nil), line...), e.turns...)
			}
			s.cursor.forget()
			s.cursor.goTo(line, len(line))
		}
	})
}

// CanRedo describes the edit Redo would store again ("" when none).
func (h *History) CanRedo() string {
	if len(h.redo) == 0 {
		return ""
	}
	return h.redo[len(h.redo)-1].describe()
}

// CanUndo describes the edit Undo would take back ("" when none).
func (h *History) CanUndo() string {
	if e := h.top(); e != nil {
		return e.describe()
	}
	return ""
}

// toggleMark labels square q of the shown position (the next free letter),
// or takes its label away.
func (h *History) toggleMark(q game.Square) {
	s, c := h.s, &h.s.cursor
	if s.refuseEdit("label squares") {
		return
	}
	marks := map[game.Square]string{}
	for k, v := range c.info.Marks {
		marks[k] = v
	}
	if _, ok := marks[q]; ok {
		delete(marks, q)
	} else {
		marks[q] = nextMarkLetter(marks)
	}
	e := &marksEdit{editAt: editAt{c.prefix(), "board labels"}, marks: marks, old: c.info.Marks}
	b := c.pos.Clone()
	// Shown at once; stored off the UI goroutine.
	c.info.Marks = marks
	s.changed(ChangeBoard)
	h.apply(b, e, func(bool) { c.afterEdit(b) })
}

func nextMarkLetter(marks map[game.Square]string) string {
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
func (h *History) ToggleDisproved() {
	s, c := h.s, &h.s.cursor
	if s.refuseEdit("mark disproved") {
		return
	}
	on := c.info.Status != c6book.StatusDisproved
	what := "mark disproved"
	if !on {
		what = "clear disproved"
	}
	b := c.pos.Clone()
	h.apply(b, &disprovedEdit{editAt: editAt{c.prefix(), what}, attacker: c.attacker, on: on}, func(ok bool) {
		if !ok {
			return
		}
		c.forget()
		if keyOf(c.pos) == keyOf(b) {
			c.refresh(true)
		}
	})
}

// CanHold reports whether the book stores the expert's "leave to me".
func (h *History) CanHold() bool {
	_, ok := h.s.store.(Holder)
	return ok && h.s.readOnly == ""
}

// ToggleHold marks the shown position as left to the expert for the
// attacker ("leave to me": the auto-pilot skips it and everything below
// it), or gives it back; undoable.
func (h *History) ToggleHold() {
	s, c := h.s, &h.s.cursor
	if _, ok := s.store.(Holder); !ok {
		s.fail(errNoHold)
		return
	}
	if s.refuseEdit("leave to me") {
		return
	}
	on := !c.info.Held
	what := "leave to me"
	if !on {
		what = "give back to the auto-pilot"
	}
	b := c.pos.Clone()
	h.apply(b, &holdEdit{editAt: editAt{c.prefix(), what}, attacker: c.attacker, on: on}, func(ok bool) {
		if ok && keyOf(c.pos) == keyOf(b) {
			c.refresh(false)
		}
	})
}
