package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// While the book's answer is on its way the workbench shows no state it
// has not been told: a stored position is not "not in the book" nor
// "unknown", and after Undo of a verify that proved it the position does
// not read "PROVED"; once the answer comes, the book's state shows.
func TestNoWrongStateWhileLoading(t *testing.T) {
	test.NewTempApp(t)
	r := game.Connect6()
	store := newFakeStore(r)
	queue := make(chan func(), 10000)
	fv := &fakeVerifier{} // no unsolved move: proved
	wb, err := NewWorkbenchConfig(store, fv, nil, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	test.NewTempWindow(t, wb.Content())
	drain := func(cond func() bool) {
		for !cond() {
			(<-queue)()
		}
	}
	loaded := func() bool { return wb.Cursor().Loaded() && wb.s.Busy() == 0 }
	drain(loaded)
	line, err := game.ParseTurns(r, "j10 k10k11")
	if err != nil {
		t.Fatal(err)
	}
	b := board.MustNewBoard(r)
	for _, m := range line {
		if _, err := store.AddMove(t.Context(), b, m); err != nil {
			t.Fatal(err)
		}
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	wb.Cursor().GoToLine(line)
	if st := wb.ui.statusL.Text; wb.Cursor().Loaded() || strings.Contains(st, "not in the book") || strings.Contains(st, "unknown") {
		t.Fatalf("while loading (loaded %v) the status line says %q", wb.Cursor().Loaded(), st)
	}
	drain(loaded)
	if st := wb.ui.statusL.Text; strings.Contains(st, "not in the book") || !strings.Contains(st, "unknown for Black") {
		t.Fatalf("loaded, the status line says %q", st)
	}

	// Verify proves it; Undo takes the verdict back.
	wb.SetAttacker(game.White)
	wb.Prover().Verify()
	drain(func() bool { return !wb.Prover().Running() && loaded() })
	if v := wb.ui.verdictL.Text; !strings.HasPrefix(v, "PROVED") {
		t.Fatalf("after a verify that proves: %q (errors %v)", v, errs)
	}
	if d := wb.History().CanUndo(); !strings.HasPrefix(d, "verify") {
		t.Fatalf("Undo offers %q", d)
	}
	wb.History().Undo()
	// The verdict is taken back; the position is read again.
	drain(func() bool { return !wb.Cursor().Loaded() })
	if v, st := wb.ui.verdictL.Text, wb.ui.statusL.Text; strings.Contains(v, "PROVED") || strings.Contains(st, "proved") {
		t.Fatalf("after Undo, reading the book: verdict %q, status %q", v, st)
	}
	drain(loaded)
	if v := wb.ui.verdictL.Text; strings.Contains(v, "PROVED") || v == "Reading the book…" {
		t.Fatalf("after Undo, loaded: verdict %q", v)
	}
	for _, err := range errs {
		t.Errorf("unexpected error: %v", err)
	}
}
