package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine"
	"c6book/proofbook"
	"c6book/session"
	"c6book/ui"
)

// gamesFile is the shared LittleGolem collection (37k games).
const gamesFile = "../../shared/data/littlegolem-connect6-games.json.gz"

// benchBook opens a book holding every shared game. C6_BENCH_BOOK names a
// book file to reuse between runs (imported there on the first run);
// without it the games are imported into a temporary book (about a minute).
func benchBook(b *testing.B) (*proofbook.Book, []string) {
	b.Helper()
	f, err := os.Open(gamesFile)
	if err != nil {
		b.Skipf("shared games not available: %v", err)
	}
	ids, games, err := proofbook.ReadGames(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	path := os.Getenv("C6_BENCH_BOOK")
	if path == "" {
		path = filepath.Join(b.TempDir(), "games.c6book")
	}
	ctx := context.Background()
	var bk *proofbook.Book
	if fileExists(path) {
		if bk, err = proofbook.Open(ctx, path); err != nil {
			b.Fatal(err)
		}
	} else {
		if bk, err = proofbook.Create(ctx, path, engine.Connect6()); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(gamesFile)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		st, err := bk.ImportGames(ctx, f, proofbook.ImportOptions{})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("imported %d games (%d skipped) in %v", st.Games, len(st.Skipped), time.Since(start).Round(time.Millisecond))
	}
	b.Cleanup(func() { bk.Close() })
	return bk, games[ids[0]]
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// BenchmarkShowPosition measures one step through the tree in the
// workbench on a book of all shared games, from the key to the repainted
// window: the key (→ or ←) goes to the window's canvas, the board shows the
// new position at once, the session's book calls (locating the position,
// its annotations, its children with their statuses, the line's statuses)
// run off the UI goroutine, and their answer is delivered and rendered
// (board, line, replies, notes). Each op is one step, alternating between
// a position and its child. The 16 ms budget of a frame is the target.
func BenchmarkShowPosition(b *testing.B) {
	bk, game := benchBook(b)
	test.NewTempApp(b)
	w := test.NewWindow(nil)
	defer w.Close()
	queue := make(chan func(), 1024)
	wb, err := ui.NewWorkbenchConfig(&bookStore{bk: bk}, engineVerifier{}, w, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		b.Fatal(err)
	}
	defer wb.Close()
	wb.OnError = func(err error) { b.Fatal(err) }
	w.SetContent(wb.Content())
	w.Resize(fyne.NewSize(1280, 860))
	wb.Attach(w)
	settle := func() {
		for wb.Session().Busy() > 0 {
			(<-queue)()
		}
	}
	turns, err := engine.ParseTurns(bk.Rules(), joinTurns(game))
	if err != nil {
		b.Fatal(err)
	}
	key := w.Canvas().OnTypedKey()
	for _, depth := range []int{0, 1, 2, 4, 8} {
		if depth+1 > len(turns) {
			break
		}
		start := func() {
			wb.GoToLine(turns[:depth+1])
			wb.GoToPly(depth)
			settle()
		}
		start()
		n := len(wb.Children())
		b.Run(fmt.Sprintf("depth%d-%dreplies", depth, n), func(b *testing.B) {
			start()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					key(&fyne.KeyEvent{Name: fyne.KeyRight})
				} else {
					key(&fyne.KeyEvent{Name: fyne.KeyLeft})
				}
				settle()
			}
		})
		if _, cur := wb.Line(); cur != depth && cur != depth+1 {
			b.Fatalf("the keys moved to ply %d, want %d or %d", cur, depth, depth+1)
		}
	}
}

// BenchmarkStoreQueries is the book side alone: Position and Children of a
// position through the adapter (symmetry lookup included).
func BenchmarkStoreQueries(b *testing.B) {
	bk, game := benchBook(b)
	s := &bookStore{bk: bk}
	turns, err := engine.ParseTurns(bk.Rules(), joinTurns(game))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, depth := range []int{0, 1, 2, 4} {
		pos, err := engine.Replay(bk.Rules(), turns[:depth])
		if err != nil {
			b.Fatal(err)
		}
		kids, err := s.Children(ctx, pos, engine.Black)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("depth%d-%dreplies", depth, len(kids)), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := s.Position(ctx, pos, engine.Black); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Children(ctx, pos, engine.Black); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func joinTurns(ts []string) string {
	out := ""
	for i, t := range ts {
		if i > 0 {
			out += " "
		}
		out += t
	}
	return out
}
