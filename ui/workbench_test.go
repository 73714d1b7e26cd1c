package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// harness drives a workbench in a headless test window. Results of
// background work come back through a queue that the test drains, so that
// everything touching widgets runs on the test goroutine.
type harness struct {
	t     *testing.T
	wb    *Workbench
	w     fyne.Window
	store *fakeStore
	queue chan func()
	errs  []error
}

func newHarness(t *testing.T, r game.Rules, v session.Verifier) *harness {
	t.Helper()
	test.NewTempApp(t)
	h := &harness{t: t, store: newFakeStore(r), queue: make(chan func(), 10000)}
	wb, err := NewWorkbenchConfig(h.store, v, nil, session.Config{Do: func(f func()) { h.queue <- f }, Inline: true})
	if err != nil {
		t.Fatal(err)
	}
	h.wb = wb
	h.wb.OnError = func(err error) { h.errs = append(h.errs, err) }
	h.w = test.NewTempWindow(t, h.wb.Content())
	h.w.Resize(fyne.NewSize(1200, 800))
	h.wb.Attach(h.w)
	return h
}

func (h *harness) sq(name string) game.Square {
	s, err := game.ParseSquare(h.wb.s.Rules(), name)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

func (h *harness) mv(name string) game.Move {
	m, err := game.ParseMove(h.wb.s.Rules(), name)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// tap taps the board widget on the centre of a square, as a user would.
func (h *harness) tap(names ...string) {
	b := h.wb.BoardWidget()
	for _, n := range names {
		test.TapAt(b, b.PointOf(h.sq(n)))
	}
}

// key sends a key as the driver does: to the focused object, else to the
// canvas handler.
func (h *harness) key(name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	if f := h.w.Canvas().Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	h.w.Canvas().OnTypedKey()(ev)
}

func (h *harness) line() string {
	line, cur := h.wb.Cursor().Line()
	return game.FormatTurns(h.wb.s.Rules(), line[:cur])
}

// pumpUntil runs queued calls until cond holds (what names it).
func (h *harness) pumpUntil(what string, cond func() bool) {
	h.t.Helper()
	for !cond() { // however long it takes: go test's -timeout is the guard
		(<-h.queue)()
	}
}

func (h *harness) noErrors() {
	h.t.Helper()
	for _, err := range h.errs {
		h.t.Errorf("unexpected error: %v", err)
	}
	h.errs = nil
}

func childNames(r game.Rules, cs []session.Child) []string {
	var out []string
	for _, c := range cs {
		out = append(out, game.MoveName(r, c.Move))
	}
	return out
}

func TestBoardSquareGeometry(t *testing.T) {
	test.NewTempApp(t)
	for _, r := range []game.Rules{game.Connect6(), {M: 9, N: 7, K: 5, P: 2, Q: 1}} {
		b := NewBoard(board.MustNewBoard(r))
		b.Resize(fyne.NewSize(400, 400))
		for s := game.Square(0); int(s) < r.Squares(); s++ {
			p := b.PointOf(s)
			// anywhere within 0.4 cell of the centre hits the square
			for _, d := range []fyne.Position{{}, {X: 7, Y: 0}, {X: -7, Y: 7}, {X: 0, Y: -7}} {
				if got, ok := b.squareAt(p.Add(d)); !ok || got != s {
					t.Fatalf("%v: squareAt(PointOf(%s)+%v) = %s, %v", r, game.SquareName(r, s), d, game.SquareName(r, got), ok)
				}
			}
		}
		// Row 1 at the bottom, column a on the left, as in the notation.
		a1, top := b.PointOf(r.Sq(0, 0)), b.PointOf(r.Sq(r.M-1, r.N-1))
		if !(a1.X < top.X && a1.Y > top.Y) {
			t.Fatalf("%v: a1 at %v, %s at %v", r, a1, game.SquareName(r, r.Sq(r.M-1, r.N-1)), top)
		}
		if _, ok := b.squareAt(fyne.NewPos(1, 1)); ok {
			t.Fatalf("%v: the corner of the widget is not a square", r)
		}
	}
}

func TestTapPlaysMoves(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	if got := h.line(); got != "j10" {
		t.Fatalf("after one tap: line %q", got)
	}
	// Two-stone turn: the first tap is pending and shown, not played.
	h.tap("k11")
	if got := h.line(); got != "j10" {
		t.Fatalf("after the first stone of a turn: line %q", got)
	}
	if h.wb.Cursor().Pending() != h.sq("k11") || h.wb.BoardWidget().View().Pending != h.sq("k11") {
		t.Fatalf("pending stone %v not shown", h.wb.Cursor().Pending())
	}
	// Tapping the pending stone again takes it back; tapping a stone does nothing.
	h.tap("k11")
	if h.wb.Cursor().Pending() != game.NoSquare {
		t.Fatal("tapping the pending stone did not cancel it")
	}
	h.tap("j10")
	if h.wb.Cursor().Pending() != game.NoSquare || h.line() != "j10" {
		t.Fatal("tapping an occupied square changed something")
	}
	h.tap("k11", "i9")
	if got := h.line(); got != "j10 i9k11" {
		t.Fatalf("after a two-stone turn: line %q", got)
	}
	h.tap("a1", "s19")
	if got := h.line(); got != "j10 i9k11 a1s19" {
		t.Fatalf("corners: line %q", got)
	}
	if c := h.wb.Cursor().Position().At(h.sq("s19")); c != game.Black {
		t.Fatalf("s19 holds %v, want Black", c)
	}
	// The moves are in the book: back at the root, j10 is a stored child.
	h.wb.Cursor().Home()
	if got := childNames(h.wb.s.Rules(), h.wb.Cursor().Children()); len(got) != 1 || got[0] != "j10" {
		t.Fatalf("root children %v", got)
	}
	h.noErrors()
}

func TestKeyboardNavigation(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k10", "k11") // j10 k10k11
	h.wb.Cursor().Back()       // at j10
	h.tap("i9", "i10")         // j10 i9i10 (second variation)
	h.wb.Cursor().Back()       //
	h.tap("h8", "h9")          // j10 h8h9 (third variation)
	h.tap("g7", "f6", "e5")    // j10 h8h9 f6g7 + pending e5
	h.key(fyne.KeyEscape)      // drop the pending stone
	if h.wb.Cursor().Pending() != game.NoSquare {
		t.Fatal("Escape did not drop the pending stone")
	}
	if got := h.line(); got != "j10 h8h9 f6g7" {
		t.Fatalf("line %q", got)
	}
	steps := []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyLeft, "j10 h8h9"},
		{fyne.KeyLeft, "j10"},
		{fyne.KeyRight, "j10 h8h9"},
		{fyne.KeyRight, "j10 h8h9 f6g7"},
		{fyne.KeyRight, "j10 h8h9 f6g7"}, // end of line, no children
		{fyne.KeyHome, ""},
		{fyne.KeyEnd, "j10 h8h9 f6g7"},
		{fyne.KeyLeft, "j10 h8h9"},
		{fyne.KeyUp, "j10 i9i10"},  // previous sibling
		{fyne.KeyUp, "j10 k10k11"}, // first sibling
		{fyne.KeyUp, "j10 k10k11"}, // no earlier one
		{fyne.KeyDown, "j10 i9i10"},
		{fyne.KeyDown, "j10 h8h9"},
		{fyne.KeyDown, "j10 h8h9"},
		{fyne.KeyLeft, "j10"},
		{fyne.KeyRight, "j10 h8h9"}, // the line is kept
		{fyne.KeyRight, "j10 h8h9 f6g7"},
	}
	for i, s := range steps {
		h.key(s.key)
		if got := h.line(); got != s.want {
			t.Fatalf("step %d (%s): line %q, want %q", i, s.key, got, s.want)
		}
	}
	// The line shows how many other stored moves each position has.
	if n := h.wb.s.Cursor().LineVariations(2); n != 2 {
		t.Fatalf("variations at move 2: %d, want 2 (three replies to j10)", n)
	}
	if n := h.wb.s.Cursor().LineVariations(1); n != 0 {
		t.Fatalf("variations at move 1: %d, want 0 (j10 is the only first move)", n)
	}
	// With the board focused (after a tap) keys reach the board widget.
	h.wb.Cursor().Home()
	h.tap("j10")
	if h.w.Canvas().Focused() != h.wb.BoardWidget() {
		t.Fatal("tapping the board did not focus it")
	}
	h.key(fyne.KeyLeft)
	if got := h.line(); got != "" {
		t.Fatalf("Left on the focused board: line %q", got)
	}
	h.key(fyne.KeyRight)
	h.key(fyne.KeyRight) // the kept line
	if got := h.line(); got != "j10 h8h9" {
		t.Fatalf("Right along the kept line: %q", got)
	}
	h.key(fyne.KeyUp)
	h.key(fyne.KeyUp)
	h.key(fyne.KeyRight) // end of line: first child (none here)
	if got := h.line(); got != "j10 k10k11" {
		t.Fatalf("Up twice then Right: %q", got)
	}
	h.noErrors()
}

func TestUndoLastEdit(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10", "k10", "k11")
	if h.wb.History().CanUndo() != "add k10k11" {
		t.Fatalf("CanUndo = %q", h.wb.History().CanUndo())
	}
	h.wb.History().Undo()
	if got := h.line(); got != "j10" {
		t.Fatalf("after undo: line %q", got)
	}
	if n := len(h.wb.Cursor().Children()); n != 0 {
		t.Fatalf("after undo j10 still has %d children", n)
	}
	// Replaying an existing move is navigation, not an edit.
	h.wb.Cursor().Home()
	h.tap("j10")
	if h.wb.History().CanUndo() != "add j10" {
		t.Fatalf("CanUndo = %q after navigating", h.wb.History().CanUndo())
	}
	// Notes are undoable too, and keyboard Ctrl+Z reaches Undo.
	h.wb.Notes().Save("first", "joseki")
	h.wb.Notes().Save("second", "trap")
	if h.wb.Cursor().Info().Comment != "second" {
		t.Fatal("comment not saved")
	}
	h.w.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if in := h.wb.Cursor().Info(); in.Comment != "first" || in.Label != "joseki" {
		t.Fatalf("after undo: comment %q label %q", in.Comment, in.Label)
	}
	h.noErrors()
}

func TestNotesMarksSearchSolved(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	h.tap("j10", "k10", "k11")
	h.wb.ui.commentE.SetText("The usual reply.\nSecond line.")
	h.wb.ui.labelE.SetText("joseki")
	h.wb.ui.tabs.SelectIndex(1)
	test.Tap(findButton(t, h.wb.Content(), "Save notes"))
	h.wb.Cursor().Home()
	if h.wb.ui.commentE.Text != "" {
		t.Fatalf("comment entry at the root: %q", h.wb.ui.commentE.Text)
	}
	h.wb.Search("USUAL")
	if es := h.wb.SearchResults(); len(es) != 1 || game.FormatTurns(h.wb.s.Rules(), es[0].Line) != "j10 k10k11" {
		t.Fatalf("search: %+v", es)
	}
	h.wb.ui.searchList.Select(0) // open the result
	if got := h.line(); got != "j10 k10k11" {
		t.Fatalf("search result opened %q", got)
	}
	if h.wb.ui.commentE.Text != "The usual reply.\nSecond line." || h.wb.ui.labelE.Text != "joseki" {
		t.Fatalf("notes shown: %q %q", h.wb.ui.commentE.Text, h.wb.ui.labelE.Text)
	}
	// Board labels: marking mode puts A, B on squares; tapping again clears.
	h.wb.SetMarking(true)
	h.tap("l12", "m13", "l12")
	marks := h.wb.BoardWidget().View().Marks
	if len(marks) != 1 || marks[h.sq("m13")] != "B" {
		t.Fatalf("marks %v", marks)
	}
	h.wb.SetMarking(false)
	// Solved browser: the verifier proves j10 k10k11 l12m12 for Black here,
	// and so j10 k10k11 (by Black's l12m12), as the book propagates.
	h.tap("l12", "m12")
	h.wb.Prover().Verify()
	h.pumpUntil("verdict", func() bool { return !h.wb.Prover().Running() })
	if v := h.wb.Cursor().Verdict(); v == nil || !v.Proved() {
		t.Fatalf("verdict %+v", v)
	}
	h.wb.Cursor().Home()
	h.wb.LoadSolved()
	es := h.wb.Solved()
	if len(es) != 2 || game.FormatTurns(h.wb.s.Rules(), es[0].Line) != "j10 k10k11" || game.FormatTurns(h.wb.s.Rules(), es[1].Line) != "j10 k10k11 l12m12" {
		t.Fatalf("solved: %+v", es)
	}
	// The order filter: the verifier's proof is of order 2.
	h.wb.ui.solvedMin.SetSelected("order 3")
	if es := h.wb.Solved(); len(es) != 0 || h.wb.s.Cursor().SolvedMinOrder() != 3 {
		t.Fatalf("solved at order 3 or more: %+v (min order %d)", es, h.wb.s.Cursor().SolvedMinOrder())
	}
	h.wb.ui.solvedMin.SetSelected("order ≥ 2")
	if es := h.wb.Solved(); len(es) != 2 {
		t.Fatalf("solved at order 2 or more: %+v", es)
	}
	h.wb.ui.solvedList.Select(1)
	if got := h.line(); got != "j10 k10k11 l12m12" {
		t.Fatalf("solved entry opened %q", got)
	}
	if h.wb.s.Cursor().LineStatus(3) != c6book.StatusProved {
		t.Fatalf("line status %v", h.wb.s.Cursor().LineStatus(3))
	}
	// The expert's disproof toggles from the Prove tab.
	h.wb.Cursor().Back()
	h.wb.ui.tabs.SelectIndex(0)
	test.Tap(findButton(t, h.wb.Content(), "Mark disproved"))
	if h.wb.Cursor().Info().Status != c6book.StatusDisproved || h.wb.ui.disproveB.Text != "Clear disproved" {
		t.Fatalf("after marking disproved: %v, button %q", h.wb.Cursor().Info().Status, h.wb.ui.disproveB.Text)
	}
	test.Tap(findButton(t, h.wb.Content(), "Clear disproved"))
	if h.wb.Cursor().Info().Status == c6book.StatusDisproved {
		t.Fatal("disproof not cleared")
	}
	h.noErrors()
}

func findButton(t *testing.T, root fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch c := o.(type) {
		case *widget.Button:
			if strings.Contains(c.Text, text) && !c.Disabled() {
				found = c
			}
		case *fyne.Container:
			for _, k := range c.Objects {
				walk(k)
			}
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(c).Objects() {
				walk(k)
			}
		}
	}
	walk(root)
	if found == nil {
		t.Fatalf("no enabled button %q", text)
	}
	return found
}

// readOnlyStore is the fake store, read-only.
type readOnlyStore struct{ *fakeStore }

func (readOnlyStore) ReadOnly() string { return "the file is read-only" }

// A read-only book: the status bar says so, editing is disabled (and
// refused if asked for), and moves not in the book are shown without
// being stored.
func TestReadOnlyStore(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	h.store.AddMove(context.Background(), board.MustNewBoard(game.Connect6()), h.mv("j10"))
	ro := readOnlyStore{h.store}
	added := h.store.Calls("AddMove")
	if err := h.wb.Session().SetStore(ro); err != nil {
		t.Fatal(err)
	}
	if h.wb.Session().ReadOnly() == "" {
		t.Fatal("the workbench does not see that the store is read-only")
	}
	if st := h.wb.ui.statusL.Text; !strings.HasPrefix(st, "Read-only (the file is read-only)") {
		t.Fatalf("status bar %q", st)
	}
	for _, w := range []fyne.Disableable{h.wb.ui.verifyB, h.wb.ui.disproveB, h.wb.ui.saveB, h.wb.ui.commentE, h.wb.ui.labelE, h.wb.ui.marking, h.wb.ui.undoB} {
		if !w.Disabled() {
			t.Fatalf("%T enabled on a read-only book", w)
		}
	}
	h.tap("j10", "k11", "k12")
	if h.line() != "j10 k11k12" || h.wb.Cursor().Info().Found {
		t.Fatalf("line %q, found %v", h.line(), h.wb.Cursor().Info().Found)
	}
	h.wb.Cursor().Back()
	h.wb.Notes().Save("changed", "x")
	h.wb.History().ToggleDisproved()
	h.wb.SetMarking(true)
	h.tap("a1")
	h.wb.Prover().Verify()
	n := h.store.Node(h.wb.Cursor().Position(), false)
	if h.store.Calls("AddMove") != added || h.wb.Prover().Running() || n.Comment != "" || n.Label != "" || len(n.Marks) != 0 ||
		n.Proof[game.Black].Status != c6book.StatusUnknown || len(n.Verdict) != 0 {
		t.Fatalf("a read-only store was written: %d moves added, verifying %v, node %+v", h.store.Calls("AddMove")-added, h.wb.Prover().Running(), n)
	}
	if len(h.errs) != 4 || !strings.Contains(h.errs[0].Error(), "read-only") {
		t.Fatalf("errors %v, want four read-only refusals", h.errs)
	}
	h.errs = nil
	// Back to a writable book: editing is enabled again.
	if err := h.wb.Session().SetStore(h.store); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(h.wb.ui.statusL.Text, "Read-only") || h.wb.ui.saveB.Disabled() {
		t.Fatal("editing still disabled on a writable book")
	}
	// Verify runs with the defender to move: not on the empty board, where
	// the attacker (Black) is to move, but after Black's stone.
	h.wb.Cursor().Home()
	h.pumpUntil("the root loaded", h.wb.s.Cursor().Loaded)
	if !h.wb.ui.verifyB.Disabled() || !strings.Contains(h.wb.ui.verdictL.Text, "Verify is disabled") {
		t.Fatalf("Verify with the attacker to move: disabled %v, %q", h.wb.ui.verifyB.Disabled(), h.wb.ui.verdictL.Text)
	}
	h.wb.SetMarking(false) // (turned on above: taps would label squares)
	h.tap("j10")
	h.pumpUntil("j10 played", func() bool { return h.line() == "j10" && h.wb.s.Cursor().Loaded() })
	if h.wb.ui.verifyB.Disabled() {
		t.Fatalf("Verify still disabled with the defender to move on a writable book: line %q, blocked %q, running %v, ro %q", h.line(), h.wb.ui.verifyBlocked(), h.wb.s.Prover().VerifyJob() != nil, h.wb.s.ReadOnly())
	}
	h.noErrors()
}

// positionErrStore fails Position for one position.
type positionErrStore struct {
	*fakeStore
	bad uint64 // the position's hash
}

func (s positionErrStore) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	if b.Hash() == s.bad {
		return session.Position{}, errors.New("disk on fire")
	}
	return s.fakeStore.Position(ctx, b, a)
}

// A failing read of one of the line's positions (for its status) is
// reported, not dropped.
func TestLineStatusReadError(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	line := []game.Move{h.mv("j10"), h.mv("j11k10")}
	b, err := board.Replay(h.wb.s.Rules(), line[:1])
	if err != nil {
		t.Fatal(err)
	}
	if err := h.wb.Session().SetStore(positionErrStore{h.store, b.Hash()}); err != nil {
		t.Fatal(err)
	}
	h.wb.Cursor().GoToLine(line)
	found := false
	for _, err := range h.errs {
		found = found || strings.Contains(err.Error(), "disk on fire")
	}
	if !found {
		t.Fatalf("the failing read of the line's position was not reported: %v", h.errs)
	}
}

// warningStore is the fake store with a warning about the whole book.
type warningStore struct{ *fakeStore }

func (s warningStore) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	p, err := s.fakeStore.Position(ctx, b, a)
	p.Warning = "proofs not re-checked since an outside change: run check"
	return p, err
}

// A warning of the store about the whole book leads the status bar.
func TestStoreWarningInStatusBar(t *testing.T) {
	h := newHarness(t, game.Connect6(), &fakeVerifier{})
	if st := h.wb.ui.statusL.Text; strings.Contains(st, "run check") {
		t.Fatalf("status bar %q without a warning", st)
	}
	if err := h.wb.Session().SetStore(warningStore{h.store}); err != nil {
		t.Fatal(err)
	}
	st := h.wb.ui.statusL.Text
	if !strings.HasPrefix(st, "proofs not re-checked since an outside change: run check · ") {
		t.Fatalf("status bar %q", st)
	}
	// A long status line is cut with an ellipsis, never widening the
	// window (the warning made it 1312 px wide, off a 1280 px screen).
	full := fyne.MeasureText(st, theme.TextSize(), fyne.TextStyle{}).Width
	if w := h.wb.ui.statusL.MinSize().Width; w >= full {
		t.Fatalf("the status bar needs %.0f px for a %.0f px line: it widens the window", w, full)
	}
}

// candidates are the engine's proposals for the shown position (none when
// none were asked for it).
func candidates(wb *Workbench) []session.Candidate {
	cs, _ := wb.Prover().Candidates()
	return cs
}
