package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/engine"
)

// The layout stays put through a verify report at 1280×860: the board,
// the buttons (Suggest, Verify) and the lists (Line, Replies, Unsolved,
// Engine candidates) keep their places and sizes before, during and after
// a run that leaves a dozen unsolved moves and its summary, the workbench
// asks for no more than the window (the window never grows by itself),
// each list has room for 8 rows or more, and the window renders as its
// golden images before and after (testdata/layout_*.png).
func TestGoldenLayoutStaysThroughVerifyReport(t *testing.T) {
	var unsolved []string
	for _, m := range []string{"a1a2", "b1b2", "c1c2", "d1d2", "e1e2", "f1f2", "g1g2", "h1h2", "a19b19", "c19d19", "e19f19", "g19h19"} {
		unsolved = append(unsolved, m)
	}
	fv := &fakeVerifier{Unsolved: unsolved, Release: make(chan struct{}), Started: make(chan *engine.Board, 1)}
	h := newHarness(t, engine.Connect6(), fv)
	size := fyne.NewSize(1280, 860)
	h.w.Resize(size)
	h.tap("j10", "k10", "k11", "l11", "l12")
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })

	d := fyne.CurrentApp().Driver()
	objs := map[string]fyne.CanvasObject{
		"board": h.wb.BoardWidget(), "Suggest": h.wb.ui.suggestB, "Verify": h.wb.ui.verifyB, "Next": h.wb.ui.nextB,
		"Line": h.wb.ui.lineList, "Replies": h.wb.ui.kidList, "Unsolved": h.wb.ui.unsolvedL, "candidates": h.wb.ui.candList,
	}
	places := func() map[string]string {
		out := map[string]string{}
		for n, o := range objs {
			out[n] = fmt.Sprintf("%v %v", d.AbsolutePositionForObject(o), o.Size())
		}
		return out
	}
	same := func(when string, was map[string]string) {
		t.Helper()
		if min := h.wb.Content().MinSize(); min.Width > size.Width || min.Height > size.Height {
			t.Errorf("%s: the workbench asks for %v, more than the window's %v", when, min, size)
		}
		for n, p := range places() {
			if p != was[n] {
				t.Errorf("%s: %s moved: %s, was %s", when, n, p, was[n])
			}
		}
	}
	before := places()
	same("before", before)
	// Eight rows or more in each list.
	for n, l := range map[string]*keyList{"Line": h.wb.ui.lineList, "Replies": h.wb.ui.kidList, "Unsolved": h.wb.ui.unsolvedL, "candidates": h.wb.ui.candList} {
		row := l.CreateItem()
		if rows := l.Size().Height / (row.MinSize().Height + l.Theme().Size("padding")); rows < 8 {
			t.Errorf("the %s list has room for %.1f rows", n, rows)
		}
	}
	test.AssertImageMatches(t, "layout_before.png", h.w.Canvas().Capture())

	h.wb.Prover().Verify()
	h.waitStarted(fv)
	h.pumpUntil("progress", func() bool { return h.wb.ui.progress.Value > 0 })
	same("while verifying", before)
	close(fv.Release)
	h.pumpUntil("verdict", func() bool { return !h.wb.Prover().Running() })
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if h.wb.summaryText() == "" || h.wb.ui.unsolvedL.Length() != 13 {
		t.Fatalf("after the run: summary %q, %d unsolved rows", h.wb.summaryText(), h.wb.ui.unsolvedL.Length())
	}
	same("after the report", before)
	// (The summary says how long the run took: closed for the picture.)
	test.Tap(h.wb.ui.summary.closeB)
	same("the summary closed", before)
	test.AssertImageMatches(t, "layout_after.png", h.w.Canvas().Capture())
	h.noErrors()
}

var _ = widget.NewLabel
