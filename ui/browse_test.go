package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	gamepkg "c6book/engine/game"
	"c6book/session"
	"c6book/session/sessiontest"
)

// rowText is what a list shows in row i.
func rowText(t *testing.T, l *keyList, i int) string {
	t.Helper()
	o := l.CreateItem()
	l.UpdateItem(i, o)
	if r, ok := o.(*menuRow); ok {
		o = r.content
	}
	switch o := o.(type) {
	case *widget.Label:
		return o.Text
	case *fyne.Container:
		if lt, ok := o.Objects[1].(*lineText); ok { // an entry row: the line, then its note
			if n := o.Objects[2].(*widget.Label).Text; n != "" {
				return lt.full + " — " + n
			}
			return lt.full
		}
		return o.Objects[1].(*widget.Label).Text
	case *replyRow:
		return o.box.Objects[1].(*widget.Label).Text
	}
	t.Fatalf("row %d is a %T", i, o)
	return ""
}

// rowColour is the status swatch of row i.
func rowColour(l *keyList, i int) color.Color {
	o := l.CreateItem()
	l.UpdateItem(i, o)
	if r, ok := o.(*replyRow); ok {
		o = r.box
	}
	if r, ok := o.(*menuRow); ok {
		o = r.content
	}
	return o.(*fyne.Container).Objects[0].(*fyne.Container).Objects[0].(*canvas.Rectangle).FillColor
}

// Replies are listed most played first, each row with its letter and its
// games by result (Black's win rate over the decided ones in the line
// shown while it is hovered); → follows the most played one.
func TestRepliesRowsAndForward(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.tap("j10", "k10", "k11")
	h.wb.Cursor().Back()
	h.tap("l10", "l11")
	h.wb.Cursor().Back()
	h.tap("m10", "m11")
	h.wb.Cursor().Back()
	set := func(turns string, g c6book.GameStats) {
		b, err := board.Replay(gamepkg.Connect6(), mustTurns(t, turns))
		if err != nil {
			t.Fatal(err)
		}
		h.store.Node(b, false).Games = g
	}
	set("j10 k10k11", c6book.GameStats{Games: 5, BlackWins: 3, WhiteWins: 1, Unfinished: 1})
	set("j10 l10l11", c6book.GameStats{Games: 40, BlackWins: 10, WhiteWins: 30})
	h.wb.Session().Reload()
	if got := childNames(h.wb.s.Rules(), h.wb.Cursor().Children()); strings.Join(got, " ") != "l10l11 k10k11 m10m11" {
		t.Fatalf("replies %v, want the most played first", got)
	}
	for i, want := range []string{
		"A  l10l11    40   10   30  25% unknown",
		"B  k10k11     5    3    1  75% unknown",
		"C  m10m11                      unknown",
	} {
		if got := rowText(t, h.wb.ui.kidList, i); got != want {
			t.Fatalf("row %d: %q, want %q", i, got, want)
		}
	}
	for i, want := range []string{
		"Reply A: l10l11 · 40 games · B 10 · W 30 · 0 undecided\nB 25% of 40 decided · unknown",
		"Reply B: k10k11 · 5 games · B 3 · W 1 · 1 undecided\nB 75% of 4 decided · unknown",
		"Reply C: m10m11 · no games\nunknown",
	} {
		h.wb.hoverReply(i)
		if got := h.wb.ui.statsL.Text; got != want {
			t.Fatalf("reply %d hovered: stats line %q, want %q", i, got, want)
		}
	}
	h.wb.hoverReply(-1)
	h.wb.Cursor().GoToLine(mustTurns(t, "j10")) // the end of the line
	h.key("Right")
	if got := h.line(); got != "j10 l10l11" {
		t.Fatalf("→ at the end of the line went to %q", got)
	}
	h.noErrors()
}

func mustTurns(t *testing.T, text string) []gamepkg.Move {
	t.Helper()
	ms, err := gamepkg.ParseTurns(gamepkg.Connect6(), text)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func symLine(sym int, ms []gamepkg.Move) []gamepkg.Move {
	r := gamepkg.Connect6()
	out := make([]gamepkg.Move, len(ms))
	for i, m := range ms {
		out[i] = r.TransformMove(sym, m)
	}
	return out
}

// The Games pane lists the games through the shown position, a page at a
// time, and opens one in the orientation of the user's line.
func TestGamesPane(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	r := gamepkg.Connect6()
	game := mustTurns(t, "j10 j9k9 l10l11 a1a2 s19s18")
	first := h.store.AddGame(sessiontest.Game{Source: "littlegolem", ExtID: "7", Turns: game, Result: gamepkg.Black})
	for i := 0; i < 130; i++ {
		h.store.AddGame(sessiontest.Game{Source: "littlegolem", ExtID: fmt.Sprint(100 + i), Turns: symLine(i%8, game[:3])})
	}
	h.store.AddGame(sessiontest.Game{Source: "littlegolem", ExtID: "9", Turns: mustTurns(t, "j10 k11k12")})
	user := symLine(5, game[:2])
	h.wb.Cursor().GoToLine(user)
	h.wb.ui.tabs.SelectIndex(2)
	if h.wb.ui.tabs.Selected().Text != "Games" {
		t.Fatal("no Games tab")
	}
	if got := h.wb.ui.gamesL.Text; got != "Games through this position: 131" {
		t.Fatalf("games header %q", got)
	}
	if n := len(h.wb.ui.games); n != gamesPage {
		t.Fatalf("%d games listed at first, want a page of %d", n, gamesPage)
	}
	// Reaching the last row reads the next page.
	rowText(t, h.wb.ui.gamesList, gamesPage-1)
	if n := len(h.wb.ui.games); n != 131 {
		t.Fatalf("%d games listed after scrolling down, want 131", n)
	}
	i := -1
	for j, g := range h.wb.ui.games {
		if g.ID == first {
			i = j
		}
	}
	if i < 0 {
		t.Fatal("game 7 is not listed")
	}
	if got := rowText(t, h.wb.ui.gamesList, i); got != "littlegolem 7 · 5 turns · Black won" {
		t.Fatalf("game row %q", got)
	}
	// A game whose record ends without six in a row is undecided.
	if got := rowText(t, h.wb.ui.gamesList, (i+1)%len(h.wb.ui.games)); !strings.HasSuffix(got, " · undecided") {
		t.Fatalf("undecided game row %q", got)
	}
	h.wb.ui.gamesList.Select(i)
	line, cur := h.wb.Cursor().Line()
	if want := gamepkg.FormatTurns(r, symLine(5, game)); gamepkg.FormatTurns(r, line) != want || cur != 2 {
		t.Fatalf("game opened as %q (cursor %d), want %q at turn 2", gamepkg.FormatTurns(r, line), cur, want)
	}
	h.wb.Cursor().End()
	if got := h.line(); got != gamepkg.FormatTurns(r, symLine(5, game)) {
		t.Fatalf("stepping through the game: %q", got)
	}
	// Another position: the pane follows.
	h.wb.Cursor().Home()
	h.wb.Cursor().GoToLine(mustTurns(t, "j10 k11k12"))
	if got := h.wb.ui.gamesL.Text; got != "Games through this position: 1" {
		t.Fatalf("games header after moving %q", got)
	}
	// With the position's counts by result (the store's, matching the
	// games listed).
	h.store.Node(h.wb.Cursor().Position(), true).Games = c6book.GameStats{Games: 1, Unfinished: 1}
	h.wb.Cursor().Home()
	h.wb.Cursor().GoToLine(mustTurns(t, "j10 k11k12"))
	if got := h.wb.ui.gamesL.Text; got != "Games through this position: 1 · B 0 · W 0 · 1 undecided" {
		t.Fatalf("games header with the counts %q", got)
	}
	h.noErrors()
}

// Notes are stored as you type, once the typing pauses, and at once when
// the user moves on before that; one typing stretch is one undoable edit.
func TestNotesSavedAsYouType(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.tap("j10")
	b := h.wb.Cursor().Position().Clone()
	test.Type(h.wb.ui.commentE, "keep me")
	if !h.wb.s.Notes().Pending() {
		t.Fatal("typing left no pending notes")
	}
	if n := h.store.Node(b, false); n.Comment != "" {
		t.Fatalf("stored before the pause: %q", n.Comment)
	}
	// Moving on before the debounce fires stores them.
	h.wb.Cursor().Back()
	if n := h.store.Node(b, false); n.Comment != "keep me" {
		t.Fatalf("notes lost on leaving the position: %q", n.Comment)
	}
	h.wb.Cursor().Forward()
	if h.wb.ui.commentE.Text != "keep me" {
		t.Fatalf("comment shown %q", h.wb.ui.commentE.Text)
	}
	// The pause stores them (the timer posts through the queue).
	test.Type(h.wb.ui.labelE, "joseki")
	h.pumpUntil("the debounced save", func() bool { return h.store.Node(b, false).Label == "joseki" })
	test.Type(h.wb.ui.labelE, "!")
	h.pumpUntil("the second save", func() bool { return h.store.Node(b, false).Label == "joseki!" })
	if d := h.wb.History().CanUndo(); d != "notes" {
		t.Fatalf("CanUndo %q", d)
	}
	h.wb.History().Undo()
	if n := h.store.Node(b, false); n.Label != "" || n.Comment != "keep me" {
		t.Fatalf("undo of the typing: label %q comment %q", n.Label, n.Comment)
	}
	if h.wb.ui.labelE.Text != "" {
		t.Fatalf("label shown after undo %q", h.wb.ui.labelE.Text)
	}
	h.noErrors()
}

// Every book edit is on the undo stack: moves, notes, square labels and
// Mark disproved.
func TestUndoEveryEditKind(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.tap("j10")
	b := h.wb.Cursor().Position().Clone()
	h.wb.Notes().Save("c", "l")
	h.wb.SetMarking(true)
	h.tap("a1")
	h.wb.SetMarking(false)
	h.wb.History().ToggleDisproved()
	if h.wb.Cursor().Info().Status != c6book.StatusDisproved {
		t.Fatalf("status %v", h.wb.Cursor().Info().Status)
	}
	for _, step := range []struct {
		undo  string
		check func(n *sessiontest.Node) bool
	}{
		{"mark disproved", func(n *sessiontest.Node) bool { return n.Proof[gamepkg.Black].Status == c6book.StatusUnknown }},
		{"board labels", func(n *sessiontest.Node) bool { return len(n.Marks) == 0 }},
		{"notes", func(n *sessiontest.Node) bool { return n.Comment == "" && n.Label == "" }},
		{"add j10", func(*sessiontest.Node) bool { return len(h.wb.Cursor().Children()) == 0 && h.wb.s.Cursor().Cur() == 0 }},
	} {
		if got := h.wb.History().CanUndo(); got != step.undo {
			t.Fatalf("CanUndo %q, want %q", got, step.undo)
		}
		h.wb.History().Undo()
		if !step.check(h.store.Node(b, true)) {
			t.Fatalf("undo %s did not restore the book", step.undo)
		}
	}
	if h.wb.Cursor().Info().Status == c6book.StatusDisproved {
		t.Fatal("still shown disproved")
	}
	h.noErrors()
}

// A running verification names its position; after moving elsewhere the
// panel offers to go back to it. Its end keeps the Line pane's sibling
// counts, and the unsolved moves say why.
func TestVerifyLabelAndGoToIt(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"m12m13"}, Release: make(chan struct{}), Started: make(chan *board.Board, 1)}
	h := newHarness(t, gamepkg.Connect6(), fv)
	h.tap("k10")
	h.wb.Cursor().Back()
	h.tap("j10")
	if n := h.wb.s.Cursor().LineVariations(1); n != 1 {
		t.Fatalf("line variations %d before verify", n)
	}
	h.wb.Prover().Verify()
	h.waitStarted(fv)
	h.pumpUntil("progress", func() bool { return strings.HasPrefix(h.wb.ui.progressL.Text, "Verifying 1. j10: null") })
	if !h.wb.ui.goVerifyB.Hidden {
		t.Fatal("Go to it shown on the verified position")
	}
	h.wb.Cursor().Home()
	if h.wb.ui.goVerifyB.Hidden || !strings.HasPrefix(h.wb.ui.progressL.Text, "Verifying 1. j10") {
		t.Fatalf("elsewhere: Go to it hidden %v, progress %q", h.wb.ui.goVerifyB.Hidden, h.wb.ui.progressL.Text)
	}
	test.Tap(h.wb.ui.goVerifyB)
	if got := h.line(); got != "j10" || !h.wb.ui.goVerifyB.Hidden {
		t.Fatalf("Go to it went to %q (button hidden %v)", got, h.wb.ui.goVerifyB.Hidden)
	}
	close(fv.Release)
	h.pumpUntil("the verdict", func() bool { return !h.wb.Prover().Running() })
	if n := h.wb.s.Cursor().LineVariations(1); n != 1 {
		t.Fatalf("the Line pane lost its sibling count after verify: %d", n)
	}
	if got := rowText(t, h.wb.ui.lineList, 1); !strings.HasSuffix(got, " +1") {
		t.Fatalf("line row %q", got)
	}
	if got := rowText(t, h.wb.ui.unsolvedL, 0) + "|" + rowText(t, h.wb.ui.unsolvedL, 1); got != "1 · "+c6book.ReasonText("budget")+"|    m12m13" {
		t.Fatalf("unsolved row %q", got)
	}
	h.noErrors()
}

// Search and Solved rows show the whole line from the root in turn
// notation (not the store's short text), the note beside it, and the
// status colour.
func TestEntryRows(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.wb.ui.setSearch([]session.Entry{{Line: mustTurns(t, "j10 j9k9"), Short: "1. j10 2. j9k9", Status: c6book.StatusProved, Text: "idea"}})
	if got := rowText(t, h.wb.ui.searchList, 0); got != "j10 j9k9 — idea" {
		t.Fatalf("search row %q", got)
	}
	if got := rowColour(h.wb.ui.searchList, 0); got != statusColour(c6book.StatusProved) {
		t.Fatalf("search row colour %v", got)
	}
}

// The Line pane counts the siblings of every move of a line opened at once
// (positions never shown), not only of the positions visited.
func TestLineCountsSiblingsOfUnvisited(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.tap("j10", "k10", "k11", "l11", "l12")
	h.wb.Cursor().GoToPly(1)
	h.tap("m10", "m11")
	h2 := newHarness(t, gamepkg.Connect6(), nil)
	if err := h2.wb.Session().SetStore(h.store); err != nil {
		t.Fatal(err)
	}
	h2.wb.Cursor().GoToLine(mustTurns(t, "j10 k10k11 l11l12"))
	if n := h2.wb.s.Cursor().LineVariations(2); n != 1 {
		t.Fatalf("siblings of k10k11 on a line opened at once: %d, want 1", n)
	}
	if got := rowText(t, h2.wb.ui.lineList, 2); !strings.HasSuffix(got, " +1") {
		t.Fatalf("line row %q", got)
	}
}

// A reply added to a position of the line is counted in the Line pane.
func TestLineCountsFollowAddedMoves(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	h.tap("j10", "k10", "k11")
	h.wb.Cursor().GoToPly(1)
	h.tap("l10", "l11")
	if n := h.wb.s.Cursor().LineVariations(2); n != 1 {
		t.Fatalf("siblings of l10l11: %d, want 1", n)
	}
	h.wb.Cursor().GoToPly(1)
	h.tap("m10", "m11")
	if n := h.wb.s.Cursor().LineVariations(2); n != 2 {
		t.Fatalf("siblings of m10m11: %d, want 2", n)
	}
}

// A verify (its verdict, certified, and the replies it added) is an
// undoable edit; replies the book had before stay, and the verdict is
// gone with the replies.
func TestUndoVerifyReplies(t *testing.T) {
	fv := &fakeVerifier{Unsolved: []string{"m12m13", "i9k12"}}
	h := newHarness(t, gamepkg.Connect6(), fv)
	h.tap("j10", "m12", "m13")
	h.wb.Cursor().Back()
	h.wb.Prover().Verify()
	h.pumpUntil("the verdict", func() bool { return !h.wb.Prover().Running() })
	if got := childNames(h.wb.s.Rules(), h.wb.Cursor().Children()); len(got) != 2 {
		t.Fatalf("replies after verify %v", got)
	}
	if d := h.wb.History().CanUndo(); d != "verify's new reply" {
		t.Fatalf("CanUndo %q", d)
	}
	h.wb.Cursor().Home()
	h.wb.History().Undo()
	if got := strings.Join(childNames(h.wb.s.Rules(), h.wb.Cursor().Children()), " "); got != "m12m13" || h.line() != "j10" {
		t.Fatalf("after undo: at %q, replies %q", h.line(), got)
	}
	if v := h.wb.Cursor().Verdict(); v != nil || h.wb.Cursor().Info().Status != c6book.StatusUnknown {
		t.Fatalf("after undo: verdict %+v, status %s; want none, unknown", v, h.wb.Cursor().Info().Status)
	}
	if h.wb.History().CanUndo() != "add m12m13" {
		t.Fatalf("CanUndo %q", h.wb.History().CanUndo())
	}
	h.noErrors()
}

// A game picked in the Games list opens with its record's stone order in
// the Line pane ("h12k11" as written, not the board's k11h12).
func TestGamesPaneKeepsRecordOrder(t *testing.T) {
	h := newHarness(t, gamepkg.Connect6(), nil)
	r := gamepkg.Connect6()
	game := mustTurns(t, "j10 h12k11 j11j12")
	written := make([][]gamepkg.Square, len(game))
	for i, f := range strings.Fields("j10 h12k11 j12j11") {
		sq, err := gamepkg.ParseSquares(r, f)
		if err != nil {
			t.Fatal(err)
		}
		written[i] = sq
	}
	h.store.AddGame(sessiontest.Game{Source: "littlegolem", ExtID: "1", Turns: game, Written: written})
	h.tap("j10")
	h.wb.ui.tabs.SelectIndex(2)
	h.pumpUntil("the games", func() bool { return len(h.wb.ui.games) == 1 })
	h.wb.ui.gamesList.Select(0)
	h.pumpUntil("the game", func() bool { return h.wb.s.Busy() == 0 })
	rows := map[string]string{}
	for _, o := range test.LaidOutObjects(h.wb.ui.lineList) {
		if l, ok := o.(*widget.Label); ok && len(l.Text) > 5 {
			rows[l.Text[:5]] = l.Text
		}
	}
	if !strings.HasPrefix(rows["2. W "], "2. W h12k11") || !strings.HasPrefix(rows["3. B "], "3. B j12j11") {
		t.Fatalf("the game's Line rows %q, want 2. W h12k11 and 3. B j12j11", rows)
	}
	h.noErrors()
}
