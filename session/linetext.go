package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Positions as text: the shown line copied in turn notation ("j10 i9k9
// i7j9"), and a line pasted or typed played from the root.

// LineText is the line to the shown position in turn notation, each turn's
// stones in the order they were entered ("j10 i9k9 i7j9"); "" at the root.
// Edit → Copy line, Ctrl+C and the board's context menu copy it.
func (s *Session) LineText() string { return s.cursor.CopyLine() }

// ParseLine reads a line from the root in turn notation and checks every
// turn on the board: move numbers ("1." "2.") and commas are skipped.
// The error names the turn that is wrong and why ("turn 3: i7j9: square
// is occupied (j9)"). It returns the turns and each turn's stones in the
// order written.
func ParseLine(empty *board.Board, text string) ([]game.Move, [][]game.Square, error) {
	r := empty.Rules()
	b := empty.Clone()
	var turns []game.Move
	var written [][]game.Square
	for _, f := range strings.FieldsFunc(text, func(c rune) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','
	}) {
		if isTurnNumber(f) {
			continue
		}
		n := len(turns) + 1
		if f == "…" || f == "..." {
			return nil, nil, fmt.Errorf("turn %d: the line is cut (%q): paste it from the start", n, f)
		}
		sq, err := game.ParseSquares(r, f)
		if err != nil {
			return nil, nil, fmt.Errorf("turn %d: %s: %w", n, clip(f), err)
		}
		m, err := game.MakeMove(sq...)
		if err != nil {
			return nil, nil, fmt.Errorf("turn %d: %s: %w", n, clip(f), err)
		}
		if err := b.Check(m, false); err != nil {
			var me *board.MoveError
			if errors.As(err, &me) {
				why := me.Err.Error()
				if me.Info != "" {
					why += " (" + me.Info + ")"
				}
				return nil, nil, fmt.Errorf("turn %d: %s: %s", n, clip(f), why)
			}
			return nil, nil, fmt.Errorf("turn %d: %s: %w", n, clip(f), err)
		}
		if err := b.Play(m); err != nil {
			return nil, nil, fmt.Errorf("turn %d: %s: %w", n, clip(f), err)
		}
		turns = append(turns, m)
		written = append(written, sq)
	}
	if len(turns) == 0 {
		return nil, nil, errors.New("no moves in the line (write turns such as “j10 i9k9 i7j9”)")
	}
	return turns, written, nil
}

// isTurnNumber reports whether f is a move number ("12." or "12").
func isTurnNumber(f string) bool {
	f = strings.TrimSuffix(f, ".")
	if f == "" {
		return false
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return s
}

// PlayLineText plays a pasted or typed line from the root (Ctrl+V, Edit →
// Go to line…): the turns the book does not store are stored, as one
// undoable edit, and the end of the line is shown. A bad line is an error
// naming the turn (ParseLine) and changes nothing.
func (s *Session) PlayLineText(text string) error {
	turns, written, err := ParseLine(s.empty, text)
	if err != nil {
		return err
	}
	c := &s.cursor
	for _, sq := range written {
		c.keepOrder(sq...)
	}
	if s.readOnly != "" {
		c.goTo(turns, len(turns)) // a read-only book only shows the line
		return nil
	}
	e := &lineEdit{editAt: editAt{nil, "add line " + clip(game.FormatTurns(s.rules, turns))}, turns: turns}
	s.history.apply(s.empty.Clone(), e, func(ok bool) {
		if ok && e.added() > 0 {
			c.forget()
			c.nkids = nil
			c.refresh(true)
		}
	})
	c.goTo(turns, len(turns))
	return nil
}

// lineEdit stores a line's turns from the root; undone, it removes the
// ones it added (the last first).
type lineEdit struct {
	editAt
	turns   []game.Move
	created []bool
}

func (e *lineEdit) do(ctx context.Context, store BookStore, b *board.Board) error {
	e.created = make([]bool, len(e.turns))
	b = b.Clone()
	for i, m := range e.turns {
		ok, err := store.AddMove(ctx, b, m)
		if err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
		e.created[i] = ok
		if err := b.Play(m); err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
	}
	return nil
}

func (e *lineEdit) undo(ctx context.Context, store BookStore, b *board.Board) error {
	boards := []*board.Board{b.Clone()}
	for _, m := range e.turns {
		nb := boards[len(boards)-1].Clone()
		if err := nb.Play(m); err != nil {
			return err
		}
		boards = append(boards, nb)
	}
	for i := len(e.turns) - 1; i >= 0; i-- {
		if !e.created[i] {
			continue
		}
		if err := store.RemoveMove(ctx, boards[i], e.turns[i]); err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
	}
	return nil
}

func (e *lineEdit) added() int {
	n := 0
	for _, c := range e.created {
		if c {
			n++
		}
	}
	return n
}

func (e *lineEdit) noOp() bool { return e.added() == 0 }

// CheckLineText says what is wrong with a line typed (ParseLine's error),
// nil when PlayLineText would play it.
func (s *Session) CheckLineText(text string) error {
	_, _, err := ParseLine(s.empty, text)
	return err
}
