package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/board"
	"c6book/engine/game"
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
	fv := &fakeVerifier{Unsolved: unsolved, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, game.Connect6(), fv)
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

// At the smallest size the window allows (the workbench's minimum) with
// the longest Undo text, nothing overlaps: the toolbar's controls stay
// apart and left of the Line pane ("Label squares" overlapped the Line
// header), and the Prove tab's buttons stay apart.
func TestNothingOverlapsAtMinimumSize(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	h.tap("j10")
	min := h.wb.Content().MinSize()
	h.w.Resize(min)
	h.wb.Content().Resize(min) // (the test window may keep its size)
	// Then a verify: the longest Undo text (the window keeps its size).
	h.wb.ui.undoL.SetText("verify's 177 new replies, and more words than the toolbar has room for")
	h.wb.Content().Refresh()
	d := fyne.CurrentApp().Driver()
	type box struct {
		name     string
		pos, end fyne.Position
	}
	at := func(name string, o fyne.CanvasObject) box {
		p := d.AbsolutePositionForObject(o)
		return box{name, p, p.Add(fyne.NewPos(o.Size().Width, o.Size().Height))}
	}
	apart := func(a, b box) {
		t.Helper()
		if a.pos.X < b.end.X-0.5 && b.pos.X < a.end.X-0.5 && a.pos.Y < b.end.Y-0.5 && b.pos.Y < a.end.Y-0.5 {
			t.Errorf("%s %v–%v overlaps %s %v–%v", a.name, a.pos, a.end, b.name, b.pos, b.end)
		}
	}
	u := h.wb.ui
	row := []box{at("Undo", u.undoB), at("the undo text", u.undoL), at("Numbers", u.numbers), at("Label squares", u.marking)}
	line := at("the Line pane", u.lineList)
	for i, a := range row {
		for _, b := range row[i+1:] {
			apart(a, b)
		}
		if a.end.X > line.pos.X {
			t.Errorf("%s ends at %v, right of the Line pane's %v", a.name, a.end.X, line.pos.X)
		}
	}
	prove := []box{at("Verify", u.verifyB), at("Stop", u.stopB), at("Suggest", u.suggestB), at("the player's time", u.budgetS),
		at("Mark disproved", u.disproveB), at("Next", u.nextB), at("Engine move", u.engineB)}
	for i, a := range prove {
		for _, b := range prove[i+1:] {
			apart(a, b)
		}
	}
	h.noErrors()
}
