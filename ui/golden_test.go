package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// Golden renderings (testdata/*.png, generated once with the software
// painter and the test theme). A failing comparison writes the new picture
// to testdata/failed/ for inspection.

func goldenView(t *testing.T, r game.Rules, turns string) BoardView {
	t.Helper()
	b, err := board.ReplayText(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	return BoardView{Pos: b, Pending: game.NoSquare}
}

func sqs(t *testing.T, r game.Rules, names ...string) []game.Square {
	t.Helper()
	var out []game.Square
	for _, n := range names {
		s, err := game.ParseSquare(r, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func mvs(t *testing.T, r game.Rules, names ...string) []game.Move {
	t.Helper()
	var out []game.Move
	for _, n := range names {
		m, err := game.ParseMove(r, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func renderGolden(t *testing.T, name string, v BoardView, size fyne.Size) {
	t.Helper()
	test.NewTempApp(t)
	b := NewBoard(v.Pos)
	b.SetView(v)
	b.Resize(size)
	test.AssertObjectRendersToImage(t, name, b)
}

func TestGoldenBoardStones(t *testing.T) {
	r := game.Connect6()
	v := goldenView(t, r, "j10 k10k11 i9l12 h8m13 j9j11")
	v.Numbers = true
	renderGolden(t, "board_stones.png", v, fyne.NewSize(440, 440))
}

func TestGoldenBoardOverlays(t *testing.T) {
	r := game.Connect6()
	v := goldenView(t, r, "j10 k10k11 i9l12")
	v.Zone = sqs(t, r, "h8", "h9", "h10", "i8", "i10", "j8", "j9", "k8", "k9", "l10", "m11", "m12")
	v.Unsolved = mvs(t, r, "h8j9", "j9m12", "h10i10")
	v.Children = []session.Child{
		{Move: mvs(t, r, "l10m11")[0], Status: c6book.StatusProved},
		{Move: mvs(t, r, "g7n14")[0], Status: c6book.StatusOpen},
		{Move: mvs(t, r, "c3d4")[0], Status: c6book.StatusUnknown},
	}
	v.Marks = map[game.Square]string{sqs(t, r, "p16")[0]: "A", sqs(t, r, "k10")[0]: "B"}
	v.Pending = sqs(t, r, "e15")[0]
	renderGolden(t, "board_overlays.png", v, fyne.NewSize(440, 440))
}

func TestGoldenSmallBoard(t *testing.T) {
	r := game.Rules{M: 9, N: 7, K: 5, P: 2, Q: 1}
	v := goldenView(t, r, "e4 d3f5 c2g6")
	v.Children = []session.Child{{Move: mvs(t, r, "d5f3")[0], Status: c6book.StatusProved}}
	renderGolden(t, "board_small.png", v, fyne.NewSize(300, 240))
}

// A finished game: the winning six is highlighted.
func TestGoldenBoardWin(t *testing.T) {
	r := game.Connect6()
	v := goldenView(t, r, "j10 k10k11 j11j12 l10l11 j9j8 m10m12 j13a1")
	if v.Pos.Winner() != game.Black {
		t.Fatalf("winner %v", v.Pos.Winner())
	}
	v.Numbers = true
	renderGolden(t, "board_win.png", v, fyne.NewSize(440, 440))
}

// A position switch moves, recolours, shows or hides the board's objects:
// none is made again, and going back makes no new one.
func TestBoardKeepsObjects(t *testing.T) {
	test.NewTempApp(t)
	r := game.Connect6()
	b := NewBoard(goldenView(t, r, "j10 k10k11").Pos)
	w := test.NewWindow(b)
	defer w.Close()
	w.Resize(fyne.NewSize(440, 440))
	objs := func() map[fyne.CanvasObject]bool {
		m := map[fyne.CanvasObject]bool{}
		for _, o := range test.WidgetRenderer(b).Objects() {
			m[o] = true
		}
		return m
	}
	before := objs()
	b.SetView(goldenView(t, r, "j10 k10k11 i9l12"))
	after := objs()
	for o := range before {
		if !after[o] {
			t.Fatalf("%T was replaced", o)
		}
	}
	b.SetView(goldenView(t, r, "j10 k10k11"))
	if back := objs(); len(back) != len(after) {
		t.Fatalf("going back: %d objects, want %d", len(back), len(after))
	}
	visible := 0
	for o := range objs() {
		if c, ok := o.(*canvas.Circle); ok && c.Visible() && c.StrokeWidth == 1 {
			visible++
		}
	}
	if visible != 3 {
		t.Fatalf("%d stones shown, want 3", visible)
	}
}

// A selected engine candidate (faint stones of the side to move) and the
// answer the engine expects (faint stones of the other side).
func TestGoldenBoardPreview(t *testing.T) {
	r := game.Connect6()
	v := goldenView(t, r, "j10 i9k9")
	v.Preview = sqs(t, r, "j8", "h9")
	v.PreviewReply = sqs(t, r, "k11", "l12")
	renderGolden(t, "board_preview.png", v, fyne.NewSize(440, 440))
}

// fourRepliesView is the board after j10 with four replies, one in each
// status, two of them sharing k10.
func fourRepliesView(t *testing.T, r game.Rules) BoardView {
	v := goldenView(t, r, "j10")
	v.Children = []session.Child{
		{Move: mvs(t, r, "l10l11")[0], Status: c6book.StatusProved},
		{Move: mvs(t, r, "k10k11")[0], Status: c6book.StatusOpen},
		{Move: mvs(t, r, "k10m10")[0], Status: c6book.StatusDisproved},
		{Move: mvs(t, r, "h8h12")[0], Status: c6book.StatusUnknown},
	}
	return v
}

// Reply marks in their status colours, and reply D focused (hovered): its
// stones tied and previewed, the other marks dimmed.
func TestGoldenBoardReplyFocus(t *testing.T) {
	r := game.Connect6()
	v := fourRepliesView(t, r)
	test.NewTempApp(t)
	b := NewBoard(v.Pos)
	b.SetView(v)
	b.Resize(fyne.NewSize(440, 440))
	test.AssertObjectRendersToImage(t, "board_replies.png", b)
	b.setReplyFocus(3)
	test.AssertObjectRendersToImage(t, "board_reply_focus.png", b)
}
