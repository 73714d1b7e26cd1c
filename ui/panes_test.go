package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/game"
)

// At the app's default window size (1280×860) the Line rows and the
// Replies rows are whole: a reply "disproved" or "unchecked" with
// four-digit game counts, and a Line row with its status and a
// three-digit count of other replies ("+150").
func TestPanesReadableAtDefaultSize(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.w.Resize(fyne.NewSize(1280, 860))
	r := game.Connect6()
	h.tap("j10")
	j10 := h.wb.Cursor().Position().Clone()
	ctx := context.Background()
	var moves []game.Move
	for x := 0; x < r.M && len(moves) < 151; x++ {
		for y := 0; y+1 < r.N && len(moves) < 151; y += 2 {
			a, b := r.Sq(x, y), r.Sq(x, y+1)
			if j10.At(a) == game.Empty && j10.At(b) == game.Empty {
				moves = append(moves, game.NewMove(a, b))
			}
		}
	}
	for _, m := range moves {
		if _, err := h.store.AddMove(ctx, j10, m); err != nil {
			t.Fatal(err)
		}
	}
	set := func(m game.Move, st c6book.Status, g c6book.GameStats) {
		b := j10.Clone()
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
		n := h.store.Node(b, true)
		n.Games = g
		n.Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: st}
	}
	set(moves[0], c6book.StatusDisproved, c6book.GameStats{Games: 8450, BlackWins: 1216, WhiteWins: 1639, Unfinished: 5595})
	set(moves[1], c6book.StatusUnchecked, c6book.GameStats{Games: 7032, BlackWins: 1216, WhiteWins: 1114, Unfinished: 4702})
	h.wb.Cursor().GoToLine([]game.Move{game.NewMove(r.Sq(9, 9)), moves[0]})
	h.wb.Session().Reload()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	h.wb.Cursor().Back()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	h.wb.Content().Refresh()

	// whole reports whether the label (in a row at the list's left edge)
	// ends inside the list, not under its scroll bar (thin until hovered).
	whole := func(l *widget.Label, list fyne.CanvasObject) bool {
		return l.Position().X+l.MinSize().Width <= list.Size().Width-l.Theme().Size(theme.SizeNameScrollBarSmall)
	}
	seen := 0
	for _, o := range test.LaidOutObjects(h.wb.ui.kidList) {
		l, ok := o.(*widget.Label)
		if !ok || !strings.Contains(l.Text, "disproved") && !strings.Contains(l.Text, "unchecked") {
			continue
		}
		seen++
		if !whole(l, h.wb.ui.kidList) {
			t.Errorf("the Replies row %q is cut off (%v wide at %v, the list %v wide)", l.Text, l.MinSize().Width, l.Position().X, h.wb.ui.kidList.Size().Width)
		}
	}
	if seen != 2 {
		t.Fatalf("%d disproved/unchecked Replies rows laid out, want 2", seen)
	}
	row := ""
	for _, o := range test.LaidOutObjects(h.wb.ui.lineList) {
		l, ok := o.(*widget.Label)
		if !ok || !strings.HasPrefix(l.Text, "2. W ") {
			continue
		}
		row = l.Text
		if !strings.HasSuffix(l.Text, " disproved +150") {
			t.Fatalf("the Line row %q, want its status and +150", l.Text)
		}
		if !whole(l, h.wb.ui.lineList) {
			t.Errorf("the Line row %q is cut off (%v wide, the list %v wide)", l.Text, l.MinSize().Width, h.wb.ui.lineList.Size().Width)
		}
	}
	if row == "" {
		t.Fatal("no Line row for move 2")
	}
	h.noErrors()
}

// At the default window size the stats line under the board is whole: a
// position's games by result with five-digit counts and Black's rate, and
// a hovered reply's (with its label), each on its two lines beside the
// Replies filter, and the status line.
func TestStatsLineFitsAtDefaultSize(t *testing.T) {
	h := newHarness(t, game.Connect6(), nil)
	h.w.Resize(fyne.NewSize(1280, 860))
	h.tap("j10")
	h.tap("i9", "k9")
	h.wb.Cursor().Back()
	j10 := h.wb.Cursor().Position().Clone()
	h.store.Node(j10, false).Games = c6book.GameStats{Games: 37336, BlackWins: 15641, WhiteWins: 15913, Unfinished: 25782}
	b := j10.Clone()
	if err := b.Play(h.mv("i9k9")); err != nil {
		t.Fatal(err)
	}
	n := h.store.Node(b, false)
	n.Games = c6book.GameStats{Games: 18450, BlackWins: 10863, WhiteWins: 11639, Unfinished: 15948}
	n.Label = "Mickey Mouse"
	h.wb.Session().Reload()
	h.pumpUntil("the book's answers", func() bool { return h.wb.s.Busy() == 0 })
	h.wb.Content().Refresh()

	whole := func(what string, l *widget.Label, lines int) {
		t.Helper()
		got := strings.Split(l.Text, "\n")
		if len(got) != lines {
			t.Fatalf("%s %q: %d lines, want %d", what, l.Text, len(got), lines)
		}
		pad := 2 * l.Theme().Size(theme.SizeNameInnerPadding)
		for _, line := range got {
			if w := fyne.MeasureText(line, l.Theme().Size(theme.SizeNameText), l.TextStyle).Width + pad; w > l.Size().Width {
				t.Errorf("%s: %q is %v wide, the label %v: cut off", what, line, w, l.Size().Width)
			}
		}
		if l.Size().Height < l.MinSize().Height {
			t.Errorf("%s %q: %v high, its lines need %v", what, l.Text, l.Size().Height, l.MinSize().Height)
		}
	}
	stats, status := h.wb.ui.statsL, h.wb.ui.statusL
	if !strings.HasPrefix(stats.Text, "This position: 37,336 games") {
		t.Fatalf("stats line %q", stats.Text)
	}
	whole("the position's stats line", stats, 2)
	whole("the status line", status, 1)
	h.wb.hoverReply(0)
	if !strings.HasPrefix(stats.Text, "Reply A: i9k9 · 18,450 games") || !strings.Contains(stats.Text, "[Mickey Mouse]") {
		t.Fatalf("hovered stats line %q", stats.Text)
	}
	whole("a hovered reply's stats line", stats, 2)
	h.noErrors()
}
