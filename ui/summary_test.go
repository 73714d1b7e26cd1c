package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
	"c6book/session/sessiontest"
)

// boardRect is where the board is in the window.
func (h *harness) boardRect() (fyne.Position, fyne.Size) {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(h.wb.BoardWidget()), h.wb.BoardWidget().Size()
}

// A Verify run ends with its summary in the Prove tab, with a button per
// reply it changed that shows the position after it; the board does not
// move or change size before, during and after the run; the unsolved
// moves' reasons are not cut off in a narrow column.
func TestVerifySummaryBoardStillReasonsInFull(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"m12m13", "i9k12"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10")
	pos0, size0 := h.boardRect()
	h.wb.Prover().Verify()
	h.waitStarted(fv)
	h.pumpUntil("progress", func() bool { return h.wb.ui.progress.Value > 0 })
	if pos, size := h.boardRect(); pos != pos0 || size != size0 {
		t.Fatalf("the board moved while verifying: %v %v, was %v %v", pos, size, pos0, size0)
	}
	if h.wb.summaryText() != "" {
		t.Fatalf("a summary while running: %q", h.wb.summaryText())
	}
	close(fv.Release)
	h.pumpUntil("verdict", func() bool { return !h.wb.Prover().Running() })
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if pos, size := h.boardRect(); pos != pos0 || size != size0 {
		t.Fatalf("the board moved after verifying: %v %v, was %v %v", pos, size, pos0, size0)
	}
	sum := h.wb.summaryText()
	for _, want := range []string{"Verify (Black, λ2) at 1. j10", "unsolved no verdict → 2", "m12m13 new", "i9k12 new"} {
		if !strings.Contains(sum, want) {
			t.Fatalf("summary %q lacks %q", sum, want)
		}
	}
	if !h.wb.ui.summary.box.Visible() {
		t.Fatal("the summary is hidden")
	}
	// The unsolved rows in a narrow column: each row is as high as its
	// wrapped text.
	h.w.Resize(fyne.NewSize(900, 800))
	rows := 0
	for _, o := range test.LaidOutObjects(h.wb.ui.unsolvedL) {
		l, ok := o.(*widget.Label)
		if !ok || !o.Visible() || !strings.Contains(l.Text, "out of budget") {
			continue
		}
		rows++
		if l.Size().Height+0.5 < l.MinSize().Height {
			t.Fatalf("row %q cut off: %v high, its text needs %v", l.Text, l.Size().Height, l.MinSize().Height)
		}
		if l.MinSize().Height < 2*fyne.MeasureText("x", l.Theme().Size("text"), l.TextStyle).Height {
			t.Fatalf("row %q does not wrap in a %v wide column", l.Text, l.Size().Width)
		}
	}
	if rows != 1 { // (the reason's row: its two moves under it)
		t.Fatalf("%d unsolved reason rows laid out", rows)
	}
	// A change's button shows the position after it.
	test.Tap(findButton(t, h.wb.Content(), "→ i9k12 unknown"))
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if got := h.line(); got != "j10 i9k12" {
		t.Fatalf("the change's button went to %q", got)
	}
	// Another book: the summary is gone.
	if err := h.wb.Session().SetStore(newFakeStore(game.Connect6())); err != nil {
		t.Fatal(err)
	}
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if h.wb.summaryText() != "" || h.wb.ui.summary.box.Visible() {
		t.Fatalf("the old book's summary stays: %q", h.wb.summaryText())
	}
	h.noErrors()
}

// Count labels agree with their count: "1 stored reply", "2 stored
// replies".
func TestStoredRepliesPlural(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k10", "k11")
	h.key(fyne.KeyLeft)
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 && h.wb.Cursor().Loaded() })
	if txt := h.wb.ui.statusL.Text; !strings.HasSuffix(txt, "· 1 stored reply") {
		t.Fatalf("one reply: %q", txt)
	}
	h.tap("a1", "a2")
	h.key(fyne.KeyLeft)
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 && h.wb.Cursor().Loaded() })
	if txt := h.wb.ui.statusL.Text; !strings.HasSuffix(txt, "· 2 stored replies") {
		t.Fatalf("two replies: %q", txt)
	}
	h.noErrors()
}

// The Line pane prints a turn's stones in the order they were tapped.
func TestLineRowStoneOrder(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "h12", "k11")
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	found := ""
	for _, o := range test.LaidOutObjects(h.wb.ui.lineList) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "2. W ") {
			found = l.Text
		}
	}
	if !strings.HasPrefix(found, "2. W h12k11") {
		t.Fatalf("the line's row %q, want 2. W h12k11", found)
	}
	h.noErrors()
}

// provedByRepliesStore gives the position after j10 as the book does once
// the auto-pilot proved every move its verdict left: an open verdict with
// nothing left to prove, the position proved.
type provedByRepliesStore struct {
	*fakeStore
	pos uint64
}

func (s provedByRepliesStore) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	p, err := s.fakeStore.Position(ctx, b, a)
	if err == nil && b.Hash() == s.pos {
		p.Status = c6book.StatusProved
		p.Verdict = &c6book.Verdict{Attacker: a, Status: c6book.StatusOpen, Calls: 3}
	}
	return p, err
}

// A position proved through its replies does not read "OPEN: 0 unsolved".
func TestVerdictProvedThroughReplies(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	if err := h.wb.Session().SetStore(provedByRepliesStore{h.store, h.wb.Cursor().Position().Hash()}); err != nil {
		t.Fatal(err)
	}
	h.wb.Cursor().GoToLine([]game.Move{h.mv("j10")})
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 && h.wb.Cursor().Loaded() })
	if txt := h.wb.ui.verdictL.Text; !strings.HasPrefix(txt, "PROVED for Black through its replies") {
		t.Fatalf("verdict text %q", txt)
	}
	h.noErrors()
}

// A position proved by its twin says so, naming the stone.
func TestVerdictProvedByTwin(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	h.tap("i9")
	h.tap("k9")
	if err := h.wb.Session().SetStore(sessiontest.TwinProved{Store: h.store, Pos: h.wb.Cursor().Position().Hash(), Stone: h.sq("k9")}); err != nil {
		t.Fatal(err)
	}
	h.wb.Cursor().GoToLine([]game.Move{h.mv("j10"), h.mv("i9k9")})
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 && h.wb.Cursor().Loaded() })
	if txt := h.wb.ui.verdictL.Text; !strings.HasPrefix(txt, "PROVED for Black by its twin: without White's stone on k9") {
		t.Fatalf("verdict text %q", txt)
	}
	h.noErrors()
	// Show proof shows the twin's proof (session.TestShowProofByTwin); this
	// store's twin has no proved move, which it says.
	h.wb.ShowProof()
	h.pumpUntil("the proof", func() bool { return !h.wb.s.ProofBusy() })
	if len(h.errs) != 1 || !strings.Contains(h.errs[0].Error(), "proved by its twin, this position without White's stone on k9, which has no proved move stored") {
		t.Fatalf("Show proof: %v", h.errs)
	}
	h.errs = nil
}

// After Undo takes back the verdict a Verify run stored, the run's summary
// says so and no longer offers the replies it added (they are gone from
// the book).
func TestVerifySummaryAfterUndo(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"m12m13", "i9k12"}}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10")
	h.wb.Prover().Verify()
	h.pumpUntil("verdict", func() bool { return !h.wb.Prover().Running() })
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	buttons := func() []string {
		var names []string
		for _, o := range h.wb.ui.summary.buttons.Objects {
			if b, ok := o.(*widget.Button); ok && b.Visible() && !b.Disabled() {
				names = append(names, b.Text)
			}
		}
		return names
	}
	if got := strings.Join(buttons(), "|"); !strings.Contains(got, "→ m12m13 unknown") || !strings.Contains(got, "→ i9k12 unknown") {
		t.Fatalf("summary buttons %q, want the two new replies", got)
	}
	if d := h.wb.History().CanUndo(); !strings.HasPrefix(d, "verify") {
		t.Fatalf("Undo would take back %q, want the verdict", d)
	}
	h.wb.History().Undo()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if n := len(h.wb.Cursor().Children()); n != 0 {
		t.Fatalf("%d replies after Undo, want none", n)
	}
	if got := buttons(); len(got) != 0 {
		t.Fatalf("after Undo the summary still offers %q", got)
	}
	if sum := h.wb.summaryText(); !strings.Contains(sum, "undone: the verdict it stored was taken back") || !strings.HasPrefix(sum, "Verify (Black, λ2) at 1. j10") {
		t.Fatalf("summary after Undo %q", sum)
	}
	h.noErrors()
}
