package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// findButton returns the first button under root whose text starts with
// prefix (nil when none).
func findButton(root fyne.CanvasObject, prefix string) *widget.Button {
	var found *widget.Button
	walkObjects(root, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && strings.HasPrefix(b.Text, prefix) {
			found = b
		}
		return found == nil
	})
	return found
}

// The whole window on a real book: Verify stores a certified open verdict
// and its replies; the toolbar's "Undo verify's N new replies" gives the
// book back as it was (no replies, no verdict, the statuses as before),
// and the book still checks.
func TestUndoVerifyRealBook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "undo.c6book")
	bk, err := proofbook.Create(context.Background(), path, small)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	ta := startApp(t, test.NewTempApp(t), options{book: path})
	wb := ta.wa.wb
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	ta.tap("e4", "c5", "g5", "d3", "g4")
	if got := ta.line(); got != "e4 c5g5 d3g4" {
		t.Fatalf("opening: %q", got)
	}
	ctx := context.Background()
	book := ta.wa.bk.Proofbook()
	id, _, err := book.Locate(ctx, wb.Cursor().Position())
	if err != nil {
		t.Fatal(err)
	}
	// The statuses on the line, for both attackers.
	statuses := func() string {
		var out []string
		for _, l := range []string{"", "e4", "e4 c5g5", "e4 c5g5 d3g4"} {
			b, err := board.ReplayText(small, l)
			if err != nil {
				t.Fatal(err)
			}
			pid, _, err := book.Locate(ctx, b)
			if err != nil {
				t.Fatal(err)
			}
			p, err := book.Position(ctx, pid)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p.Proof(game.Black).Status.String()+"/"+p.Proof(game.White).Status.String())
		}
		return strings.Join(out, " ")
	}
	before := statuses()

	wb.Prover().Verify()
	ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
	v := wb.Cursor().Verdict()
	if v == nil || v.Status != c6book.StatusOpen || v.Cert == nil {
		t.Fatalf("verdict %+v: the test needs a certified open verdict", v)
	}
	n := len(wb.Cursor().Children())
	if n == 0 {
		t.Fatal("the verdict added no replies")
	}
	if statuses() == before {
		t.Fatalf("the verdict changed no status (%s): the test means nothing", before)
	}
	undo := findButton(ta.wa.win.Content(), "Undo")
	if undo == nil || undo.Disabled() || !strings.HasPrefix(wb.UndoText(), "verify") {
		t.Fatalf("no enabled Undo button saying “verify…” in the toolbar (%v, %q)", undo, wb.UndoText())
	}
	t.Logf("toolbar: %q %q", undo.Text, wb.UndoText())
	test.Tap(undo) // book calls run inline here: done when Tap returns
	if len(errs) > 0 {
		t.Fatalf("undo: %v", errs)
	}
	if d := wb.History().CanUndo(); d != "add d3g4" {
		t.Errorf("after undo the stack offers %q, want the move before the verify", d)
	}

	kids, err := book.Children(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := book.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != 0 || p.Verdict != nil {
		t.Errorf("the book after undo: %d replies, verdict %+v; want none", len(kids), p.Verdict)
	}
	if got := statuses(); got != before {
		t.Errorf("statuses after undo %s, before the verify %s", got, before)
	}
	if wb.Cursor().Verdict() != nil {
		t.Error("the window still shows a verdict")
	}
	rep, err := book.Check(ctx)
	if err != nil || !rep.OK() {
		t.Errorf("Check after undo: %v, %v", rep.Problems, err)
	}
	if ok, err := book.ProofsChecked(ctx); err != nil || !ok {
		t.Errorf("proof digest after undo: %v, %v", ok, err)
	}
}
