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
	"c6book/session"
	"c6book/session/sessiontest"
)

// The whole window: play an opening by taps, run the verifier, watch the
// progress, see the verdict and the unsolved defender moves appear as
// children, and navigate to one of them.
func TestWindowVerifyFlow(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"m12m13", "i9k12"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10", "k10", "k11", "l11", "l12")
	if got := h.line(); got != "j10 k10k11 l11l12" {
		t.Fatalf("opening: %q", got)
	}
	// White to move: with White as the attacker the verifier refuses with a
	// clear error (it needs the defender to move).
	h.wb.SetAttacker(game.White)
	h.wb.Prover().Verify()
	if len(h.errs) != 1 || h.wb.Prover().Running() {
		t.Fatalf("verify with the attacker to move: errors %v, running %v", h.errs, h.wb.Prover().Running())
	}
	h.errs = nil
	h.wb.SetAttacker(game.Black)

	test.Tap(findButton(t, h.wb.Content(), "Verify"))
	b := h.waitStarted(fv)
	if got := game.FormatTurns(h.wb.s.Rules(), b.History()); got != "j10 k10k11 l11l12" {
		t.Fatalf("verifier got %q", got)
	}
	if !h.wb.Prover().Running() || !h.wb.ui.verifyB.Disabled() || h.wb.ui.stopB.Disabled() {
		t.Fatal("while running: Verify should be disabled and Stop enabled")
	}
	h.pumpUntil("progress", func() bool { return h.wb.ui.progress.Value > 0 })
	if h.wb.ui.progress.Value != 0.25 {
		t.Fatalf("progress %v", h.wb.ui.progress.Value)
	}
	close(fv.Release)
	h.pumpUntil("verdict", func() bool { return !h.wb.Prover().Running() })
	v := h.wb.Cursor().Verdict()
	if v == nil || v.Proved() || len(v.Unsolved) != 2 {
		t.Fatalf("verdict %+v (errors %v)", v, h.errs)
	}
	if txt := h.wb.ui.verdictL.Text; txt == "" || txt[:4] != "OPEN" {
		t.Fatalf("verdict text %q", txt)
	}
	// The unsolved moves are stored as children and drawn; as in the book,
	// each is an unexplored leaf (unknown) below the open position.
	kids := childNames(h.wb.s.Rules(), h.wb.Cursor().Children())
	if len(kids) != 2 || kids[0] != "m12m13" || kids[1] != "i9k12" {
		t.Fatalf("children after verify: %v", kids)
	}
	if h.wb.Cursor().Info().Status != c6book.StatusOpen {
		t.Fatalf("status after an open verdict: %v", h.wb.Cursor().Info().Status)
	}
	for _, c := range h.wb.Cursor().Children() {
		if c.Status != c6book.StatusUnknown {
			t.Fatalf("child %s status %v", game.MoveName(h.wb.s.Rules(), c.Move), c.Status)
		}
	}
	if view := h.wb.BoardWidget().View(); len(view.Unsolved) != 2 || len(view.Children) != 2 {
		t.Fatalf("board overlays: %d unsolved, %d children", len(view.Unsolved), len(view.Children))
	}
	// (One reason, its two moves.)
	if h.wb.ui.unsolvedL.Length() != 3 || h.wb.ui.kidList.Length() != 2 {
		t.Fatal("lists do not show the unsolved moves")
	}
	// A reason's row plays nothing; navigate to the second unsolved move
	// through its list.
	h.wb.ui.unsolvedL.Select(0)
	if got := h.line(); got != "j10 k10k11 l11l12" {
		t.Fatalf("after choosing a reason's row: %q", got)
	}
	h.wb.ui.unsolvedL.Select(2)
	if got := h.line(); got != "j10 k10k11 l11l12 i9k12" {
		t.Fatalf("after choosing an unsolved move: %q", got)
	}
	if h.wb.Cursor().Info().Status != c6book.StatusUnknown {
		t.Fatalf("status there: %v", h.wb.Cursor().Info().Status)
	}
	// "Next" finds an open leaf to work on.
	h.wb.Cursor().Home()
	h.wb.Cursor().Next()
	if got := h.line(); got != "j10 k10k11 l11l12 m12m13" {
		t.Fatalf("Next went to %q", got)
	}
	h.noErrors()
}

func TestVerifyStop(t *testing.T) {
	fv := &fakeVerifier{Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10")
	h.wb.SetAttacker(game.Black)
	h.wb.Prover().Verify()
	h.waitStarted(fv)
	test.Tap(findButton(t, h.wb.Content(), "Stop"))
	h.pumpUntil("stop", func() bool { return !h.wb.Prover().Running() })
	if h.wb.Cursor().Verdict() != nil || h.wb.ui.verdictL.Text != "stopped" {
		t.Fatalf("after stop: verdict %v, text %q", h.wb.Cursor().Verdict(), h.wb.ui.verdictL.Text)
	}
	if st := h.store.Node(h.wb.Cursor().Position(), false).Proof[game.Black].Status; st != c6book.StatusUnknown {
		t.Fatalf("a stopped verification stored status %v", st)
	}
	h.noErrors()
}

// A position with thousands of replies: the children list is built from one
// query and scrolling it never goes back to the book.
func TestChildrenListFromMemory(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	b := h.wb.Cursor().Position().Clone()
	var moves []game.Move
	for a := game.Square(0); int(a) < h.wb.s.Rules().Squares() && len(moves) < 3000; a++ {
		for c := a + 1; int(c) < h.wb.s.Rules().Squares() && len(moves) < 3000; c += 7 {
			if b.At(a) == game.Empty && b.At(c) == game.Empty {
				moves = append(moves, game.NewMove(a, c))
			}
		}
	}
	if n, err := h.store.AddMoves(b, moves); err != nil || n != 3000 {
		t.Fatalf("AddMoves: %d stored, %v", n, err)
	}
	h.wb.Cursor().Home()
	before := h.store.Calls("Children")
	h.wb.Cursor().Forward()
	if got := h.store.Calls("Children") - before; got != 1 {
		t.Fatalf("showing a position ran %d Children queries, want 1", got)
	}
	if len(h.wb.Cursor().Children()) != 3000 || h.wb.ui.kidList.Length() != 3000 {
		t.Fatalf("children: %d", len(h.wb.Cursor().Children()))
	}
	calls := h.store.Calls("Children") + h.store.Calls("Position")
	for _, id := range []int{100, 1500, 2999} {
		h.wb.ui.kidList.ScrollTo(id)
		h.wb.ui.kidList.Refresh()
	}
	if got := h.store.Calls("Children") + h.store.Calls("Position"); got != calls {
		t.Fatalf("scrolling the list queried the book %d times", got-calls)
	}
	want := h.wb.Cursor().Children()[2999].Move
	h.wb.ui.kidList.Select(2999)
	if line, cur := h.wb.Cursor().Line(); cur != 2 || len(line) != 2 || line[1] != want {
		t.Fatalf("selecting a child: line %v", line)
	}
	h.noErrors()
}

func TestWindowResizes(t *testing.T) {
	h := newHarness(t, game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, nil)
	h.tap("e5", "d4", "f6")
	for _, sz := range []fyne.Size{{Width: 600, Height: 400}, {Width: 1600, Height: 1000}} {
		h.w.Resize(sz)
		h.tap("c3", "g7")
		h.wb.Cursor().Back()
	}
	if got := h.line(); got != "e5 d4f6" {
		t.Fatalf("line %q", got)
	}
	h.noErrors()
}

func TestSuggestCandidates(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	h.tap("j10", "k10", "k11")
	// Black to move with White attacking: Suggest is disabled and says why
	// (no error dialog); the session still refuses the call.
	h.wb.SetAttacker(game.White)
	suggest := h.wb.ui.suggestB
	if !suggest.Disabled() || !strings.Contains(h.wb.ui.candNote.Text, "Black is to move") {
		t.Fatalf("Suggest on the defender's turn: disabled %v, note %q", suggest.Disabled(), h.wb.ui.candNote.Text)
	}
	test.Tap(suggest)
	if h.wb.Prover().Suggesting() || len(h.errs) != 0 {
		t.Fatalf("a disabled Suggest ran: errors %v", h.errs)
	}
	h.wb.Prover().Suggest()
	if len(h.errs) != 1 {
		t.Fatalf("suggest for the side not to move: errors %v", h.errs)
	}
	h.errs = nil
	h.wb.SetAttacker(game.Black)
	if suggest.Disabled() {
		t.Fatal("Suggest disabled on the attacker's turn")
	}
	test.Tap(suggest)
	h.pumpUntil("candidates", func() bool { return !h.wb.Prover().Suggesting() })
	if got := len(candidates(h.wb)); got != 2 || h.wb.ui.candList.Length() != 2 {
		t.Fatalf("%d candidates", got)
	}
	// A click selects and previews: nothing is played or stored.
	play := h.wb.ui.playCandB
	if !play.Disabled() {
		t.Fatal("Play enabled with no candidate selected")
	}
	test.Tap(findCandRow(t, h.wb.ui.candList)) // a click on the first row selects it
	if h.wb.ui.candSel != 0 || h.line() != "j10 k10k11" {
		t.Fatalf("a click on the first candidate: selected %d, line %q", h.wb.ui.candSel, h.line())
	}
	h.wb.ui.candList.Select(1)
	if h.wb.ui.candSel != 1 {
		t.Fatalf("selected %d after selecting the second", h.wb.ui.candSel)
	}
	if got := h.line(); got != "j10 k10k11" {
		t.Fatalf("a click on a candidate played it: %q", got)
	}
	if len(h.wb.Cursor().Children()) != 0 {
		t.Fatalf("a click on a candidate stored it: %v", childNames(h.wb.s.Rules(), h.wb.Cursor().Children()))
	}
	if pv := h.wb.BoardWidget().View().Preview; len(pv) != 2 || pv[0] != h.sq("s18") && pv[1] != h.sq("s18") {
		t.Fatalf("preview %v", pv)
	}
	if play.Disabled() {
		t.Fatal("Play disabled with a candidate selected")
	}
	// Play plays it and stores it.
	test.Tap(play)
	if got := h.line(); got != "j10 k10k11 s18s19" {
		t.Fatalf("after Play: %q", got)
	}
	if len(candidates(h.wb)) != 0 || len(h.wb.BoardWidget().View().Preview) != 0 || !play.Disabled() {
		t.Fatal("candidates or preview of another position shown")
	}
	h.wb.Cursor().Back()
	if kids := childNames(h.wb.s.Rules(), h.wb.Cursor().Children()); len(kids) != 1 || kids[0] != "s18s19" {
		t.Fatalf("stored after Play: %v", kids)
	}
	// A double click plays too.
	test.Tap(suggest)
	h.pumpUntil("candidates", func() bool { return !h.wb.Prover().Suggesting() })
	h.wb.ui.candList.Select(0)
	findCandRow(t, h.wb.ui.candList).DoubleTapped(&fyne.PointEvent{})
	if _, cur := h.wb.Cursor().Line(); cur != 3 {
		t.Fatalf("a double click did not play: %q", h.line())
	}
	h.noErrors()
}

// findCandRow is the first candidate row shown.
func findCandRow(t *testing.T, l *keyList) *candRow {
	t.Helper()
	for _, o := range test.LaidOutObjects(l) {
		if r, ok := o.(*candRow); ok && r.Visible() && r.Text != "" {
			return r
		}
	}
	t.Fatal("no candidate row shown")
	return nil
}

// Reload keeps the line and shows what another writer (an import) added;
// a verdict arriving after another book was opened is not shown there.
func TestReloadAndSwitchBook(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"a1a2"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, game.Connect6(), fv)
	h.tap("j10", "k10", "k11")
	h.wb.Cursor().Back()
	if _, err := h.store.AddMove(context.Background(), h.wb.Cursor().Position(), h.mv("a1b2")); err != nil {
		t.Fatal(err)
	}
	if len(h.wb.Cursor().Children()) != 1 {
		t.Fatal("children changed before Reload")
	}
	h.wb.Session().Reload()
	if got := h.line(); got != "j10" || len(h.wb.Cursor().Children()) != 2 {
		t.Fatalf("after reload: line %q, %d children", got, len(h.wb.Cursor().Children()))
	}
	h.wb.Cursor().Forward()
	h.wb.SetAttacker(game.White)
	h.wb.Prover().Verify()
	h.waitStarted(fv)
	other := newFakeStore(game.Connect6())
	if err := h.wb.Session().SetStore(other); err != nil {
		t.Fatal(err)
	}
	if err := h.wb.Session().SetStore(sessiontest.NewStoreRules(game.Rules{M: 3, N: 3, K: 6, P: 2, Q: 1})); err == nil {
		t.Fatal("a book with unplayable rules was accepted")
	}
	close(fv.Release)
	h.pumpUntil("the old verdict", func() bool { return !h.wb.Prover().Running() })
	if h.wb.Cursor().Verdict() != nil || len(h.wb.Cursor().Children()) != 0 || h.line() != "" {
		t.Fatalf("the other book shows %v, %d children, line %q", h.wb.Cursor().Verdict(), len(h.wb.Cursor().Children()), h.line())
	}
	if other.Len() != 1 {
		t.Fatalf("the verdict went to the other book: %d positions", other.Len())
	}
	h.noErrors()
}

func (h *harness) waitStarted(fv *fakeVerifier) *board.Board {
	h.t.Helper()
	return <-fv.Started
}

// A verdict that bounds nothing says so, with its reason, instead of
// counting zero unsolved moves.
func TestVerdictTextAllUnsolved(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	for _, c := range []struct{ note, want string }{
		{"", "every defender move is unsolved (the null move is not refuted)"},
		{"the defender makes 6 in a row at once", "every defender move is unsolved\n"},
	} {
		h.wb.ui.showVerdict(&c6book.Verdict{Attacker: game.Black, AllUnsolved: true, Lambda: 2, Note: c.note})
		txt := h.wb.ui.verdictL.Text
		if !strings.Contains(txt, c.want) || !strings.Contains(txt, c.note) || strings.Contains(txt, "0 unsolved") {
			t.Fatalf("note %q: verdict text %q", c.note, txt)
		}
	}
}

// lockedStore is the fake store while another program holds the book: a
// verdict waits for the lock until it is stored or its context is done.
type lockedStore struct {
	*fakeStore
	waiting chan struct{}
}

func (s lockedStore) StoreVerdict(ctx context.Context, b *board.Board, v c6book.Verdict) (session.VerdictStored, error) {
	close(s.waiting)
	<-ctx.Done()
	return session.VerdictStored{}, ctx.Err()
}

// A finished verdict waiting for a locked book says so and waits until the
// user presses Stop (the app's store retries until stored or stopped).
func TestVerdictWaitsForLockedBookUntilStop(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	st := lockedStore{h.store, make(chan struct{})}
	if err := h.wb.Session().SetStore(st); err != nil {
		t.Fatal(err)
	}
	h.tap("j10")
	h.wb.Prover().Verify()
	h.pumpUntil("storing", func() bool { return strings.Contains(h.wb.ui.progressL.Text, "storing the verdict") })
	<-st.waiting // the store was asked for the verdict
	if !h.wb.Prover().Running() {
		t.Fatal("the verification ended while its verdict waits for the book")
	}
	test.Tap(findButton(t, h.wb.Content(), "Stop"))
	h.pumpUntil("stop", func() bool { return !h.wb.Prover().Running() })
	if h.wb.ui.verdictL.Text != "stopped" {
		t.Fatalf("after stop: %q", h.wb.ui.verdictL.Text)
	}
	h.noErrors()
}
