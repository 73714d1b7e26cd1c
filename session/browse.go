package session

import (
	"context"
	"fmt"
	"slices"
	"time"

	"c6book/engine"
)

// Browsing keeps the user's place: a position opened from a list shows in
// the orientation of the line the user is on when that line meets it, a
// game opened from the Games pane continues the user's line, and notes
// typed are stored (debounced) before the position changes.

// orientLine returns the line to show for target, a line from the root in
// any orientation, given the user's line: the user's line up to the last
// position the two lines share (up to symmetry, at the same depth), then
// the rest of target mapped into the user's orientation there; when the
// target's position is on the user's line, the user's line itself with the
// cursor on it. With nothing shared but the root, target as it is.
func orientLine(empty *engine.Board, user, target []engine.Move) (line []engine.Move, cur int, err error) {
	tb, err := replay(empty, nil)
	if err != nil {
		return nil, 0, err
	}
	type canon struct {
		key  uint64
		side engine.Color
		sym  int
	}
	at := func(b *engine.Board) canon {
		k, sym := b.CanonicalKey()
		return canon{k, b.ToMove(), sym}
	}
	tks := []canon{at(tb)}
	for i, m := range target {
		if err := tb.PlayPartial(m); err != nil {
			return nil, 0, fmt.Errorf("the line to open, turn %d (%s): %w", i+1, engine.MoveName(tb.Rules(), m), err)
		}
		tks = append(tks, at(tb))
	}
	end := tks[len(tks)-1]
	ub := empty.Clone()
	uks := []canon{at(ub)}
	for _, m := range user {
		if ub.PlayPartial(m) != nil {
			break
		}
		uks = append(uks, at(ub))
	}
	// The target's position on the user's line: keep the line.
	for j, k := range uks {
		if k.key == end.key && k.side == end.side {
			return append([]engine.Move(nil), user...), j, nil
		}
	}
	j := 0
	for i := min(len(tks), len(uks)) - 1; i > 0; i-- {
		if tks[i].key == uks[i].key && tks[i].side == uks[i].side {
			j = i
			break
		}
	}
	r := empty.Rules()
	line = append(make([]engine.Move, 0, len(target)), user[:j]...)
	inv := engine.InverseSymmetry(uks[j].sym)
	for _, m := range target[j:] {
		line = append(line, r.TransformMove(inv, r.TransformMove(tks[j].sym, m)))
	}
	return line, len(line), nil
}

// LoadGames lists the games through the shown position, offset and limit
// paging them; done gets them and their total on the UI goroutine, unless
// the user has moved on meanwhile.
func (s *Session) LoadGames(offset, limit int, done func(games []GameInfo, total int64)) {
	b := s.pos.Clone()
	s.call(func(ctx context.Context, store BookStore) func() {
		gs, total, err := store.GamesThrough(ctx, b, offset, limit)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			if keyOf(s.pos) == keyOf(b) {
				done(gs, total)
			}
		}
	})
}

// OpenGame shows game id, one of the games through the shown position, in
// the orientation of the user's line: the line to the shown position, then
// the rest of the game (→ steps through it).
func (s *Session) OpenGame(id int64) {
	b, prefix := s.pos.Clone(), s.prefix()
	s.call(func(ctx context.Context, store BookStore) func() {
		turns, err := store.Game(ctx, id, b)
		return func() {
			if err != nil {
				s.fail(fmt.Errorf("game %d: %w", id, err))
				return
			}
			if keyOf(s.pos) != keyOf(b) {
				return // the user moved on meanwhile
			}
			k, ok := reachAt(s.empty, turns, b)
			if !ok {
				s.fail(fmt.Errorf("game %d does not reach this position", id))
				return
			}
			s.goTo(append(prefix, turns[k:]...), len(prefix))
		}
	})
}

// reachAt is the number of turns of a game (in b's orientation) after
// which it shows b.
func reachAt(empty *engine.Board, turns []engine.Move, b *engine.Board) (int, bool) {
	g := empty.Clone()
	for i := 0; ; i++ {
		if g.Hash() == b.Hash() && g.ToMove() == b.ToMove() {
			return i, true
		}
		if i == len(turns) || g.PlayPartial(turns[i]) != nil {
			return 0, false
		}
	}
}

// notesDraft is notes typed for a position and not yet stored.
type notesDraft struct {
	b                    *engine.Board
	key                  posKey
	prefix               []engine.Move
	comment, label       string
	oldComment, oldLabel string
	timer                *time.Timer
}

// EditNotes takes notes typed for the shown position: they are stored when
// the typing pauses (Config.NotesDelay), when the position changes, or at
// FlushNotes, as one undoable edit per position and pause.
func (s *Session) EditNotes(comment, label string) {
	if s.readOnly != "" || s.infoFor != keyOf(s.pos) {
		// (Before the book has answered, the notes shown are not the
		// position's: they are filled when it answers.)
		return
	}
	d := s.draft
	if d == nil || d.key != keyOf(s.pos) {
		s.FlushNotes()
		d = &notesDraft{b: s.pos.Clone(), key: keyOf(s.pos), prefix: s.prefix(),
			oldComment: s.info.Comment, oldLabel: s.info.Label}
		s.draft = d
	}
	d.comment, d.label = comment, label
	if d.timer != nil {
		d.timer.Stop()
	}
	do := s.do
	d.timer = time.AfterFunc(s.notesDelay, func() {
		do(func() {
			if s.draft == d {
				s.FlushNotes()
			}
		})
	})
}

// NotesPending reports whether notes typed are waiting to be stored.
func (s *Session) NotesPending() bool { return s.draft != nil }

// FlushNotes stores the notes typed and not yet stored, if any.
func (s *Session) FlushNotes() { s.flushNotes(true) }

// flushNotes stores the draft; typed says that it ends a pause in typing
// (merged with the edit of the previous pause on the same position) rather
// than an explicit save.
func (s *Session) flushNotes(typed bool) {
	d := s.draft
	if d == nil {
		return
	}
	s.draft = nil
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.comment == d.oldComment && d.label == d.oldLabel || s.refuseEdit("save notes") {
		return
	}
	if keyOf(s.pos) == d.key {
		s.info.Comment, s.info.Label = d.comment, d.label
	}
	// On the undo stack at once (an Undo that follows runs after the
	// store, book calls running in order).
	// Pauses in one stretch of typing on a position (one visit) are one
	// edit.
	if n := len(s.undo); !typed || n == 0 || !s.undo[n-1].typed || s.undo[n-1].visit != s.visit || !slices.Equal(s.undo[n-1].Line, d.prefix) {
		s.pushEdit(Edit{What: "comment", Line: d.prefix, Comment: d.oldComment, Label: d.oldLabel, Describe: "notes", typed: typed, visit: s.visit})
	}
	comment, label := d.comment, d.label
	s.call(func(ctx context.Context, store BookStore) func() {
		err := store.SetComment(ctx, d.b, comment)
		if err == nil {
			err = store.SetLabel(ctx, d.b, label)
		}
		return func() {
			if err != nil {
				s.fail(fmt.Errorf("saving the notes: %w", err))
				return
			}
			s.afterEdit(d.b)
		}
	})
}
