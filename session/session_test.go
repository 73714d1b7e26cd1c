package session_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
	"c6book/session/sessiontest"
)

// fixture drives a session as the UI goroutine would: results of
// background work come back through a queue that the test drains.
type fixture struct {
	t       *testing.T
	s       *session.Session
	store   *sessiontest.Store
	queue   chan func()
	errs    []error
	changes []session.Change
}

func newFixture(t *testing.T, v session.Verifier, inline bool) *fixture {
	t.Helper()
	f := &fixture{t: t, store: sessiontest.NewStore(game.Connect6()), queue: make(chan func(), 10000)}
	s, err := session.New(f.store, v, session.Config{Do: func(fn func()) { f.queue <- fn }, Inline: inline})
	if err != nil {
		t.Fatal(err)
	}
	s.OnError = func(err error) { f.errs = append(f.errs, err) }
	s.OnChange = func(c session.Change) { f.changes = append(f.changes, c) }
	f.s = s
	t.Cleanup(s.Close)
	return f
}

// pumpUntil runs queued results until cond holds (what names it).
func (f *fixture) pumpUntil(what string, cond func() bool) {
	f.t.Helper()
	for !cond() { // however long it takes: go test's -timeout is the guard
		(<-f.queue)()
	}
}

// settle delivers every book call made so far.
func (f *fixture) settle() { f.pumpUntil("the book's answers", func() bool { return f.s.Busy() == 0 }) }

func (f *fixture) mv(name string) game.Move {
	m, err := game.ParseMove(f.s.Rules(), name)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

func (f *fixture) sq(name string) game.Square {
	q, err := game.ParseSquare(f.s.Rules(), name)
	if err != nil {
		f.t.Fatal(err)
	}
	return q
}

func (f *fixture) line() string {
	line, cur := f.s.Cursor().Line()
	return game.FormatTurns(f.s.Rules(), line[:cur])
}

func (f *fixture) noErrors() {
	f.t.Helper()
	if len(f.errs) > 0 {
		f.t.Fatalf("errors: %v", f.errs)
	}
}

func (f *fixture) play(moves ...string) {
	for _, m := range moves {
		f.s.Cursor().PlayMove(f.mv(m))
	}
}

func TestLineAndNavigation(t *testing.T) {
	f := newFixture(t, nil, true)
	// Taps: one stone on Black's first turn, then two.
	f.s.Cursor().TapSquare(f.sq("j10"))
	f.s.Cursor().TapSquare(f.sq("k10"))
	if f.s.Cursor().Pending() != f.sq("k10") || f.line() != "j10" {
		t.Fatalf("after one stone of White's turn: pending %v, line %q", f.s.Cursor().Pending(), f.line())
	}
	f.s.Cursor().TapSquare(f.sq("k11"))
	f.play("l11l12", "m12m13")
	if got := f.line(); got != "j10 k10k11 l11l12 m12m13" {
		t.Fatalf("line %q", got)
	}
	f.s.Cursor().Back()
	f.s.Cursor().Back()
	if got := f.line(); got != "j10 k10k11" {
		t.Fatalf("after two Backs: %q", got)
	}
	if line, cur := f.s.Cursor().Line(); len(line) != 4 || cur != 2 {
		t.Fatalf("the line is kept beyond the cursor: %d moves, cursor %d", len(line), cur)
	}
	f.s.Cursor().Forward()
	if got := f.line(); got != "j10 k10k11 l11l12" {
		t.Fatalf("Forward: %q", got)
	}
	f.s.Cursor().Home()
	if f.s.Cursor().Cur() != 0 || f.s.Cursor().LineLen() != 4 {
		t.Fatalf("Home: cursor %d, line %d", f.s.Cursor().Cur(), f.s.Cursor().LineLen())
	}
	f.s.Cursor().End()
	if f.s.Cursor().Cur() != 4 {
		t.Fatalf("End: cursor %d", f.s.Cursor().Cur())
	}
	f.s.Cursor().GoToPly(1)
	// A sibling: another White reply; ↓ steps to it and back.
	f.play("a1a2")
	f.s.Cursor().GoToPly(1)
	f.s.Cursor().Forward() // along the line: a1a2 replaced the old continuation
	if got := f.line(); got != "j10 a1a2" {
		t.Fatalf("the line after playing another reply: %q", got)
	}
	f.s.Cursor().Sibling(-1)
	f.s.Cursor().Sibling(+1)
	first := f.line()
	f.s.Cursor().Sibling(-1)
	if second := f.line(); second == first || !strings.HasPrefix(second, "j10 ") {
		t.Fatalf("sibling steps: %q then %q", first, second)
	}
	// Statuses and variations along the line come from the caches.
	if f.s.Cursor().LineVariations(2) != 1 {
		t.Fatalf("variations at White's reply: %d", f.s.Cursor().LineVariations(2))
	}
	f.noErrors()
}

func TestUndo(t *testing.T) {
	f := newFixture(t, nil, true)
	f.play("j10", "k10k11")
	if got := f.s.History().CanUndo(); got != "add k10k11" {
		t.Fatalf("CanUndo %q", got)
	}
	f.s.Notes().Save("a trap", "trap")
	if got := f.s.History().CanUndo(); got != "notes" {
		t.Fatalf("CanUndo %q after notes", got)
	}
	f.s.History().Undo()
	if f.s.Cursor().Info().Comment != "" || f.s.Cursor().Info().Label != "" {
		t.Fatalf("notes after undo: %+v", f.s.Cursor().Info())
	}
	f.s.History().Undo()
	if got := f.line(); got != "j10" || len(f.s.Cursor().Children()) != 0 {
		t.Fatalf("after undoing the move: line %q, %d children", got, len(f.s.Cursor().Children()))
	}
	f.s.History().Undo()
	if f.line() != "" || f.s.History().CanUndo() != "" || len(f.s.Cursor().Children()) != 0 {
		t.Fatalf("after undoing everything: line %q, undo %q, %d children", f.line(), f.s.History().CanUndo(), len(f.s.Cursor().Children()))
	}
	// A pending stone goes first.
	f.play("j10")
	f.s.Cursor().TapSquare(f.sq("a1"))
	f.s.History().Undo()
	if f.s.Cursor().Pending() != game.NoSquare || f.line() != "j10" {
		t.Fatalf("undo of a pending stone: pending %v, line %q", f.s.Cursor().Pending(), f.line())
	}
	f.noErrors()
}

// Navigation shows the new position at once; the book's answer arrives
// later, in order, and an answer for a position left meanwhile is dropped.
func TestNavigationIsAsynchronous(t *testing.T) {
	f := newFixture(t, nil, false)
	f.settle()
	f.play("j10")
	f.settle()
	f.s.Notes().Save("the root's child", "")
	f.settle()
	f.s.Cursor().Home()
	if f.s.Cursor().Loaded() || f.s.Cursor().Cur() != 0 {
		t.Fatalf("Home: loaded %v before the book answered, cursor %d", f.s.Cursor().Loaded(), f.s.Cursor().Cur())
	}
	f.s.Cursor().End()
	f.s.Cursor().Home()
	f.s.Cursor().End()
	if f.s.Cursor().Position().Stones(game.Black) != 1 {
		t.Fatal("the board does not show the position at once")
	}
	f.settle()
	if !f.s.Cursor().Loaded() || f.s.Cursor().Info().Comment != "the root's child" {
		t.Fatalf("after the answers: loaded %v, info %+v", f.s.Cursor().Loaded(), f.s.Cursor().Info())
	}
	f.noErrors()
}

// blockingVerifier reports progress, then waits until released or
// cancelled; returned is set when Verify has returned.
type blockingVerifier struct {
	sessiontest.Verifier
	returned atomic.Bool
}

func (v *blockingVerifier) Verify(ctx context.Context, b *board.Board, lambda int, progress func(session.Progress)) (c6book.Verdict, error) {
	defer v.returned.Store(true)
	return v.Verifier.Verify(ctx, b, lambda, progress)
}

func TestVerifyJobLifeCycle(t *testing.T) {
	fv := &blockingVerifier{Verifier: sessiontest.Verifier{Unsolved: []string{"a1a2"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}}
	f := newFixture(t, fv, true)
	f.play("j10")
	f.s.Prover().Verify()
	if !f.s.Prover().Running() || f.s.Prover().VerifyJob() == nil || f.s.Prover().VerifyJob().Kind != "verify" {
		t.Fatal("verify did not start a job")
	}
	<-fv.Started
	// Progress comes through Do.
	f.pumpUntil("progress", func() bool { return f.s.Prover().VerifyJob().Progress().Phase == "null" })
	f.s.Prover().Verify() // a second Verify while one runs is ignored
	if len(f.s.Jobs()) != 1 {
		t.Fatalf("%d jobs", len(f.s.Jobs()))
	}
	close(fv.Release)
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	f.settle()
	v := f.s.Cursor().Verdict()
	if v == nil || v.Proved() || len(v.Unsolved) != 1 || f.s.Cursor().Info().Status != c6book.StatusOpen {
		t.Fatalf("verdict %+v, status %v", v, f.s.Cursor().Info().Status)
	}
	if len(f.s.Cursor().Children()) != 1 || f.s.Cursor().Children()[0].Move != f.mv("a1a2") {
		t.Fatalf("the unsolved move is not a child: %+v", f.s.Cursor().Children())
	}
	if len(f.s.Jobs()) != 0 {
		t.Fatalf("%d jobs after the end", len(f.s.Jobs()))
	}
	f.noErrors()
}

func TestVerifyJobStop(t *testing.T) {
	fv := &blockingVerifier{Verifier: sessiontest.Verifier{Release: make(chan struct{}), Started: make(chan *board.Board, 1)}}
	f := newFixture(t, fv, true)
	f.play("j10")
	f.s.Prover().Verify()
	<-fv.Started
	f.s.Prover().Stop()
	f.pumpUntil("the stop", func() bool { return !f.s.Prover().Running() })
	if f.s.Prover().VerifyText() != "stopped" || f.s.Cursor().Verdict() != nil {
		t.Fatalf("after Stop: %q, verdict %v", f.s.Prover().VerifyText(), f.s.Cursor().Verdict())
	}
	if n := f.store.Node(f.s.Cursor().Position(), false); n == nil || len(n.Verdict) != 0 {
		t.Fatalf("a stopped verification stored a verdict: %+v", n)
	}
	f.noErrors()
}

// Switching books mid-job cancels the job and waits until it has
// returned: nothing is stored into the old book afterwards, and the new
// one shows nothing of it.
func TestVerifyJobBookSwitched(t *testing.T) {
	fv := &blockingVerifier{Verifier: sessiontest.Verifier{Unsolved: []string{"a1a2"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}}
	f := newFixture(t, fv, true)
	f.play("j10")
	f.s.Prover().Verify()
	<-fv.Started
	other := sessiontest.NewStore(game.Connect6())
	if err := f.s.SetStore(other); err != nil {
		t.Fatal(err)
	}
	if !fv.returned.Load() {
		t.Fatal("SetStore returned before the verifier did")
	}
	if f.s.Prover().Running() || f.s.Store() != session.BookStore(other) {
		t.Fatalf("after the switch: running %v", f.s.Prover().Running())
	}
	close(fv.Release)
	f.pumpUntil("the old job's end", func() bool { return len(f.s.Jobs()) == 0 })
	if f.s.Cursor().Verdict() != nil || f.line() != "" || other.Len() != 1 {
		t.Fatalf("the new book shows the old job: verdict %v, line %q, %d positions", f.s.Cursor().Verdict(), f.line(), other.Len())
	}
	if n := f.store.Node(board.MustNewBoard(game.Connect6()), false); n == nil {
		t.Fatal("the old book lost its root")
	}
	f.noErrors() // cancelled by the switch: nothing to report
}

// failingStore fails StoreVerdict.
type failingStore struct{ *sessiontest.Store }

func (failingStore) StoreVerdict(context.Context, *board.Board, c6book.Verdict) (session.VerdictStored, error) {
	return session.VerdictStored{}, errors.New("disk full")
}

// A verdict that cannot be stored is reported.
func TestVerifyStoreFailureReported(t *testing.T) {
	fv := &sessiontest.Verifier{Unsolved: []string{"a1a2"}}
	f := newFixture(t, fv, true)
	if err := f.s.SetStore(failingStore{f.store}); err != nil {
		t.Fatal(err)
	}
	f.play("j10")
	f.s.Prover().Verify()
	f.pumpUntil("the end", func() bool { return !f.s.Prover().Running() })
	if len(f.errs) != 1 || !strings.Contains(f.errs[0].Error(), "disk full") || f.s.Prover().VerifyText() != "error" {
		t.Fatalf("errors %v, text %q", f.errs, f.s.Prover().VerifyText())
	}
}

// A generic job reports progress and its end on the UI goroutine, and is
// cancelled by Close.
func TestJobProgressAndCancel(t *testing.T) {
	f := newFixture(t, nil, true)
	var got []string
	var end error
	ended := false
	started := make(chan struct{})
	var jobStore session.BookStore
	j := f.s.Start(session.JobSpec{
		Kind: session.JobBook,
		Run: func(ctx context.Context, store session.BookStore, progress func(session.Progress)) error {
			jobStore = store
			progress(session.Progress{Text: "1000 moves"})
			close(started)
			<-ctx.Done()
			return ctx.Err()
		},
		OnProgress: func(p session.Progress) { got = append(got, p.Text) },
		OnDone:     func(err error) { end, ended = err, true },
	})
	<-started
	f.pumpUntil("progress", func() bool { return len(got) == 1 })
	if jobStore != session.BookStore(f.store) || len(f.s.Jobs()) != 1 {
		t.Fatal("the job is not listed on its book")
	}
	j.Cancel()
	f.pumpUntil("the end", func() bool { return ended })
	if !errors.Is(end, context.Canceled) || got[0] != "1000 moves" || len(f.s.Jobs()) != 0 {
		t.Fatalf("end %v, progress %v, %d jobs", end, got, len(f.s.Jobs()))
	}
}

// Verify ends with a summary: the verdict stored, unsolved before → after
// and the replies it added.
func TestVerifySummary(t *testing.T) {
	fv := &sessiontest.Verifier{Unsolved: []string{"a1a2", "b1b2"}}
	f := newFixture(t, fv, true)
	f.play("j10")
	f.s.Prover().Verify()
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	sum, ok := f.s.Prover().Summary()
	if !ok || sum.Kind != "verify" || sum.Stop != "done" || !sum.AfterRead {
		t.Fatalf("summary %+v (ok %v)", sum, ok)
	}
	if sum.Before.Unsolved != -1 || sum.After.Unsolved != 2 || sum.Before.Replies != 0 || sum.After.Replies != 2 || sum.Calls != 4 {
		t.Fatalf("before %+v after %+v calls %d", sum.Before, sum.After, sum.Calls)
	}
	if len(sum.Changed) != 2 || !sum.Changed[0].New {
		t.Fatalf("changed %+v", sum.Changed)
	}
	text := summaryText(sum, game.Connect6())
	for _, want := range []string{"Verify (Black, λ2) at 1. j10: verdict stored", "unsolved no verdict → 2", "a1a2 new", "4 verifier calls"} {
		if !strings.Contains(text, want) {
			t.Fatalf("summary %q lacks %q", text, want)
		}
	}
	f.noErrors()
}

// A verify that added no reply (a proved verdict) is undoable too:
// undone, the position has no verdict and its status is as before.
func TestUndoProvedVerify(t *testing.T) {
	f := newFixture(t, &sessiontest.Verifier{}, true)
	f.play("j10")
	before := f.s.Cursor().Info().Status
	f.s.Prover().Verify()
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	if v := f.s.Cursor().Verdict(); v == nil || !v.Proved() {
		t.Fatalf("verdict %+v, want a proved one", v)
	}
	if f.s.Cursor().Info().Status == before {
		t.Fatalf("the proved verdict left the status %s: the test means nothing", before)
	}
	if got := f.s.History().CanUndo(); got != "verify" {
		t.Fatalf("CanUndo %q, want verify", got)
	}
	f.s.History().Undo()
	f.settle()
	if v := f.s.Cursor().Verdict(); v != nil || f.s.Cursor().Info().Status != before {
		t.Fatalf("after undo: verdict %+v, status %s; want none, %s", v, f.s.Cursor().Info().Status, before)
	}
	if n := f.store.Node(f.s.Cursor().Position(), false); n == nil || len(n.Verdict) != 0 {
		t.Fatalf("the book keeps a verdict: %+v", n)
	}
	if got := f.s.History().CanUndo(); got != "add j10" {
		t.Fatalf("CanUndo %q after undo, want add j10", got)
	}
	f.noErrors()
}

// A verify whose verdict was replaced since (by another program, the
// auto-pilot) cannot be undone: the book refuses, nothing changes, and the
// edit leaves the undo stack instead of blocking it.
func TestUndoVerifyReplacedSince(t *testing.T) {
	f := newFixture(t, &sessiontest.Verifier{Unsolved: []string{"a1a2"}}, true)
	f.play("j10")
	f.s.Prover().Verify()
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	if got := f.s.History().CanUndo(); got != "verify's new reply" {
		t.Fatalf("CanUndo %q", got)
	}
	b := f.s.Cursor().Position().Clone()
	later, err := (&sessiontest.Verifier{}).Verify(t.Context(), b, 2, func(session.Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.StoreVerdict(t.Context(), b, later); err != nil {
		t.Fatal(err)
	}
	f.s.History().Undo()
	f.settle()
	if len(f.errs) != 1 || !errors.Is(f.errs[0], c6book.ErrVerdictChanged) {
		t.Fatalf("errors %v, want the verdict changed since", f.errs)
	}
	f.errs = nil
	if n := f.store.Node(b, false); n == nil || n.Verdict[game.Black] == nil || !n.Verdict[game.Black].Proved() {
		t.Fatalf("the later verdict is gone: %+v", n)
	}
	if got := f.s.History().CanUndo(); got != "add j10" {
		t.Fatalf("CanUndo %q after the refused undo, want add j10", got)
	}
}
