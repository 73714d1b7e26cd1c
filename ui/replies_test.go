package ui

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// replyBook stores, after j10, replies with games and statuses, two of
// them sharing k10, and shows j10.
func replyBook(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	for _, m := range [][2]string{{"k10", "k11"}, {"l10", "l11"}, {"k10", "m10"}, {"h8", "h12"}} {
		h.tap(m[0], m[1])
		h.wb.Cursor().Back()
	}
	set := func(turns string, g c6book.GameStats, st c6book.Status) {
		b, err := board.Replay(game.Connect6(), mustTurns(t, turns))
		if err != nil {
			t.Fatal(err)
		}
		n := h.store.Node(b, false)
		n.Games = g
		n.Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: st}
	}
	set("j10", c6book.GameStats{Games: 1551, BlackWins: 175, WhiteWins: 149, Unfinished: 1227}, c6book.StatusUnknown)
	set("j10 l10l11", c6book.GameStats{Games: 40, BlackWins: 10, WhiteWins: 30}, c6book.StatusProved)
	set("j10 k10k11", c6book.GameStats{Games: 5, BlackWins: 3, WhiteWins: 1, Unfinished: 1}, c6book.StatusOpen)
	set("j10 k10m10", c6book.GameStats{Games: 2, Unfinished: 2}, c6book.StatusDisproved)
	h.wb.Session().Reload()
	h.noErrors()
	return h
}

// boardReplies reads what the board draws for the replies: the letter and
// the mark colour on each square, and the "+" of shared squares, from the
// reply layer's marks (the model its raster draws:
// TestReplyLayerDrawsItsMarks checks the pixels).
func boardReplies(h *harness) (letters map[game.Square]string, fills map[game.Square]color.NRGBA, plus map[game.Square]bool) {
	b := h.wb.BoardWidget()
	r := test.WidgetRenderer(b).(*boardRenderer)
	r.Objects()
	letters, fills, plus = map[game.Square]string{}, map[game.Square]color.NRGBA{}, map[game.Square]bool{}
	for _, m := range r.layer {
		if !h.wb.s.Rules().OnBoard(h.wb.s.Rules().XY(m.s)) {
			h.t.Fatalf("a reply mark off the board at %d", m.s)
		}
		if _, ok := letters[m.s]; ok {
			h.t.Fatalf("two reply marks on %s", game.SquareName(h.wb.s.Rules(), m.s))
		}
		letters[m.s], fills[m.s] = m.letter, m.fill
		if m.plus {
			plus[m.s] = true
		}
	}
	return letters, fills, plus
}

// After j10 the board's reply marks carry the letters the Replies list
// shows, in its order (most games first), each square the first reply's
// letter in its status colour, a "+" where several replies meet.
func TestReplyMarksMatchTheList(t *testing.T) {
	h := replyBook(t)
	rules := h.wb.s.Rules()
	kids := h.wb.Cursor().Children()
	if got := strings.Join(childNames(rules, kids), " "); len(kids) != 4 || !strings.HasPrefix(got, "l10l11 k10k11 k10m10 ") {
		t.Fatalf("replies %q, want the most played first", got)
	}
	letters, fills, plus := boardReplies(h)
	first := map[game.Square]int{}
	for i, c := range kids {
		row := rowText(t, h.wb.ui.kidList, i)
		if l := strings.Fields(row)[0]; l != replyLetter(i) {
			t.Fatalf("row %d %q: letter %q, want %q", i, row, l, replyLetter(i))
		}
		for j := 0; j < c.Move.Len(); j++ {
			if _, ok := first[c.Move.At(j)]; !ok {
				first[c.Move.At(j)] = i
			}
		}
	}
	if len(letters) != len(first) || len(fills) != len(first) {
		t.Fatalf("%d letters and %d marks on the board, want one each on %d squares", len(letters), len(fills), len(first))
	}
	for s, i := range first {
		row := rowText(t, h.wb.ui.kidList, i)
		if letters[s] != strings.Fields(row)[0] {
			t.Errorf("%s shows %q, the list's row %q", game.SquareName(rules, s), letters[s], row)
		}
		if want := statusNRGBA(kids[i].Status); fills[s] != want || rowColour(h.wb.ui.kidList, i) != color.Color(want) {
			t.Errorf("%s: mark %v, row swatch %v, want %v (%s)", game.SquareName(rules, s), fills[s], rowColour(h.wb.ui.kidList, i), want, kids[i].Status)
		}
	}
	if k10 := h.sq("k10"); !plus[k10] || len(plus) != 1 {
		t.Errorf("shared squares %v, want k10 only", plus)
	}
	if letters[h.sq("k10")] != "B" || letters[h.sq("m10")] != "C" || fills[h.sq("m10")] != statusNRGBA(c6book.StatusDisproved) {
		t.Errorf("k10 %q, m10 %q in %v", letters[h.sq("k10")], letters[h.sq("m10")], fills[h.sq("m10")])
	}
	if got, want := h.wb.ui.statsL.Text, "This position: 1,551 games · B 175 · W 149 · 1,227 undecided\nB 54% of 324 decided"; got != want {
		t.Errorf("stats line %q, want %q", got, want)
	}
	h.noErrors()
}

// focused reads the board's focused reply: the tie's ends and the faint
// stones drawn on empty squares.
func focused(h *harness) (tie []game.Square, faint map[game.Square]color.Color, dimmed int) {
	b := h.wb.BoardWidget()
	r := test.WidgetRenderer(b).(*boardRenderer)
	r.Objects()
	if r.tie.Visible() {
		for _, p := range []fyne.Position{r.tie.Position1, r.tie.Position2} {
			s, _ := b.squareAt(p)
			tie = append(tie, s)
		}
	}
	faint = map[game.Square]color.Color{}
	for _, c := range r.stones.items {
		if !c.Visible() {
			continue
		}
		if f := c.FillColor.(color.NRGBA); f.A < 0xff {
			s, _ := b.squareAt(c.Position().Add(fyne.NewPos(c.Size().Width/2, c.Size().Height/2)))
			faint[s] = c.StrokeColor
		}
	}
	for _, m := range r.layer {
		if m.fill.A == dimAlpha {
			dimmed++
		}
	}
	return tie, faint, dimmed
}

// Hovering a reply, on the board or in the list, or placing the first
// stone of one, ties its two stones, previews them as faint stones ringed
// in its status colour, dims the other marks and shows its row in the
// stats line; leaving it undoes all that.
func TestReplyHoverTiesItsStones(t *testing.T) {
	h := replyBook(t)
	b := h.wb.BoardWidget()
	check := func(what string, want string, i int) {
		t.Helper()
		tie, faint, dimmed := focused(h)
		m := h.mv(want)
		if len(tie) != 2 || !moveHas(m, tie[0]) || !moveHas(m, tie[1]) || tie[0] == tie[1] {
			t.Fatalf("%s: tie %v, want %s's squares", what, tie, want)
		}
		for j := 0; j < m.Len(); j++ {
			c, ok := faint[m.At(j)]
			if m.At(j) == h.wb.Cursor().Pending() && ok {
				continue // the pending stone (ringed in the rings layer)
			}
			if !ok || c != color.Color(statusNRGBA(h.wb.Cursor().Children()[i].Status)) {
				t.Fatalf("%s: no faint stone ringed in its status colour on %s (%v)", what, game.SquareName(h.wb.s.Rules(), m.At(j)), faint)
			}
		}
		if dimmed == 0 {
			t.Fatalf("%s: the other replies are not dimmed", what)
		}
		if got := h.wb.ui.statsL.Text; !strings.HasPrefix(got, "Reply "+replyLetter(i)+": "+want+" · ") {
			t.Fatalf("%s: stats line %q", what, got)
		}
	}
	none := func(what string) {
		t.Helper()
		if tie, faint, dimmed := focused(h); len(tie) != 0 || len(faint) != 0 || dimmed != 0 {
			t.Fatalf("%s: tie %v, faint %v, %d dimmed", what, tie, faint, dimmed)
		}
		if got := h.wb.ui.statsL.Text; !strings.HasPrefix(got, "This position: ") {
			t.Fatalf("%s: stats line %q", what, got)
		}
	}
	none("at first")
	// rowLit reports which rows of the list are highlighted.
	rowLit := func() []int {
		var lit []int
		for i := range h.wb.Cursor().Children() {
			row := h.wb.ui.kidList.CreateItem().(*replyRow)
			h.wb.ui.kidList.UpdateItem(i, row)
			if row.bg.Visible() {
				lit = append(lit, i)
			}
		}
		return lit
	}
	if lit := rowLit(); len(lit) != 0 {
		t.Fatalf("rows %v highlighted at first", lit)
	}

	// On the board: l11 is reply A's (l10l11); k10 is B's first.
	b.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq("l11"))}})
	check("hovering l11", "l10l11", 0)
	b.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq("k10"))}})
	check("hovering k10", "k10k11", 1)
	if lit := rowLit(); len(lit) != 1 || lit[0] != 1 {
		t.Fatalf("hovering k10 on the board: rows %v highlighted, want B's", lit)
	}
	b.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq("a1"))}})
	none("hovering an empty square")
	b.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq("m10"))}})
	check("hovering m10", "k10m10", 2)
	b.MouseOut()
	none("after leaving the board")
	if lit := rowLit(); len(lit) != 0 {
		t.Fatalf("rows %v highlighted after leaving the board", lit)
	}

	// In the list.
	row := h.wb.ui.kidList.CreateItem().(*replyRow)
	h.wb.ui.kidList.UpdateItem(1, row)
	row.MouseIn(&desktop.MouseEvent{})
	check("hovering row B", "k10k11", 1)
	row.MouseOut()
	none("after leaving row B")

	// Selecting on the board: the first stone of a reply.
	h.tap("m10")
	check("with m10 placed", "k10m10", 2)
	h.key(fyne.KeyEscape)
	none("after Escape")

	// Another position: nothing stays focused.
	b.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq("l11"))}})
	h.wb.Cursor().SelectChild(0)
	if f := b.focusedReply(); f != -1 {
		t.Fatalf("focus %d after playing a reply", f)
	}
	h.noErrors()
}

// The focused reply's objects come from the board's pools: hovering from
// reply to reply makes no new canvas object.
func TestReplyHoverKeepsObjects(t *testing.T) {
	h := replyBook(t)
	b := h.wb.BoardWidget()
	hover := func(sq string) {
		b.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: b.PointOf(h.sq(sq))}})
	}
	squares := []string{"l11", "k10", "m10", "a1", "h8", "h12", "k11"}
	for _, sq := range squares {
		hover(sq)
	}
	before := map[fyne.CanvasObject]bool{}
	for _, o := range test.WidgetRenderer(b).Objects() {
		before[o] = true
	}
	for _, sq := range squares {
		hover(sq)
		objs := test.WidgetRenderer(b).Objects()
		for _, o := range objs {
			if !before[o] {
				t.Fatalf("hovering %s again made a new %T", sq, o)
			}
		}
		if len(objs) != len(before) {
			t.Fatalf("hovering %s again: %d objects, want %d", sq, len(objs), len(before))
		}
	}
	if _, ok := before[test.WidgetRenderer(b).(*boardRenderer).tie]; !ok {
		t.Fatal("the tie is not one of the board's objects")
	}
}

// Replies are named A–Z, a–z, then by their number in the list; a row's
// columns stay apart whatever the numbers' widths.
func TestReplyLettersAndColumns(t *testing.T) {
	for i, want := range map[int]string{0: "A", 25: "Z", 26: "a", 51: "z", 52: "53", 177: "178"} {
		if got := replyLetter(i); got != want {
			t.Errorf("reply %d named %q, want %q", i, got, want)
		}
	}
	r := game.Connect6()
	m, err := game.ParseMove(r, "s19s18")
	if err != nil {
		t.Fatal(err)
	}
	c := session.Child{Move: m, Status: c6book.StatusDisproved, Label: "x",
		Games: c6book.GameStats{Games: 123456, BlackWins: 12345, WhiteWins: 23456, Unfinished: 87655}}
	got := strings.Fields(replyText(game.MoveName(r, m), 177, c))
	if want := []string{"178", game.MoveName(r, m), "123456", "12345", "23456", "34%", "disproved", "[x]"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("row fields %q, want %q", got, want)
	}
}

// The reply layer's raster draws its marks: on the painted board each
// marked square shows its mark's colour, its letter (the same letter the
// same pixels, another letter others) and a "+" where replies meet; an
// unmarked square shows the wood; a focused reply dims the others.
func TestReplyLayerDrawsItsMarks(t *testing.T) {
	test.NewTempApp(t)
	r := game.Connect6()
	v := fourRepliesView(t, r)
	b := NewBoard(v.Pos)
	b.SetView(v)
	w := test.NewWindow(b)
	defer w.Close()
	w.SetPadded(false) // the board at the window's origin
	w.Resize(fyne.NewSize(440, 440))
	rend := test.WidgetRenderer(b).(*boardRenderer)
	cell := geomFor(r, b.Size()).cell
	var img image.Image
	paint := func() { img = w.Canvas().Capture() }
	at := func(sq string, dx, dy float32) color.NRGBA {
		p := b.PointOf(sqs(t, r, sq)[0]).Add(fyne.NewPos(dx*cell, dy*cell))
		return color.NRGBAModel.Convert(img.At(int(p.X), int(p.Y))).(color.NRGBA)
	}
	// letter is the set of pixels around sq's centre in the letter's colour.
	letter := func(sq string) (pix map[image.Point]bool) {
		pix = map[image.Point]bool{}
		for y := -0.2 * cell; y <= 0.2*cell; y++ {
			for x := -0.2 * cell; x <= 0.2*cell; x++ {
				if c := at(sq, x/cell, y/cell); c.R > 0xe0 && c.G > 0xe0 && c.B > 0xe0 {
					pix[image.Pt(int(x), int(y))] = true
				}
			}
		}
		return pix
	}
	paint()
	wood := rend.pal.wood
	if len(rend.layer) != 7 {
		t.Fatalf("%d marks, want 7: %+v", len(rend.layer), rend.layer)
	}
	for _, m := range rend.layer {
		sq := game.SquareName(r, m.s)
		if got := at(sq, -0.25, 0.25); got != m.fill {
			t.Errorf("%s (%s): painted %v inside the mark, want its colour %v", sq, m.letter, got, m.fill)
		}
		if n := len(letter(sq)); n < 4 {
			t.Errorf("%s (%s): %d pixels of its letter", sq, m.letter, n)
		}
	}
	for _, sq := range []string{"a1", "c3", "l12", "j12"} {
		if got := at(sq, -0.25, 0.25); got != wood {
			t.Errorf("unmarked %s painted %v, want the wood %v", sq, got, wood)
		}
	}
	same := func(a, b map[image.Point]bool) bool {
		if len(a) != len(b) {
			return false
		}
		for p := range a {
			if !b[p] {
				return false
			}
		}
		return true
	}
	if !same(letter("l10"), letter("l11")) {
		t.Error("the two A marks (l10, l11) show different letters")
	}
	if same(letter("l10"), letter("k11")) || same(letter("k11"), letter("m10")) {
		t.Error("A, B and C marks show the same letter")
	}
	plus := func(sq string) bool {
		for y := -0.42 * cell; y <= -0.2*cell; y++ {
			for x := 0.26 * cell; x <= 0.46*cell; x++ {
				if at(sq, x/cell, y/cell) == rend.pal.grid {
					return true
				}
			}
		}
		return false
	}
	if !plus("k10") || plus("l10") || plus("k11") {
		t.Errorf("plus on k10 %v, l10 %v, k11 %v: want k10's only", plus("k10"), plus("l10"), plus("k11"))
	}

	// D focused: the other marks are dimmed (wood shows through).
	b.setReplyFocus(3)
	paint()
	for _, sq := range []string{"l10", "k11", "m10"} {
		got, full := at(sq, -0.25, 0.25), statusNRGBA(v.Children[replyAt(v, sqs(t, r, sq)[0])].Status)
		if got == full || got == wood {
			t.Errorf("%s with D focused: painted %v (its colour %v, the wood %v), want dimmed", sq, got, full, wood)
		}
	}
}
