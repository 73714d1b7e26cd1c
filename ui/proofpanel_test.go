package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/session"
)

// engineVerifier is the engine's verifier at a node budget.
type engineVerifier struct{}

func (engineVerifier) Verify(ctx context.Context, b *board.Board, lambda int, _ func(session.Progress)) (c6book.Verdict, error) {
	opts := verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	return c6book.VerifyBoard(ctx, b, nil, 0, opts, nil)
}

// On a proved position the Prove tab's Show proof opens the Proof tab; →
// and ← step the board through the proof (its position, zone and threat
// marks), the button ▶ too; a tap on the board closes it.
func TestShowProofPanel(t *testing.T) {
	r, _ := game.ParseRules("9,9,5,2,1")
	h := newHarness(t, r, engineVerifier{})
	h.tap("e5", "a1", "a2", "e4", "d4")
	show := h.wb.ui.proof.showB
	if !show.Disabled() {
		t.Fatal("Show proof is enabled before the position is proved")
	}
	h.wb.Prover().Verify()
	h.pumpUntil("the verdict", func() bool { return !h.wb.Prover().Running() })
	if show.Disabled() {
		t.Fatalf("Show proof disabled on a proved position (%v)", h.wb.Cursor().Info().Status)
	}
	test.Tap(findButton(t, h.wb.Content(), "Show proof")) // (on the Prove tab)
	p := h.wb.s.ProofShown()
	if p == nil || h.wb.ui.tabs.Selected() != h.wb.ui.proof.tab {
		t.Fatalf("no proof shown (%v), or the Proof tab not selected", h.errs)
	}
	pos := h.wb.Cursor().Position()
	h.key(fyne.KeyRight)
	v := h.wb.BoardWidget().View()
	st := p.Walk.Step()
	if p.Walk.At() != 1 || v.Pos != st.Board || v.Pos.Hash() == pos.Hash() {
		t.Fatalf("→: step %d, the board shows the step's position %v", p.Walk.At(), v.Pos == st.Board)
	}
	test.Tap(h.wb.ui.proof.nextB)
	if p.Walk.At() != 2 || len(h.wb.BoardWidget().View().Zone) == 0 {
		t.Fatalf("▶: step %d, zone %v", p.Walk.At(), h.wb.BoardWidget().View().Zone)
	}
	if !strings.Contains(h.wb.ui.proof.textL.Text, "Step 2 of") {
		t.Fatalf("text %q", h.wb.ui.proof.textL.Text)
	}
	h.key(fyne.KeyLeft)
	if p.Walk.At() != 1 || h.wb.Cursor().Position().Hash() != pos.Hash() {
		t.Fatalf("←: step %d; the cursor moved", p.Walk.At())
	}
	h.tap("i9")
	if h.wb.s.ProofShown() != nil || h.wb.BoardWidget().View().Pos.Hash() != pos.Hash() {
		t.Fatal("a tap did not close the proof")
	}
	h.noErrors()
}

// TabNames are the tabs the workbench shows, in order; SelectTab selects
// each by name.
func TestTabNames(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	var got []string
	for _, it := range h.wb.ui.tabs.Items {
		got = append(got, it.Text)
	}
	if strings.Join(got, ",") != strings.Join(TabNames(), ",") {
		t.Fatalf("tabs %v, TabNames %v", got, TabNames())
	}
	for i, n := range TabNames() {
		h.wb.SelectTab(strings.ToLower(n))
		if h.wb.ui.tabs.SelectedIndex() != i {
			t.Fatalf("SelectTab(%q) selected %d", n, h.wb.ui.tabs.SelectedIndex())
		}
	}
}
