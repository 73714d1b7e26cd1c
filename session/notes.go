package session

import (
	"context"
	"fmt"
	"slices"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Notes are the comment and the label typed for the shown position and not
// yet stored: stored when the typing pauses, when the position changes, or
// when the book is switched or closed, as one undoable edit per position and
// pause. Its methods run on the UI goroutine.
type Notes struct {
	s     *Session
	delay time.Duration // how long typing may pause before the draft is stored
	draft *notesDraft   // notes typed and not yet stored
}

// notesDraft is notes typed for a position and not yet stored.
type notesDraft struct {
	b                    *board.Board
	key                  posKey
	prefix               []game.Move
	comment, label       string
	oldComment, oldLabel string
	timer                *time.Timer
}

// Edit takes notes typed for the shown position: they are stored when the
// typing pauses (notesDelay), when the position changes, or when the
// book is switched, as one undoable edit per position and pause.
func (n *Notes) Edit(comment, label string) {
	s, c := n.s, &n.s.cursor
	if s.readOnly != "" || c.infoFor != keyOf(c.pos) {
		// (Before the book has answered, the notes shown are not the
		// position's: they are filled when it answers.)
		return
	}
	d := n.draft
	if d == nil || d.key != keyOf(c.pos) {
		n.flush()
		d = &notesDraft{b: c.pos.Clone(), key: keyOf(c.pos), prefix: c.prefix(),
			oldComment: c.info.Comment, oldLabel: c.info.Label}
		n.draft = d
	}
	d.comment, d.label = comment, label
	if d.timer != nil {
		d.timer.Stop()
	}
	// (A timer only: what it runs, it runs on the UI goroutine.)
	do := s.do
	d.timer = time.AfterFunc(n.delay, func() {
		do(func() {
			if n.draft == d {
				n.flush()
			}
		})
	})
}

// Save stores the comment and the label of the shown position now.
func (n *Notes) Save(comment, label string) {
	info := n.s.cursor.info
	if (comment != info.Comment || label != info.Label) && n.s.refuseEdit("save notes") {
		return
	}
	n.Edit(comment, label)
	n.flushDraft(false)
}

// Pending reports whether notes typed are waiting to be stored.
func (n *Notes) Pending() bool { return n.draft != nil }

// flush stores the notes typed and not yet stored, if any.
func (n *Notes) flush() { n.flushDraft(true) }

// flushDraft stores the draft; typed says that it ends a pause in typing
// (merged with the edit of the previous pause on the same position) rather
// than an explicit save.
func (n *Notes) flushDraft(typed bool) {
	s, c, h := n.s, &n.s.cursor, &n.s.history
	d := n.draft
	if d == nil {
		return
	}
	n.draft = nil
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.comment == d.oldComment && d.label == d.oldLabel || s.refuseEdit("save notes") {
		return
	}
	if keyOf(c.pos) == d.key {
		c.info.Comment, c.info.Label = d.comment, d.label
	}
	e := &notesEdit{editAt: editAt{d.prefix, "notes"}, comment: d.comment, label: d.label,
		oldComment: d.oldComment, oldLabel: d.oldLabel, typed: typed, visit: c.visit}
	// On the undo stack at once (an Undo that follows runs after the
	// store, book calls running in order). Pauses in one stretch of typing
	// on a position (one visit) are one edit.
	if last, ok := h.top().(*notesEdit); !typed || !ok || !last.typed || last.visit != c.visit || !slices.Equal(last.line, d.prefix) {
		h.push(e)
	} else {
		// Merged with the last pause's edit: Redo stores the latest text.
		last.comment, last.label = e.comment, e.label
		h.redo = nil
	}
	s.call(func(ctx context.Context, store BookStore) func() {
		err := e.do(ctx, store, d.b)
		return func() {
			if err != nil {
				s.fail(fmt.Errorf("saving the notes: %w", err))
				return
			}
			c.afterEdit(d.b)
		}
	})
}
