package main

import (
	"context"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine/game"
	"c6book/proofbook"
)

// The status bar keeps its height whether or not a job's queue line shows:
// the board stays where it is, the same size, before, during and after a
// verification whose queue line comes and goes.
func TestStatusLineKeepsTheBoardStill(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "small.c6book")
	bk, err := proofbook.Create(context.Background(), path, small)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: path})
	wb := ta.wa.wb
	ta.tap("e4", "c5", "g5")
	ta.pumpUntil("the book's answers", func() bool { return wb.Session().Busy() == 0 })
	board := wb.BoardWidget()
	d := fyne.CurrentApp().Driver()
	rect := func() (fyne.Position, fyne.Size) { return d.AbsolutePositionForObject(board), board.Size() }
	pos0, size0 := rect()
	if size0.Width <= 0 || size0.Height <= 0 {
		t.Fatalf("the board is not laid out: %v", size0)
	}
	same := func(when string) {
		t.Helper()
		ta.wa.win.Content().Refresh()
		if pos, size := rect(); pos != pos0 || size != size0 {
			t.Fatalf("%s: the board is at %v, %v; it was at %v, %v", when, pos, size, pos0, size0)
		}
	}
	wb.SetAttacker(game.White) // White has just moved: Black, the defender, is to move
	wb.Prover().Verify()
	if !wb.Prover().Running() {
		t.Fatal("verify did not start")
	}
	ta.wa.setStatus("Verifier queue: 1 worker (2 slots) · 0 queued · 1 running · 0 done · 0.00 jobs/s")
	same("the queue line shown while verifying")
	ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
	ta.wa.setStatus("")
	same("the queue line gone after the verdict")
	if ta.wa.status.Text != "" {
		t.Fatalf("status %q", ta.wa.status.Text)
	}
}
