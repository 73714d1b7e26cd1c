package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/session"
	"c6book/session/sessiontest"
)

// candRowTexts are the texts of the candidate rows shown.
func candRowTexts(h *harness) []string {
	var out []string
	for _, o := range test.LaidOutObjects(h.wb.ui.candList) {
		if r, ok := o.(*candRow); ok && r.Visible() && r.Text != "" {
			out = append(out, r.Text)
		}
	}
	return out
}

// Suggest with the engine's player: its progress shows while it runs (the
// latest report), then its ranked moves with their scores and lines, and
// the best one summed up; the budget chosen next to Suggest is the one the
// player gets.
func TestSuggestPlayerRanked(t *testing.T) {
	ans := &session.PlayAnswer{Reason: "search", Depth: 3, Nodes: 4321}
	pl := &sessiontest.Player{Answer: ans, Release: make(chan struct{}),
		Progress: []session.PlayProgress{
			{Stage: "search", Nodes: 10, Depth: 1},
			{Stage: "search", Nodes: 777, Depth: 2, Score: 0.5},
		}}
	h := newHarness(t, game.Connect6(), pl)
	h.tap("j10", "k10", "k11")
	ans.Move = h.mv("l12m13")
	ans.Score = 0.4
	ans.PV = []game.Move{h.mv("l12m13"), h.mv("h8i9"), h.mv("n14o15")}
	ans.Ranked = []session.Candidate{
		{Move: h.mv("l12m13"), Score: 0.4, PV: ans.PV},
		{Move: h.mv("i10i11"), Score: -0.25, PV: []game.Move{h.mv("i10i11"), h.mv("h9j9")}},
		{Move: h.mv("a1a2"), Score: -player.WinScore + 2, PV: []game.Move{h.mv("a1a2")}, Loses: true},
		{Move: h.mv("b1b2"), Unsearched: true},
	}
	if h.wb.ui.budgetS.Selected != "1 s" || h.wb.Prover().PlayBudget() != time.Second {
		t.Fatalf("default budget: select %q, session %v", h.wb.ui.budgetS.Selected, h.wb.Prover().PlayBudget())
	}
	h.wb.ui.budgetS.SetSelected("3 s")
	test.Tap(h.wb.ui.suggestB)
	if !h.wb.Prover().Suggesting() || h.wb.ui.stopB.Disabled() || !h.wb.ui.suggestB.Disabled() || !h.wb.ui.engineB.Disabled() {
		t.Fatal("while the player runs: Stop disabled, or Suggest/Engine move enabled")
	}
	// Two reports, one delivery: the latest shows.
	h.pumpUntil("progress", func() bool { return strings.Contains(h.wb.ui.playL.Text, "777 nodes") })
	if !h.wb.ui.playL.Visible() || !strings.Contains(h.wb.ui.playL.Text, "thinking") {
		t.Fatalf("progress %q (shown %v)", h.wb.ui.playL.Text, h.wb.ui.playL.Visible())
	}
	close(pl.Release)
	h.pumpUntil("the answer", func() bool { return !h.wb.Prover().Suggesting() })
	if b := pl.Budgets(); len(b) != 1 || b[0] != 3*time.Second {
		t.Fatalf("budgets given %v, want [3s]", b)
	}
	if n := h.wb.ui.candList.Length(); n != 4 {
		t.Fatalf("%d candidates listed, want 4", n)
	}
	rows := candRowTexts(h)
	want := []string{"l12m13  +0.40 · then h8i9 n14o15", "i10i11  -0.25 · then h9j9", "a1a2  loses in 2 turns · loses to a VCDT", "b1b2  not searched (out of time)"}
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Fatalf("rows %q, want %q", rows, want)
	}
	sum := h.wb.ui.playL.Text
	for _, w := range []string{"Best l12m13 (+0.40)", "depth 3", "4321 nodes"} {
		if !strings.Contains(sum, w) {
			t.Fatalf("summary %q lacks %q", sum, w)
		}
	}
	if strings.Contains(h.wb.ui.candNote.Text, "no candidate") || h.wb.ui.suggestB.Disabled() || !h.wb.ui.stopB.Disabled() {
		t.Fatalf("after the answer: note %q, Suggest disabled %v, Stop enabled %v", h.wb.ui.candNote.Text,
			h.wb.ui.suggestB.Disabled(), !h.wb.ui.stopB.Disabled())
	}
	// The ranked moves are candidates as before: a click previews, Play plays.
	h.wb.ui.candList.Select(1)
	if v := h.wb.BoardWidget().View(); len(v.Preview) != 2 || len(v.PreviewReply) != 2 ||
		!slices.Contains(v.PreviewReply, h.sq("h9")) || !slices.Contains(v.PreviewReply, h.sq("j9")) {
		t.Fatalf("preview %v, reply %v: want i10i11 answered by h9j9", v.Preview, v.PreviewReply)
	}
	test.Tap(h.wb.ui.playCandB)
	if got := h.line(); got != "j10 k10k11 i10i11" {
		t.Fatalf("after Play: %q", got)
	}
	h.noErrors()
}

// In a lost position Suggest says so and shows the opponent's winning line,
// never "no candidate".
func TestSuggestLostShowsThreat(t *testing.T) {
	ans := &session.PlayAnswer{Reason: "lost", Lost: true, Depth: 1}
	pl := &sessiontest.Player{Answer: ans}
	h := newHarness(t, game.Connect6(), pl)
	h.tap("j10", "k10", "k11")
	ans.Move = h.mv("l12m13")
	ans.Score = -player.WinScore + 1
	ans.Threat = []game.Move{h.mv("g7h8")}
	ans.Ranked = []session.Candidate{{Move: ans.Move, Score: ans.Score, PV: []game.Move{ans.Move, h.mv("g7h8")}, Loses: true}}
	test.Tap(h.wb.ui.suggestB)
	h.pumpUntil("the answer", func() bool { return !h.wb.Prover().Suggesting() })
	sum := h.wb.ui.playL.Text
	for _, w := range []string{"Black loses: White wins whatever Black plays", "The threat: after l12m13, White plays g7h8"} {
		if !strings.Contains(sum, w) {
			t.Fatalf("summary %q lacks %q", sum, w)
		}
	}
	if n := h.wb.ui.candList.Length(); n != 1 || strings.Contains(h.wb.ui.candNote.Text, "no candidate") {
		t.Fatalf("%d candidates, note %q", n, h.wb.ui.candNote.Text)
	}
	// Selected, the best try shows on the board with White's winning answer.
	h.wb.ui.candList.Select(0)
	if v := h.wb.BoardWidget().View(); len(v.PreviewReply) != 2 || !slices.Contains(v.PreviewReply, h.sq("g7")) {
		t.Fatalf("the threat on the board: %v", v.PreviewReply)
	}
	h.noErrors()
}

// Play engine move (its button, or its shortcut) plays the player's move
// for the side to move: the line goes on by a legal move, stored as a move
// the user plays, and Undo takes it back.
func TestPlayEngineMoveAndUndo(t *testing.T) {
	pl := &sessiontest.Player{Nodes: 3000}
	h := newHarness(t, game.Connect6(), pl)
	h.tap("j10", "k10", "k11")
	before := h.wb.Cursor().Position().Clone()
	if h.wb.ui.engineB.Disabled() {
		t.Fatal("Engine move disabled")
	}
	test.Tap(h.wb.ui.engineB)
	h.pumpUntil("the engine's move", func() bool { return !h.wb.Prover().Suggesting() })
	line, cur := h.wb.Cursor().Line()
	if cur != 3 || len(line) != 3 {
		t.Fatalf("after the engine's move: line %q", h.line())
	}
	if err := before.Check(line[2], false); err != nil {
		t.Fatalf("the engine played %s: %v", game.MoveName(before.Rules(), line[2]), err)
	}
	if !strings.Contains(h.wb.ui.playL.Text, "Engine played "+game.MoveName(before.Rules(), line[2])) {
		t.Fatalf("says %q", h.wb.ui.playL.Text)
	}
	h.wb.Cursor().Back()
	if kids := childNames(h.wb.s.Rules(), h.wb.Cursor().Children()); len(kids) != 1 || kids[0] != game.MoveName(before.Rules(), line[2]) {
		t.Fatalf("stored replies %v", kids)
	}
	h.wb.Cursor().Forward()
	// White to move now: the shortcut plays White's move.
	after := h.wb.Cursor().Position().Clone()
	h.w.Canvas().(fyne.Shortcutable).TypedShortcut(EngineMoveShortcut())
	h.pumpUntil("the engine's second move", func() bool { return !h.wb.Prover().Suggesting() })
	line, cur = h.wb.Cursor().Line()
	if cur != 4 || len(line) != 4 {
		t.Fatalf("after the shortcut: line %q", h.line())
	}
	if err := after.Check(line[3], false); err != nil {
		t.Fatalf("the engine played %s for White: %v", game.MoveName(before.Rules(), line[3]), err)
	}
	h.wb.History().Undo()
	if got, want := h.line(), "j10 k10k11 "+game.MoveName(before.Rules(), line[2]); got != want {
		t.Fatalf("after Undo: %q, want %q", got, want)
	}
	h.wb.History().Undo()
	if got := h.line(); got != "j10 k10k11" {
		t.Fatalf("after Undo: %q", got)
	}
	if len(h.wb.Cursor().Children()) != 0 {
		t.Fatalf("Undo left %v", childNames(h.wb.s.Rules(), h.wb.Cursor().Children()))
	}
	h.noErrors()
}

// Stop cancels the player: nothing is listed or played, the panel says it
// stopped, and Suggest can run again.
func TestPlayerStop(t *testing.T) {
	pl := &sessiontest.Player{Release: make(chan struct{}), PlayStarted: make(chan *board.Board, 2),
		Progress: []session.PlayProgress{{Stage: "search", Nodes: 5}}}
	h := newHarness(t, game.Connect6(), pl)
	h.tap("j10", "k10", "k11")
	for _, start := range []func(){h.wb.Prover().Suggest, h.wb.Prover().PlayEngineMove} {
		start()
		<-pl.PlayStarted
		if !h.wb.Prover().Suggesting() {
			t.Fatal("not running")
		}
		test.Tap(h.wb.ui.stopB)
		h.pumpUntil("the stop", func() bool { return !h.wb.Prover().Suggesting() })
		if got := h.line(); got != "j10 k10k11" || h.wb.ui.candList.Length() != 0 {
			t.Fatalf("after Stop: line %q, %d candidates", got, h.wb.ui.candList.Length())
		}
		if h.wb.ui.playL.Text != "Stopped." || h.wb.ui.suggestB.Disabled() || h.wb.ui.engineB.Disabled() {
			t.Fatalf("after Stop: %q, Suggest disabled %v, Engine move disabled %v", h.wb.ui.playL.Text,
				h.wb.ui.suggestB.Disabled(), h.wb.ui.engineB.Disabled())
		}
	}
	h.noErrors()
}

// On a finished game the player does not run and the panel says exactly
// why.
func TestPlayerGameOver(t *testing.T) {
	pl := &sessiontest.Player{PlayStarted: make(chan *board.Board, 1)}
	h := newHarness(t, game.Rules{M: 9, N: 9, K: 3, P: 1, Q: 1}, pl)
	h.tap("a1", "e5", "b1", "e6", "c1") // Black makes three
	if !h.wb.ui.engineB.Disabled() || !h.wb.ui.suggestB.Disabled() {
		t.Fatal("Engine move or Suggest enabled on a finished game")
	}
	if got := h.wb.ui.playL.Text; got != "The game is over: Black has won." {
		t.Fatalf("says %q", got)
	}
	h.wb.Prover().PlayEngineMove()
	if h.wb.Prover().Suggesting() || len(h.errs) != 1 || !strings.Contains(h.errs[0].Error(), "the game is over") {
		t.Fatalf("engine move on a finished game: running %v, errors %v", h.wb.Prover().Suggesting(), h.errs)
	}
}

// The engine's controls leave the window narrower than a 1280 px screen,
// even with the longest Undo label.
func TestPlayerControlsFitTheScreen(t *testing.T) {
	h := newHarness(t, game.Connect6(), &sessiontest.Player{})
	h.wb.ui.undoL.SetText("verify's 23 new replies and a long tail of words that would widen the toolbar")
	w := h.wb.Content().MinSize().Width
	t.Logf("min width %.0f px", w)
	if w > 1240 {
		t.Fatalf("the workbench needs %.0f px", w)
	}
}
