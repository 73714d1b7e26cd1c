package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/game"
)

// The Auto toggle runs the auto-pilot: its progress shows, the replies
// pane follows its verdicts, Stop ends it; Leave to me is stored, shown and
// undoable.
func TestAutoControls(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.store.AutoStep = make(chan struct{})
	h.wb.Cursor().PlayMove(h.mv("j10"))
	for _, m := range []string{"a1a2", "b1b2"} {
		h.wb.Cursor().PlayMove(h.mv(m))
		c := h.wb.Cursor().Position()
		h.store.Node(c, false).Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: c6book.StatusOpen, PN: 1, DN: 1}
		h.wb.Cursor().Back()
	}
	h.wb.Session().Reload()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	a := h.wb.ui.auto
	if a.check.Disabled() || !a.stopB.Disabled() {
		t.Fatalf("before: Auto disabled %v, Stop disabled %v", a.check.Disabled(), a.stopB.Disabled())
	}
	a.jobsE.SetText("x")
	test.Tap(a.check)
	if h.wb.Prover().AutoRunning() || len(h.errs) != 1 || a.check.Checked {
		t.Fatalf("bad jobs: running %v, errors %v", h.wb.Prover().AutoRunning(), h.errs)
	}
	h.errs = nil
	a.jobsE.SetText("2")
	test.Tap(a.check)
	if !h.wb.Prover().AutoRunning() || !a.check.Checked || a.stopB.Disabled() || !a.jobsE.Disabled() {
		t.Fatalf("Auto did not start: errors %v", h.errs)
	}
	h.store.AutoStep <- struct{}{}
	status := func(name string) c6book.Status {
		for _, c := range h.wb.Cursor().Children() {
			if c.Move == h.mv(name) {
				return c.Status
			}
		}
		return c6book.StatusUnknown
	}
	h.pumpUntil("a verdict in the replies", func() bool { return status("a1a2") == c6book.StatusProved })
	h.pumpUntil("the progress", func() bool { return strings.Contains(a.textL.Text, "1 call,") })
	if !a.textL.Visible() {
		t.Fatal("the progress is hidden")
	}
	test.Tap(a.stopB)
	h.pumpUntil("the end of the run", func() bool { return !h.wb.Prover().AutoRunning() })
	if a.check.Checked || !strings.HasSuffix(a.textL.Text, "stopped after 1 call, 1 position proved") || status("a1a2") != c6book.StatusProved {
		t.Fatalf("after Stop: checked %v, %q", a.check.Checked, a.textL.Text)
	}
	// The run's summary: how it ended, the counts before → after, and the
	// reply it proved, a button away.
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	sum := h.wb.summaryText()
	for _, want := range []string{"Auto-pilot (Black, λ3) at 1. j10: stopped by the user", "proved replies 0 → 1 of 2 replies", "a1a2 open → proved"} {
		if !strings.Contains(sum, want) {
			t.Fatalf("summary %q lacks %q", sum, want)
		}
	}
	test.Tap(findButton(t, h.wb.Content(), "→ a1a2 proved"))
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if h.line() != "j10 a1a2" {
		t.Fatalf("the summary's button went to %q", h.line())
	}
	h.wb.Cursor().Back()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	// What is left to prove, a button away.
	if !strings.Contains(sum, "left to prove: 1. j10 2. b1b2") {
		t.Fatalf("summary %q does not say what is left", sum)
	}
	test.Tap(findButton(t, h.wb.Content(), "→ left to prove"))
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	if h.line() != "j10 b1b2" {
		t.Fatalf("left to prove went to %q", h.line())
	}
	h.wb.Cursor().Back()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })

	// Leave to me.
	h.wb.Cursor().PlayMove(h.mv("b1b2"))
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 && h.wb.s.Cursor().Loaded() })
	test.Tap(a.holdC)
	h.pumpUntil("the hold", func() bool { return h.wb.Cursor().Info().Held })
	if !a.holdC.Checked || !strings.Contains(a.holdL.Text, "Left to you") || !h.store.Node(h.wb.Cursor().Position(), false).Held[game.Black] {
		t.Fatalf("hold: checked %v, %q", a.holdC.Checked, a.holdL.Text)
	}
	h.wb.History().Undo()
	h.pumpUntil("the undo", func() bool { return h.wb.s.Busy() == 0 && h.wb.s.Cursor().Loaded() && !h.wb.Cursor().Info().Held })
	if a.holdC.Checked || a.holdL.Visible() || h.store.Node(h.wb.Cursor().Position(), false).Held[game.Black] {
		t.Fatalf("after undo: checked %v, %q", a.holdC.Checked, a.holdL.Text)
	}
	h.noErrors()
}
