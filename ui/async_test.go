package ui

import (
	"bytes"
	"context"
	"image/png"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// blockingStore is a book whose every call blocks until the test releases
// it (or the call's context ends).
type blockingStore struct {
	*fakeStore
	release chan struct{}
}

func (s blockingStore) wait(ctx context.Context) error {
	select {
	case <-s.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s blockingStore) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	if err := s.wait(ctx); err != nil {
		return session.Position{}, err
	}
	return s.fakeStore.Position(ctx, b, a)
}

func (s blockingStore) Children(ctx context.Context, b *board.Board, a game.Color) ([]session.Child, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.fakeStore.Children(ctx, b, a)
}

func (s blockingStore) AddMove(ctx context.Context, b *board.Board, m game.Move) (bool, error) {
	if err := s.wait(ctx); err != nil {
		return false, err
	}
	return s.fakeStore.AddMove(ctx, b, m)
}

func (s blockingStore) RemoveMove(ctx context.Context, b *board.Board, m game.Move) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.fakeStore.RemoveMove(ctx, b, m)
}

func (s blockingStore) SetComment(ctx context.Context, b *board.Board, text string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.fakeStore.SetComment(ctx, b, text)
}

func (s blockingStore) SetLabel(ctx context.Context, b *board.Board, label string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.fakeStore.SetLabel(ctx, b, label)
}

func (s blockingStore) SetMarks(ctx context.Context, b *board.Board, marks map[game.Square]string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.fakeStore.SetMarks(ctx, b, marks)
}

func (s blockingStore) SetDisproved(ctx context.Context, b *board.Board, a game.Color, on bool) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.fakeStore.SetDisproved(ctx, b, a, on)
}

func (s blockingStore) StoreVerdict(ctx context.Context, b *board.Board, v c6book.Verdict) (session.VerdictStored, error) {
	if err := s.wait(ctx); err != nil {
		return session.VerdictStored{}, err
	}
	return s.fakeStore.StoreVerdict(ctx, b, v)
}

func (s blockingStore) Next(ctx context.Context, b *board.Board, a game.Color) (session.Entry, bool, error) {
	if err := s.wait(ctx); err != nil {
		return session.Entry{}, false, err
	}
	return s.fakeStore.Next(ctx, b, a)
}

func (s blockingStore) Proved(ctx context.Context, a game.Color, minOrder, limit int) ([]session.Entry, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.fakeStore.Proved(ctx, a, minOrder, limit)
}

func (s blockingStore) Search(ctx context.Context, q string, a game.Color, limit int) ([]session.Entry, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.fakeStore.Search(ctx, q, a, limit)
}

func (s blockingStore) GamesThrough(ctx context.Context, b *board.Board, offset, limit int) ([]c6book.GameInfo, int64, error) {
	if err := s.wait(ctx); err != nil {
		return nil, 0, err
	}
	return s.fakeStore.GamesThrough(ctx, b, offset, limit)
}

func (s blockingStore) Game(ctx context.Context, id int64, b *board.Board) ([][]game.Square, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.fakeStore.Game(ctx, id, b)
}

func (s blockingStore) Resolve(ctx context.Context, e session.Entry) ([]game.Move, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.fakeStore.Resolve(ctx, e)
}

// No book call runs on the UI goroutine: with a book whose every call
// blocks, the window still repaints and takes input (taps, keys, the
// notes), and the answers land when the book lets them go.
func TestBlockedStoreKeepsWindowLive(t *testing.T) {
	test.NewTempApp(t)
	queue := make(chan func(), 10000)
	fs := newFakeStore(game.Connect6())
	if _, err := fs.AddMove(context.Background(), board.MustNewBoard(game.Connect6()), mustMove(t, "j10")); err != nil {
		t.Fatal(err)
	}
	fs.SetComment(context.Background(), board.MustNewBoard(game.Connect6()), "the root")
	bs := blockingStore{fs, make(chan struct{})}
	wb, err := NewWorkbenchConfig(bs, nil, nil, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	w := test.NewTempWindow(t, wb.Content())
	w.Resize(fyne.NewSize(1000, 700))
	wb.Attach(w)
	pump := func() {
		for {
			select {
			case f := <-queue:
				f()
			default:
				return
			}
		}
	}
	board := wb.BoardWidget()
	shot := func() []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, w.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}

	// The root's answer is stuck in the book.
	before := shot()
	if wb.Session().Busy() == 0 || wb.Session().Cursor().Loaded() {
		t.Fatal("the root's data did not wait for the book")
	}
	test.TapAt(board, board.PointOf(mustSquare(t, "j10")))
	pump()
	if board.View().Pos.Stones(game.Black) != 1 {
		t.Fatal("a tap on a blocked book does not show the stone")
	}
	afterTap := shot()
	if bytes.Equal(before, afterTap) {
		t.Fatal("the window did not repaint after the tap")
	}
	test.TapAt(board, board.PointOf(mustSquare(t, "k10")))
	if board.View().Pending != mustSquare(t, "k10") {
		t.Fatal("the pending stone is not drawn")
	}
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyLeft})
	if board.View().Pos.Stones(game.Black) != 0 || board.View().Pending != game.NoSquare {
		t.Fatal("the keys were not taken while the book is blocked")
	}
	test.Type(wb.ui.commentE, "typing goes on")
	if wb.ui.commentE.Text != "typing goes on" {
		t.Fatalf("comment entry %q", wb.ui.commentE.Text)
	}
	if !bytes.Equal(shot(), shot()) {
		t.Fatal("the capture is not stable")
	}
	if len(wb.Cursor().Children()) != 0 {
		t.Fatal("children shown before the book answered")
	}

	// The book lets go: the answers land, in order, for the position shown.
	close(bs.release)
	for wb.Session().Busy() > 0 { // until the answers came
		(<-queue)()
	}
	if !wb.Session().Cursor().Loaded() || len(wb.Cursor().Children()) != 1 || wb.Cursor().Info().Comment != "the root" {
		t.Fatalf("after release: loaded %v, %d children, info %+v", wb.Session().Cursor().Loaded(), len(wb.Cursor().Children()), wb.Cursor().Info())
	}
	if len(errs) != 0 {
		t.Fatalf("errors %v", errs)
	}
	wb.Session().Close()
}

func mustSquare(t *testing.T, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(game.Connect6(), name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustMove(t *testing.T, name string) game.Move {
	t.Helper()
	m, err := game.ParseMove(game.Connect6(), name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
