// Package session is the workbench without its widgets, over one book. It
// imports no UI toolkit: the ui package renders it and turns input into its
// calls, and its tests drive it as plain Go. A Session is the book and the
// way work reaches it; its parts each keep one concern:
//
//   - Cursor (cursor.go, browse.go): the line shown and the cursor on it,
//     the pending stone of a two-stone turn, what the book knows about the
//     shown position and the status cache of the line; the queries that
//     list positions to open.
//   - Prover (prover.go, play.go, auto.go): the verifier, the engine's
//     suggestions and moves, and the auto-pilot, each run as a Job.
//   - History (history.go): the undo stack; every edit is a type that
//     stores itself and knows its own undo.
//   - Notes (notes.go): the comment and label typed and not yet stored.
//
// Every method runs on the UI goroutine. Book calls run off it, in order
// (gateway.go), and long work runs as jobs (jobs.go); both come back through
// Config.Do.
package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Change says what a session change touched, for the view to redraw.
type Change int

// Changes.
const (
	ChangeBoard      Change = 1 << iota // the pending stone (the board only)
	ChangePosition                      // the position, its book data, the line's statuses
	ChangeVerify                        // the verifier's state or progress
	ChangeCandidates                    // the engine's candidates or their search
	ChangeAuto                          // the auto-pilot's state or progress, or the hold of the shown position
	ChangeProof                         // the proof shown (proof.go): its step or its end
)

// Session is the model of one workbench window: the book, the way work
// reaches it, and the parts that keep the window's state.
type Session struct {
	store    BookStore
	jobsCtx  context.Context // every job's parent (Abort)
	abort    context.CancelFunc
	storeCtx context.Context
	storeEnd context.CancelFunc
	verifier Verifier
	do       func(func())
	inline   bool

	// OnChange is told what changed (UI goroutine).
	OnChange func(Change)
	// OnError reports an error to the user (UI goroutine).
	OnError func(error)

	rules    game.Rules
	readOnly string
	empty    *board.Board

	calls callQueue // book calls (gateway.go)
	jobs  []*Job    // long work (jobs.go)

	cursor  Cursor
	prover  Prover
	history History
	notes   Notes

	proof       *ProofView // the proof shown (proof.go)
	proofBusy   bool
	proofCancel context.CancelFunc // the certificate's check in flight
}

// Config is how a session reaches the UI goroutine.
type Config struct {
	// Do runs a function on the UI goroutine without waiting for it
	// (fyne.Do in the workbench; a queue the test drains in tests).
	Do func(func())
	// Inline runs book calls at once on the caller's goroutine, their
	// results delivered before the call returns: for tests that drive the
	// session step by step. Jobs still run on their own goroutines.
	Inline bool
}

// notesDelay is how long notes typed (Notes.Edit) wait for more typing
// before they are stored; leaving the position stores them at once.
const notesDelay = 500 * time.Millisecond

// New makes a session over store showing its root (the book's answer
// comes through cfg.Do). It fails only if the store's rules are not
// playable.
func New(store BookStore, verifier Verifier, cfg Config) (*Session, error) {
	if cfg.Do == nil {
		return nil, errors.New("session: no Do")
	}
	s := &Session{verifier: verifier, do: cfg.Do, inline: cfg.Inline}
	s.jobsCtx, s.abort = context.WithCancel(context.Background())
	s.cursor = Cursor{s: s, pending1: game.NoSquare, attacker: game.Black, solvedMinOrder: 1}
	s.prover = Prover{s: s, lambda: 2}
	s.history = History{s: s}
	s.notes = Notes{s: s, delay: notesDelay}
	if err := s.SetStore(store); err != nil {
		return nil, err
	}
	return s, nil
}

// Cursor is the line shown, the cursor on it and what the book knows
// about them.
func (s *Session) Cursor() *Cursor { return &s.cursor }

// Prover runs the verifier, the engine's player and the auto-pilot.
func (s *Session) Prover() *Prover { return &s.prover }

// History is the undo stack and the edits that go on it.
func (s *Session) History() *History { return &s.history }

// Notes are the shown position's comment and label as typed.
func (s *Session) Notes() *Notes { return &s.notes }

func (s *Session) fail(err error) {
	if err != nil && s.OnError != nil {
		s.OnError(err)
	}
}

func (s *Session) changed(c Change) {
	if s.OnChange != nil {
		s.OnChange(c)
	}
}

// SetStore switches to another book and shows its root. A book whose rules
// the engine cannot play is refused (the current one stays). Running jobs
// are cancelled and waited for, and queued book calls drained, before it
// returns: nothing is stored into the old book afterwards, so the caller
// may close it.
func (s *Session) SetStore(store BookStore) error {
	empty, err := board.NewBoard(store.Rules())
	if err != nil {
		return fmt.Errorf("book rules %v: %w", store.Rules(), err)
	}
	s.notes.flush() // into the old book
	s.prover.Stop()
	s.closeStore()
	s.prover.reset() // (the ends of its jobs, delivered later, are dropped)
	s.store = store
	s.storeCtx, s.storeEnd = context.WithCancel(context.Background())
	s.readOnly = ""
	if ro, ok := store.(ReadOnlyStore); ok {
		s.readOnly = ro.ReadOnly()
	}
	s.rules = store.Rules()
	s.empty = empty
	s.history.undo, s.history.redo = nil, nil
	s.cursor.reset()
	return nil
}

// closeStore cancels the book's calls and jobs and waits for them.
func (s *Session) closeStore() {
	if s.storeEnd != nil {
		s.storeEnd()
	}
	s.cancelJobs()
	s.calls.drain()
}

// Close cancels the jobs and waits for them and for the queued book calls.
func (s *Session) Close() {
	s.notes.flush()
	s.prover.Stop()
	s.closeStore()
}

// Abort cancels every job of the session, running or to come, and may be
// called from any goroutine (Close must not): the app's quit on a signal
// or a window close, which must not wait for the UI goroutine. A job
// returns as its cancellation allows (an import rolls back its open
// transaction and keeps the committed ones); Close still waits for it.
// Book calls, short, are not cancelled: Close still stores the notes
// typed.
func (s *Session) Abort() { s.abort() }

// Reload shows the current line again with fresh data from the book (after
// an import, for instance).
func (s *Session) Reload() { s.cursor.reload() }

// Store returns the book shown.
func (s *Session) Store() BookStore { return s.store }

// ReadOnly says why the book shown cannot be written ("" when it can).
func (s *Session) ReadOnly() string { return s.readOnly }

// Rules are the book's rules.
func (s *Session) Rules() game.Rules { return s.rules }

// refuseEdit reports (and returns true) when the book is read-only.
func (s *Session) refuseEdit(what string) bool {
	if s.readOnly == "" {
		return false
	}
	s.fail(fmt.Errorf("%s: the book is read-only (%s)", what, s.readOnly))
	return true
}

type posKey struct {
	hash uint64
	side game.Color
}

func keyOf(b *board.Board) posKey { return posKey{b.Hash(), b.ToMove()} }

// ColourName is "Black", "White" or "nobody".
func ColourName(c game.Color) string {
	switch c {
	case game.Black:
		return "Black"
	case game.White:
		return "White"
	}
	return "nobody"
}

// replay plays a line from the empty board; a turn with fewer stones than
// the rules place (a defender's null or seminull move of a λ3 proof) is
// played as a partial turn.
func replay(empty *board.Board, line []game.Move) (*board.Board, error) {
	b := empty.Clone() // shares the rules' geometry tables
	for i, m := range line {
		// PlayPartial checks a full turn exactly as Play does.
		if err := b.PlayPartial(m); err != nil {
			return b, fmt.Errorf("turn %d (%s): %w", i+1, game.MoveName(b.Rules(), m), err)
		}
	}
	return b, nil
}
