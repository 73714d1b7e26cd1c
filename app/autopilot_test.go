package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/proofbook"
	"c6book/service"
	"c6book/session"
	"c6book/ui"
)

// smallBook is a fresh Connect(8,8,5,2,1) book in a temp dir, with small
// verifier jobs for its auto-pilot.
func smallBook(t testing.TB, name string) (*proofbook.Book, *service.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	bk, err := proofbook.Create(context.Background(), path, game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk, newStore(bk, threat.Limits{MaxNodes: 3000}), path
}

// The Auto job on a real book: the root's replies appear with their
// statuses as the verdicts are committed, Stop keeps them, and opening
// another book mid-run cancels the run and waits for it.
func TestAutoOnRealBook(t *testing.T) {
	test.NewTempApp(t)
	bk, st, _ := smallBook(t, "a.c6book")
	queue := make(chan func(), 10000)
	w := test.NewTempWindow(t, nil)
	wb, err := ui.NewWorkbenchConfig(st, engineVerifier{}, w, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Session().Close()
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	w.SetContent(wb.Content())
	s := wb.Session()
	pump := func(what string, cond func() bool) {
		t.Helper()
		for !cond() { // however long it takes: go test's -timeout is the guard
			(<-queue)()
		}
	}
	pump("the root", func() bool { return s.Busy() == 0 && s.Cursor().Loaded() })
	s.Prover().StartAuto(1, 0)
	if !s.Prover().AutoRunning() {
		t.Fatalf("the auto-pilot did not start: %v", errs)
	}
	known := func() int {
		n := 0
		for _, c := range s.Cursor().Children() {
			if c.Status == c6book.StatusProved || c.Status == c6book.StatusOpen {
				n++
			}
		}
		return n
	}
	pump("a verdict shown in the replies", func() bool { return known() > 0 })
	s.Prover().StopAuto()
	pump("the end of the run", func() bool { return !s.Prover().AutoRunning() })
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	calls := s.Prover().AutoProgress().Calls
	if calls == 0 {
		t.Fatalf("a verdict landed, yet %d calls", calls)
	}
	pump("the reload", func() bool { return s.Busy() == 0 })
	if known() == 0 {
		t.Fatal("Stop lost the stored verdicts")
	}

	// A switch mid-run.
	s.Prover().StartAuto(1, 0)
	job := s.Prover().AutoJob()
	_, other, _ := smallBook(t, "b.c6book")
	if err := wb.Session().SetStore(other); err != nil {
		t.Fatal(err)
	}
	job.Wait() // returned before SetStore did
	if s.Prover().AutoRunning() {
		t.Fatal("still running after the switch")
	}
	before, err := bk.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pump("the old run's end", func() bool { return len(s.Jobs()) == 0 })
	if after, _ := bk.Stats(context.Background()); after.Verdicts != before.Verdicts || after.Positions != before.Positions {
		t.Fatalf("the old book changed after the switch: %+v, then %+v", before, after)
	}
	if len(errs) > 0 {
		t.Fatal(errs)
	}
}

// Leave to me on a real book is stored (the auto-pilot's Held) and
// undoable, and Next at a held position says the auto-pilot is stuck there.
func TestHoldAndNextOnRealBook(t *testing.T) {
	test.NewTempApp(t)
	ctx := context.Background()
	bk, st, _ := smallBook(t, "h.c6book")
	turns, err := game.ParseTurns(bk.Rules(), "e5")
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddLine(ctx, turns)
	if err != nil {
		t.Fatal(err)
	}
	id := l.IDs[1]
	queue := make(chan func(), 10000)
	wb, err := ui.NewWorkbenchConfig(st, engineVerifier{}, nil, session.Config{Do: func(f func()) { queue <- f }, Inline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Session().Close()
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	s := wb.Session()
	wb.Cursor().GoToLine(turns)
	s.History().ToggleHold()
	if held, err := bk.Held(ctx, id, game.Black); err != nil || !held || !s.Cursor().Info().Held {
		t.Fatalf("held in the book %v (%v), shown %v, errors %v", held, err, s.Cursor().Info().Held, errs)
	}
	s.Cursor().Next()
	if txt := s.Cursor().HoldText(); !strings.Contains(txt, "Left to you") || !strings.Contains(txt, "here: left to the expert") {
		t.Fatalf("at the held position after Next: %q (errors %v)", txt, errs)
	}
	s.History().Undo()
	if held, err := bk.Held(ctx, id, game.Black); err != nil || held || s.Cursor().Info().Held {
		t.Fatalf("after undo: held %v (%v), shown %v", held, err, s.Cursor().Info().Held)
	}
	if len(errs) > 0 {
		t.Fatal(errs)
	}
}
