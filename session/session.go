// Package session is the workbench without its widgets: the line shown and
// the cursor on it, the pending stone of a two-stone turn, the undo stack,
// the status cache, the verifier and other long jobs, over one book. It
// imports no UI toolkit: the ui package renders it and turns input into its
// calls, and its tests drive it as plain Go.
//
// Every method runs on the UI goroutine. Book calls run off it (gateway.go)
// and long work runs as jobs (jobs.go); both come back through Do.
package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"c6book"
	"c6book/engine"
)

// Change says what a session change touched, for the view to redraw.
type Change int

// Changes.
const (
	ChangeBoard      Change = 1 << iota // the pending stone (the board only)
	ChangePosition                      // the position, its book data, the line's statuses
	ChangeVerify                        // the verifier's state or progress
	ChangeCandidates                    // the engine's candidates or their search
)

// Session is the model of one workbench window.
type Session struct {
	store    BookStore
	storeCtx context.Context
	storeEnd context.CancelFunc
	verifier Verifier
	do       func(func())

	// OnChange is told what changed (UI goroutine).
	OnChange func(Change)
	// OnError reports an error to the user (UI goroutine).
	OnError func(error)

	inline  bool
	pending int           // book calls not yet delivered
	tail    chan struct{} // closed when the last queued call has returned
	gen     int           // bumped when the shown position changes
	jobs    []*Job

	rules    engine.Rules
	readOnly string
	empty    *engine.Board
	line     []engine.Move // the current line from the root; may go past cur
	cur      int           // moves of line played to reach pos
	pos      *engine.Board
	pending1 engine.Square // first stone of a two-stone turn being entered
	attacker engine.Color
	// solvedMinOrder is the least λ order of the Solved list.
	solvedMinOrder int
	lambda         int
	marking        bool

	loaded   bool   // info and children are the shown position's
	infoFor  posKey // the position info and children were read for
	info     Position
	children []Child
	verdict  *c6book.Verdict
	status   map[posKey]c6book.Status // statuses of positions seen, for the line
	nkids    map[posKey]int           // stored replies of positions seen
	lineSt   []c6book.Status
	lineAlt  []int
	undo     []Edit

	verify     *Job
	verifyKey  posKey
	verifyLine []engine.Move // the line to the position verified
	verifyText string        // "", "storing…", "stopped", "error"

	auto autoState

	suggest    context.CancelFunc // stops the candidate search or the player (play)
	play       playState
	cands      []Candidate
	candsKey   posKey
	candsValid bool

	notesDelay time.Duration
	visit      int         // bumped each time a position is shown (goTo)
	draft      *notesDraft // notes typed and not yet stored
}

type posKey struct {
	hash uint64
	side engine.Color
}

func keyOf(b *engine.Board) posKey { return posKey{b.Hash(), b.ToMove()} }

// Edit is one undoable change to the book: undoing it stores back what it
// replaced.
type Edit struct {
	What      string // "move", "comment", "marks", "disproved", "hold", "replies"
	Line      []engine.Move
	Move      engine.Move
	Comment   string
	Label     string
	Marks     map[engine.Square]string
	Moves     []engine.Move // "replies": the replies a verdict added
	Attacker  engine.Color  // "disproved": the attacker of the mark
	Disproved bool          // "disproved": whether the position was marked before
	Held      bool          // "hold": whether the position was left to the expert before
	Describe  string

	typed bool // "comment": stored when typing paused (see flushNotes)
	visit int  // "comment": Session.visit when it was stored
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
	// NotesDelay is how long notes typed (EditNotes) wait for more typing
	// before they are stored (default 500 ms); leaving the position stores
	// them at once.
	NotesDelay time.Duration
}

// New makes a session over store showing its root (the book's answer
// comes through cfg.Do). It fails only if the store's rules are not
// playable.
func New(store BookStore, verifier Verifier, cfg Config) (*Session, error) {
	if cfg.Do == nil {
		return nil, errors.New("session: no Do")
	}
	s := &Session{verifier: verifier, do: cfg.Do, inline: cfg.Inline, pending1: engine.NoSquare, attacker: engine.Black, lambda: 2, solvedMinOrder: 1,
		notesDelay: cfg.NotesDelay}
	if s.notesDelay <= 0 {
		s.notesDelay = 500 * time.Millisecond
	}
	if err := s.SetStore(store); err != nil {
		return nil, err
	}
	return s, nil
}

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
	empty, err := engine.NewBoard(store.Rules())
	if err != nil {
		return fmt.Errorf("book rules %v: %w", store.Rules(), err)
	}
	s.FlushNotes() // into the old book
	s.Stop()
	if s.storeEnd != nil {
		s.storeEnd()
	}
	s.cancelJobs()
	s.drainCalls()
	s.verify, s.verifyText = nil, "" // its end is reported, if it failed, by finishVerify
	if s.play.job != nil {
		s.play.job, s.suggest = nil, nil // (finishPlay drops its end)
	}
	s.play.answer, s.play.text = nil, ""
	s.candsValid = false
	s.auto = autoState{} // the same for finishAuto
	s.store = store
	s.storeCtx, s.storeEnd = context.WithCancel(context.Background())
	s.readOnly = ""
	if ro, ok := store.(ReadOnlyStore); ok {
		s.readOnly = ro.ReadOnly()
	}
	s.rules = store.Rules()
	s.empty = empty
	s.undo = nil
	s.line = nil
	s.status, s.nkids = nil, nil
	s.infoFor = posKey{}
	s.goTo(nil, 0)
	return nil
}

// Close cancels the jobs and waits for them and for the queued book calls.
func (s *Session) Close() {
	s.FlushNotes()
	s.Stop()
	if s.storeEnd != nil {
		s.storeEnd()
	}
	s.cancelJobs()
	s.drainCalls()
}

// Reload shows the current line again with fresh data from the book (after
// an import, for instance).
func (s *Session) Reload() {
	s.status, s.nkids = nil, nil
	if _, err := replay(s.empty, s.line); err != nil {
		s.line = s.line[:s.cur]
	}
	s.goTo(s.line, s.cur)
}

// Store returns the book shown.
func (s *Session) Store() BookStore { return s.store }

// ReadOnly says why the book shown cannot be written ("" when it can).
func (s *Session) ReadOnly() string { return s.readOnly }

// Rules are the book's rules.
func (s *Session) Rules() engine.Rules { return s.rules }

// Line returns the current line and how many of its moves are played.
func (s *Session) Line() ([]engine.Move, int) {
	return append([]engine.Move(nil), s.line...), s.cur
}

// LineLen is the length of the current line.
func (s *Session) LineLen() int { return len(s.line) }

// LineMove is the i-th move (0-based) of the current line.
func (s *Session) LineMove(i int) engine.Move { return s.line[i] }

// Cur is the number of moves of the line played.
func (s *Session) Cur() int { return s.cur }

// Position returns the shown position (do not modify it).
func (s *Session) Position() *engine.Board { return s.pos }

// Children returns the stored moves out of the shown position (do not
// modify the slice); empty until the book has answered.
func (s *Session) Children() []Child { return s.children }

// Info returns what the book knows about the shown position.
func (s *Session) Info() Position { return s.info }

// Loaded reports whether Info and Children are the shown position's (the
// book has answered since the position changed).
func (s *Session) Loaded() bool { return s.loaded }

// Pending is the first stone of a two-stone turn being entered.
func (s *Session) Pending() engine.Square { return s.pending1 }

// Verdict is the verdict shown for the current position, if any.
func (s *Session) Verdict() *c6book.Verdict { return s.verdict }

// Attacker is the attacker the statuses and the prover refer to.
func (s *Session) Attacker() engine.Color { return s.attacker }

// Lambda is the verifier's mode (2 or 3).
func (s *Session) Lambda() int { return s.lambda }

// Marking reports whether taps label squares instead of playing.
func (s *Session) Marking() bool { return s.marking }

// SetMarking makes taps label squares (A, B, C…) instead of playing.
func (s *Session) SetMarking(on bool) { s.marking = on }

// SetAttacker chooses the attacker.
func (s *Session) SetAttacker(c engine.Color) {
	if c == s.attacker {
		return
	}
	s.attacker = c
	s.status = nil
	s.infoFor = posKey{} // the statuses are another attacker's
	s.refresh(true)
}

// SetLambda chooses λ2 or λ3 for Verify.
func (s *Session) SetLambda(l int) { s.lambda = l }

// LineStatus is the status of the position after the first i moves of the
// line (unknown until the book has answered).
func (s *Session) LineStatus(i int) c6book.Status {
	if i < len(s.lineSt) {
		return s.lineSt[i]
	}
	return c6book.StatusUnknown
}

// LineVariations is the number of stored moves, other than the line's, out
// of the position before move i (1-based) of the line; -1 when not known.
func (s *Session) LineVariations(i int) int {
	if i >= 1 && i-1 < len(s.lineAlt) && s.lineAlt[i-1] > 0 {
		return s.lineAlt[i-1] - 1
	}
	return -1
}

// refuseEdit reports (and returns true) when the book is read-only.
func (s *Session) refuseEdit(what string) bool {
	if s.readOnly == "" {
		return false
	}
	s.fail(fmt.Errorf("%s: the book is read-only (%s)", what, s.readOnly))
	return true
}

// goTo shows line[:cur] at once and asks the book about it.
func (s *Session) goTo(line []engine.Move, cur int) {
	b, err := replay(s.empty, line[:cur])
	if err != nil {
		s.fail(fmt.Errorf("cannot show the line: %w", err))
		return
	}
	s.FlushNotes() // notes typed are stored before the position changes
	s.visit++
	s.line = append([]engine.Move(nil), line...)
	s.cur = cur
	s.pos = b
	s.pending1 = engine.NoSquare
	s.refresh(false)
}

// lineRead is a position of the line whose status the book is asked for.
type lineRead struct {
	key  posKey
	b    *engine.Board
	kids bool // its replies are counted too (for the Line pane)
}

// refresh asks the book what it knows about the shown position (one
// Position and one Children call) and about the line's positions whose
// status is not cached (all of them with fullLine), off the UI goroutine.
// The board shows the new position at once, with what is cached.
func (s *Session) refresh(fullLine bool) {
	s.gen++
	gen := s.gen
	if s.status == nil {
		s.status = map[posKey]c6book.Status{}
	}
	if s.nkids == nil {
		// Kept when the statuses are read again (after an edit or a
		// verify): the Line pane keeps its sibling counts.
		s.nkids = map[posKey]int{}
	}
	s.loaded = false
	if s.infoFor != keyOf(s.pos) {
		// Another position: nothing of the last one's data is shown (a
		// reload of the same one keeps it until the answer comes).
		s.info, s.children, s.verdict, s.infoFor = Position{}, nil, nil, posKey{}
	}
	reads, replayErr := s.lineReads(fullLine)
	s.fillLine()
	s.changed(ChangePosition)
	pos, attacker := s.pos.Clone(), s.attacker
	s.call(func(ctx context.Context, store BookStore) func() {
		info, infoErr := store.Position(ctx, pos, attacker)
		ch, chErr := store.Children(ctx, pos, attacker)
		var st []c6book.Status
		nk := make([]int, len(reads)) // -1: not counted
		var readErr error
		for i, r := range reads {
			p, err := store.Position(ctx, r.b, attacker)
			if err != nil {
				readErr = fmt.Errorf("reading the line's position %d: %w", i, err)
				break
			}
			st = append(st, p.Status)
			nk[i] = -1
			if r.kids {
				kids, err := store.Children(ctx, r.b, attacker)
				if err != nil {
					readErr = fmt.Errorf("reading the line's position %d: %w", i, err)
					break
				}
				nk[i] = len(kids)
			}
		}
		return func() {
			s.fail(infoErr)
			s.fail(chErr)
			s.fail(readErr)
			s.fail(replayErr)
			for i, v := range st {
				s.status[reads[i].key] = v
				if nk[i] >= 0 {
					s.nkids[reads[i].key] = nk[i]
				}
			}
			if gen != s.gen {
				return // the user moved on: keep the statuses, drop the rest
			}
			s.info, s.children, s.verdict, s.loaded, s.infoFor = info, ch, info.Verdict, true, keyOf(s.pos)
			s.nkids[keyOf(s.pos)] = len(ch)
			s.status[keyOf(s.pos)] = info.Status
			s.fillLine()
			s.changed(ChangePosition)
		}
	})
}

// lineReads lists the line's positions whose status is to be read.
func (s *Session) lineReads(all bool) ([]lineRead, error) {
	var out []lineRead
	b := s.empty.Clone()
	for i := 0; i <= len(s.line); i++ {
		k := keyOf(b)
		_, known := s.status[k]
		_, counted := s.nkids[k]
		counted = counted || i == len(s.line) // nothing follows it on the line
		if (!known || !counted || all) && i != s.cur {
			out = append(out, lineRead{k, b.Clone(), !counted})
		}
		if i == len(s.line) {
			break
		}
		if err := b.PlayPartial(s.line[i]); err != nil {
			return out, fmt.Errorf("replaying the line's move %d: %w", i+1, err)
		}
	}
	return out, nil
}

// fillLine computes the line's statuses and variation counts from the
// caches.
func (s *Session) fillLine() {
	b := s.empty.Clone()
	s.lineSt = s.lineSt[:0]
	s.lineAlt = s.lineAlt[:0]
	for i := 0; i <= len(s.line); i++ {
		k := keyOf(b)
		if n, ok := s.nkids[k]; ok {
			s.lineAlt = append(s.lineAlt, n)
		} else {
			s.lineAlt = append(s.lineAlt, -1)
		}
		s.lineSt = append(s.lineSt, s.status[k])
		if i == len(s.line) || b.PlayPartial(s.line[i]) != nil {
			return
		}
	}
}

// TapSquare is a tap on q: it plays (two taps for a two-stone turn), or
// labels the square in marking mode.
func (s *Session) TapSquare(q engine.Square) {
	if s.marking {
		s.toggleMark(q)
		return
	}
	if q == s.pending1 {
		s.DropPending()
		return
	}
	if s.pos.At(q) != engine.Empty {
		return
	}
	if w := s.pos.Winner(); w != engine.Empty {
		s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	need := s.rules.StonesForTurn(s.pos.Turn())
	var m engine.Move
	switch {
	case need == 1:
		m = engine.NewMove(q)
	case s.pending1 == engine.NoSquare:
		s.pending1 = q
		s.changed(ChangeBoard)
		return
	default:
		m = engine.NewMove(s.pending1, q)
	}
	s.pending1 = engine.NoSquare
	s.PlayMove(m)
}

// DropPending drops a half-placed turn.
func (s *Session) DropPending() {
	if s.pending1 != engine.NoSquare {
		s.pending1 = engine.NoSquare
		s.changed(ChangeBoard)
	}
}

// PlayMove plays m from the shown position and shows the position after
// it; a move the book does not store is stored (an undoable edit) first.
func (s *Session) PlayMove(m engine.Move) {
	partial := m.Len() < s.rules.StonesForTurn(s.pos.Turn())
	if err := s.pos.Check(m, partial); err != nil {
		s.fail(err)
		s.changed(ChangeBoard)
		return
	}
	known := !s.loaded // not loaded yet: AddMove tells
	for _, c := range s.children {
		if c.Move == m {
			known = true
			break
		}
	}
	if s.loaded && known || s.readOnly != "" {
		// (A read-only book only shows the move: nothing is stored.)
		s.showAfter(m)
		return
	}
	// Stored first (book calls run in order), then the position after it
	// is read.
	prefix, b := s.prefix(), s.pos.Clone()
	s.call(func(ctx context.Context, store BookStore) func() {
		created, err := store.AddMove(ctx, b, m)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			if created {
				s.pushEdit(Edit{What: "move", Line: prefix, Move: m, Describe: "add " + engine.MoveName(s.rules, m)})
				s.status = nil            // statuses above may change
				delete(s.nkids, keyOf(b)) // one reply more
				s.refresh(true)
			}
		}
	})
	s.showAfter(m)
}

// showAfter shows the position after m, keeping the rest of the line when m
// is its next move.
func (s *Session) showAfter(m engine.Move) {
	line := append(s.prefix(), m)
	if s.cur < len(s.line) && s.line[s.cur] == m {
		line = s.line // keep the rest of the line
	}
	s.goTo(line, s.cur+1)
}

func (s *Session) prefix() []engine.Move {
	return append([]engine.Move(nil), s.line[:s.cur]...)
}

func (s *Session) pushEdit(e Edit) {
	s.undo = append(s.undo, e)
	if len(s.undo) > 200 {
		s.undo = s.undo[1:]
	}
}

// Undo takes back the last edit (a pending stone first).
func (s *Session) Undo() {
	if s.pending1 != engine.NoSquare {
		s.DropPending()
		return
	}
	s.FlushNotes() // notes typed are an edit too
	if len(s.undo) == 0 || s.refuseEdit("undo") {
		return
	}
	e := s.undo[len(s.undo)-1]
	b, err := replay(s.empty, e.Line)
	if err != nil {
		s.fail(err)
		return
	}
	s.undo = s.undo[:len(s.undo)-1]
	s.call(func(ctx context.Context, store BookStore) func() {
		var err error
		switch e.What {
		case "move":
			err = store.RemoveMove(ctx, b, e.Move)
		case "comment":
			err = store.SetComment(ctx, b, e.Comment)
			if err == nil {
				err = store.SetLabel(ctx, b, e.Label)
			}
		case "marks":
			err = store.SetMarks(ctx, b, e.Marks)
		case "disproved":
			err = store.SetDisproved(ctx, b, e.Attacker, e.Disproved)
		case "hold":
			err = undoHold(ctx, store, b, e)
		case "replies":
			for _, m := range e.Moves {
				if err = store.RemoveMove(ctx, b, m); err != nil {
					break
				}
			}
		}
		return func() {
			if err != nil {
				s.pushEdit(e)
				s.fail(fmt.Errorf("undo %s: %w", e.Describe, err))
				return
			}
			s.status = nil
			s.goTo(e.Line, len(e.Line))
		}
	})
}

// CanUndo describes the edit Undo would take back ("" when none).
func (s *Session) CanUndo() string {
	if len(s.undo) == 0 {
		return ""
	}
	return s.undo[len(s.undo)-1].Describe
}

// Back goes one move back along the line.
func (s *Session) Back() {
	if s.cur > 0 {
		s.goTo(s.line, s.cur-1)
	}
}

// Forward goes one move forward along the line, or, at the end of the
// line, into the most-played stored reply (the first listed on a tie).
func (s *Session) Forward() {
	if s.cur < len(s.line) {
		s.goTo(s.line, s.cur+1)
		return
	}
	if i := MostPlayed(s.children); i >= 0 {
		s.goTo(append(s.prefix(), s.children[i].Move), s.cur+1)
	}
}

// MostPlayed is the index of the reply most games went through (the first
// on a tie), -1 when there is none.
func MostPlayed(kids []Child) int {
	best := -1
	for i, c := range kids {
		if best < 0 || c.Games.Games > kids[best].Games.Games {
			best = i
		}
	}
	return best
}

// Home goes to the root, keeping the line.
func (s *Session) Home() { s.goTo(s.line, 0) }

// End goes to the end of the line.
func (s *Session) End() { s.goTo(s.line, len(s.line)) }

// GoToPly shows the first i moves of the current line.
func (s *Session) GoToPly(i int) {
	if i >= 0 && i <= len(s.line) {
		s.goTo(s.line, i)
	}
}

// GoToLine shows the end of line (from the root).
func (s *Session) GoToLine(line []engine.Move) { s.goTo(line, len(line)) }

// Sibling replaces the last move played by the previous (delta -1) or next
// (+1) stored alternative.
func (s *Session) Sibling(delta int) {
	if s.cur == 0 {
		return
	}
	parent, err := replay(s.empty, s.line[:s.cur-1])
	if err != nil {
		s.fail(err)
		return
	}
	gen, attacker, pb := s.gen, s.attacker, parent.Clone()
	s.call(func(ctx context.Context, store BookStore) func() {
		sibs, err := store.Children(ctx, pb, attacker)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			s.nkids[keyOf(parent)] = len(sibs)
			if gen != s.gen {
				return // the user moved on meanwhile
			}
			s.stepSibling(parent, sibs, delta)
		}
	})
}

func (s *Session) stepSibling(parent *engine.Board, sibs []Child, delta int) {
	// The book may store a symmetric image of the move played: match by
	// the position reached.
	want, _ := s.pos.CanonicalKey()
	i := -1
	for j, c := range sibs {
		if c.Move == s.line[s.cur-1] {
			i = j
			break
		}
		nb := parent.Clone()
		if nb.Play(c.Move) == nil && nb.ToMove() == s.pos.ToMove() {
			if k, _ := nb.CanonicalKey(); k == want {
				i = j
			}
		}
	}
	j := i + delta
	if i < 0 || j < 0 || j >= len(sibs) {
		return
	}
	line := append(append([]engine.Move(nil), s.line[:s.cur-1]...), sibs[j].Move)
	s.goTo(line, s.cur)
}

// SelectChild plays the i-th stored child.
func (s *Session) SelectChild(i int) {
	if i >= 0 && i < len(s.children) {
		s.PlayMove(s.children[i].Move)
	}
}

// OpenEntry shows a position found by a query: in the orientation of the
// user's line when that line meets the entry's line (the user is below or
// above it, or on a transposition of a position of it), else in the
// entry's own (stable) orientation.
func (s *Session) OpenEntry(e Entry) {
	if e.Line != nil {
		s.openLine(e.Line)
		return
	}
	s.call(func(ctx context.Context, store BookStore) func() {
		line, err := store.Resolve(ctx, e)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			s.openLine(line)
		}
	})
}

// openLine shows the end of line (from the root, any orientation) oriented
// by the user's line (orientLine).
func (s *Session) openLine(line []engine.Move) {
	out, cur, err := orientLine(s.empty, s.line, line)
	if err != nil {
		s.fail(err)
		return
	}
	s.goTo(out, cur)
}

// SaveNotes stores the comment and the label of the shown position now.
func (s *Session) SaveNotes(comment, label string) {
	if (comment != s.info.Comment || label != s.info.Label) && s.refuseEdit("save notes") {
		return
	}
	s.EditNotes(comment, label)
	s.flushNotes(false)
}

// afterEdit reloads the shown position if it is still b.
func (s *Session) afterEdit(b *engine.Board) {
	if keyOf(s.pos) == keyOf(b) {
		s.refresh(false)
	}
}

func (s *Session) toggleMark(q engine.Square) {
	if s.refuseEdit("label squares") {
		return
	}
	marks := map[engine.Square]string{}
	for k, v := range s.info.Marks {
		marks[k] = v
	}
	if _, ok := marks[q]; ok {
		delete(marks, q)
	} else {
		marks[q] = nextMarkLetter(marks)
	}
	old, b, prefix := s.info.Marks, s.pos.Clone(), s.prefix()
	// Shown at once; stored off the UI goroutine.
	s.info.Marks = marks
	s.changed(ChangeBoard)
	s.call(func(ctx context.Context, store BookStore) func() {
		err := store.SetMarks(ctx, b, marks)
		return func() {
			if err != nil {
				s.fail(err)
				s.afterEdit(b)
				return
			}
			s.pushEdit(Edit{What: "marks", Line: prefix, Marks: old, Describe: "board labels"})
			s.afterEdit(b)
		}
	})
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
func (s *Session) ToggleDisproved() {
	if s.refuseEdit("mark disproved") {
		return
	}
	on := s.info.Status != c6book.StatusDisproved
	b, a, prefix := s.pos.Clone(), s.attacker, s.prefix()
	s.call(func(ctx context.Context, store BookStore) func() {
		err := store.SetDisproved(ctx, b, a, on)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			what := "mark disproved"
			if !on {
				what = "clear disproved"
			}
			s.pushEdit(Edit{What: "disproved", Line: prefix, Attacker: a, Disproved: !on, Describe: what})
			s.status = nil
			if keyOf(s.pos) == keyOf(b) {
				s.refresh(true)
			}
		}
	})
}

// Next goes to the most-proving open position below the shown one (the
// shown one included), in the orientation of the user's line.
func (s *Session) Next() {
	a, b, prefix, gen := s.attacker, s.pos.Clone(), s.prefix(), s.gen
	s.call(func(ctx context.Context, store BookStore) func() {
		e, ok, err := store.Next(ctx, b, a)
		return func() {
			switch {
			case err != nil:
				s.fail(err)
			case !ok:
				s.fail(fmt.Errorf("no open position for %s below this one", ColourName(a)))
			case gen != s.gen:
				// The user moved on meanwhile.
			default:
				line := append(prefix, e.Line...)
				if len(e.Line) == 0 {
					line = s.line // here: keep the rest of the line
				}
				s.goTo(line, len(prefix)+len(e.Line))
				s.auto.nextText, s.auto.nextVisit = stuckText(s.rules, e), s.visit
				s.changed(ChangeAuto)
			}
		}
	})
}

// Search finds positions whose comment matches query; done gets them on the
// UI goroutine.
func (s *Session) Search(query string, done func([]Entry)) {
	a := s.attacker
	s.call(func(ctx context.Context, store BookStore) func() {
		es, err := store.Search(ctx, query, a, 500)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			done(es)
		}
	})
}

// SetSolvedMinOrder sets the least λ order LoadSolved lists (0 adds the
// game ends; the default 1 lists every proof).
func (s *Session) SetSolvedMinOrder(n int) { s.solvedMinOrder = max(n, 0) }

// SolvedMinOrder is the least λ order LoadSolved lists.
func (s *Session) SolvedMinOrder() int { return s.solvedMinOrder }

// LoadSolved lists the proved positions for the attacker of λ order at
// least SolvedMinOrder; done gets them on the UI goroutine.
func (s *Session) LoadSolved(done func([]Entry)) {
	a, minOrder := s.attacker, s.solvedMinOrder
	s.call(func(ctx context.Context, store BookStore) func() {
		es, err := store.Proved(ctx, a, minOrder, 2000)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			done(es)
		}
	})
}

// ErrNotDefenderToMove is returned when Verify is asked with the attacker to
// move: the verifier needs the attacker's move played first.
var ErrNotDefenderToMove = errors.New("the verifier needs the defender to move: play the attacker's move first")

// Verify starts the verifier on the shown position (the defender to move)
// as a job; Stop cancels it. The verdict is stored in the book (unsolved
// moves become children) and shown when it arrives.
func (s *Session) Verify() {
	if s.verify != nil {
		return
	}
	if s.verifier == nil {
		s.fail(errors.New("no verifier"))
		return
	}
	if s.refuseEdit("verify (its verdict is stored)") {
		return
	}
	if s.pos.ToMove() != s.attacker.Opp() {
		s.fail(fmt.Errorf("%w (attacker %s, %s to move)", ErrNotDefenderToMove,
			ColourName(s.attacker), ColourName(s.pos.ToMove())))
		return
	}
	if w := s.pos.Winner(); w != engine.Empty {
		s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	b, lambda, verifier := s.pos.Clone(), s.lambda, s.verifier
	s.verifyKey = keyOf(s.pos)
	s.verifyLine = s.prefix()
	s.verifyText = ""
	var v c6book.Verdict
	var added []engine.Move // the replies its verdict added to the book
	var job *Job
	job = s.Start(JobSpec{
		Kind: "verify",
		Run: func(ctx context.Context, store BookStore, progress func(Progress)) error {
			var err error
			v, err = verifier.Verify(ctx, b, lambda, progress)
			if err != nil {
				return err
			}
			v.Lambda = lambda
			progress(Progress{Phase: "storing", Text: "storing the verdict (Stop gives up if another program keeps the book locked)…"})
			// The verdict is stored even if the user moved on meanwhile;
			// while another program holds the book, the store waits for
			// it until it is stored or the user presses Stop.
			// The replies it added are an undoable edit (the verdict
			// itself stays: it is the verifier's, not the user's).
			added, err = store.StoreVerdict(ctx, b, v)
			return err
		},
		OnProgress: func(Progress) { s.changed(ChangeVerify) },
		OnDone: func(err error) {
			if err == nil && len(added) > 0 && job == s.verify && job.Store() == s.store {
				what := "verify's new reply"
				if len(added) > 1 {
					what = fmt.Sprintf("verify's %d new replies", len(added))
				}
				s.pushEdit(Edit{What: "replies", Line: s.verifyLine, Moves: added, Describe: what})
			}
			s.finishVerify(job, v, err)
		},
	})
	s.verify = job
	s.changed(ChangeVerify)
}

// Running reports whether a verification is running.
func (s *Session) Running() bool { return s.verify != nil }

// VerifyJob is the running verification (nil when none).
func (s *Session) VerifyJob() *Job { return s.verify }

// VerifyLine is the line to the position the running (or last)
// verification is about.
func (s *Session) VerifyLine() []engine.Move { return append([]engine.Move(nil), s.verifyLine...) }

// VerifyElsewhere reports whether a verification runs on another position
// than the one shown.
func (s *Session) VerifyElsewhere() bool { return s.verify != nil && keyOf(s.pos) != s.verifyKey }

// GoToVerify shows the position the running verification is about.
func (s *Session) GoToVerify() {
	if s.verify != nil {
		s.openLine(s.verifyLine)
	}
}

// VerifyText is what the last verification left to say ("stopped",
// "error"; "" when its verdict is shown).
func (s *Session) VerifyText() string { return s.verifyText }

// Stop cancels the running verification and candidate search (or the
// player's).
func (s *Session) Stop() {
	if s.verify != nil {
		s.verify.Cancel()
	}
	if s.suggest != nil {
		s.suggest()
	}
}

func (s *Session) finishVerify(job *Job, v c6book.Verdict, err error) {
	if job != s.verify || job.Store() != s.store {
		// Another book was opened meanwhile; the switch cancelled this
		// job and waited for it, so the verdict was stored there in full
		// or not at all. Say so unless it was the switch that stopped it.
		if err != nil && !errors.Is(err, context.Canceled) {
			s.fail(fmt.Errorf("verify (previous book): %w", err))
		}
		return
	}
	s.verify = nil
	if err != nil {
		if errors.Is(err, context.Canceled) {
			s.verifyText = "stopped"
		} else {
			s.verifyText = "error"
			s.fail(fmt.Errorf("verify: %w", err))
		}
		s.changed(ChangeVerify)
		return
	}
	s.status = nil
	delete(s.nkids, s.verifyKey) // its unsolved moves became replies
	s.changed(ChangeVerify)
	s.refresh(true)
	if keyOf(s.pos) == s.verifyKey {
		// Shown at once; the book's copy replaces it when it arrives
		// (unless the book gives it back without this one's counts).
		vv := v
		s.verdict = &vv
		gen := s.gen
		s.call(func(context.Context, BookStore) func() {
			return func() {
				if gen == s.gen && (s.verdict == nil || s.verdict.Calls != v.Calls || s.verdict.Nodes != v.Nodes) {
					s.verdict = &vv
					s.changed(ChangePosition)
				}
			}
		})
		s.changed(ChangePosition)
	}
}

// Suggest asks the engine for attacker moves in the shown position (the
// attacker to move), off the UI goroutine: the player's ranked moves with
// their scores and lines within PlayBudget when the verifier has a Player
// (PlayText sums them up), else the Suggester's candidates.
func (s *Session) Suggest() {
	pl, isPlayer := s.verifier.(Player)
	sg, ok := s.verifier.(Suggester)
	if !ok && !isPlayer || s.suggest != nil {
		return
	}
	if s.pos.ToMove() != s.attacker {
		s.fail(fmt.Errorf("candidates are attacker moves: %s is the attacker, %s is to move",
			ColourName(s.attacker), ColourName(s.pos.ToMove())))
		return
	}
	if why := NoMove(s.pos); why != "" {
		s.fail(errors.New(why))
		return
	}
	if isPlayer {
		s.startPlay(pl, false)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.suggest = cancel
	key := keyOf(s.pos)
	b := s.pos.Clone()
	do := s.do
	s.changed(ChangeCandidates)
	go func() {
		cs, err := sg.Candidates(ctx, b, 30)
		do(func() {
			cancel()
			s.suggest = nil
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					s.fail(fmt.Errorf("candidates: %w", err))
				}
				s.changed(ChangeCandidates)
				return
			}
			s.cands, s.candsKey, s.candsValid = cs, key, true
			s.changed(ChangeCandidates)
		})
	}()
}

// Suggesting reports whether a candidate search or the player (Suggest,
// PlayEngineMove) is running.
func (s *Session) Suggesting() bool { return s.suggest != nil }

// Candidates returns the engine's proposals for the shown position; ok is
// false when none were asked for it.
func (s *Session) Candidates() (cs []Candidate, ok bool) {
	if !s.candsValid || s.candsKey != keyOf(s.pos) {
		return nil, false
	}
	return append([]Candidate(nil), s.cands...), true
}

// ColourName is "Black", "White" or "nobody".
func ColourName(c engine.Color) string {
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
