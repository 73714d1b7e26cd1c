package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
	"c6book/proofbook"
	"c6book/service"
)

func TestDropKindOf(t *testing.T) {
	for name, want := range map[string]dropKind{
		"a.c6book": dropBook, "A.C6BOOK": dropBook, "x.sgf": dropSGF, "X.SGF": dropSGF,
		"g.json": dropGames, "g.json.gz": dropGames, "G.JSON.GZ": dropGames,
		"g.gz": dropUnknown, "notes.txt": dropUnknown, "c6book": dropUnknown, "sgf": dropUnknown, "": dropUnknown,
	} {
		if got := dropKindOf(name); got != want {
			t.Errorf("dropKindOf(%q) = %d, want %d", name, got, want)
		}
	}
}

// rootReplies is the number of replies to j10 stored in the book at path.
func storedReplies(t *testing.T, bk *proofbook.Book) int {
	t.Helper()
	b, err := board.ReplayText(bk.Rules(), "j10")
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := bk.Locate(context.Background(), b)
	if err != nil {
		return 0
	}
	kids, err := bk.Children(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(kids)
}

// Files dropped on the window: an unknown one is named in one error, the
// others are handled in order as their menu items do it: games and SGF
// files are imported into the open book, a book is opened and the files
// after it go into it.
func TestDropFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	write := func(name, text string) fyne.URI {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return storage.NewFileURI(p)
	}
	other := filepath.Join(dir, "other.c6book")
	bk, err := proofbook.Create(context.Background(), other, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	first := filepath.Join(dir, "first.c6book")
	ta := startApp(t, test.NewTempApp(t), options{book: first})
	r := ta.wa.bk.Rules()
	turns, _ := game.ParseTurns(r, "j10 l12m13")
	uris := []fyne.URI{
		write("notes.txt", "not a book"),
		write("games.json", `{"7": ["j10", "i9k11"], "8": ["j10", "h8h9"]}`),
		write("line.SGF", sgf.GameToSGF(r, turns)),
		storage.NewFileURI(other),
		write("more.json", `{"9": ["j10", "a1a2"]}`),
		storage.NewFileURI(filepath.Join(dir, "gone.sgf")),
	}
	ta.wa.dropped(uris)
	// The unknown file is refused at once, by name, before any work.
	if got := overlayTexts(ta.wa.win); !strings.Contains(got, "notes.txt") || strings.Contains(got, "games.json") {
		t.Fatalf("the error for an unknown file: %q", got)
	}
	ta.pumpUntil("the dropped files", func() bool {
		return ta.wa.bk.Path() == other && ta.wa.busy() == 0 && strings.Contains(overlayTexts(ta.wa.win), "gone.sgf")
	})
	if got := overlayTexts(ta.wa.win); !strings.Contains(got, "gone.sgf: no such file") {
		t.Fatalf("no error for a missing file: %q", got)
	}
	ta.wa.close()

	check := func(path string, want int) {
		t.Helper()
		bk, err := proofbook.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer bk.Close()
		if got := storedReplies(t, bk); got != want {
			t.Fatalf("%s: %d replies to j10, want %d", filepath.Base(path), got, want)
		}
	}
	check(first, 3) // games.json (2) and line.SGF (1)
	check(other, 1) // more.json, dropped after the book
}

// A read-only book takes a dropped book (it opens) and refuses an import
// with a one-line error, the book unchanged.
func TestDropOnReadOnlyBook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "ro.c6book")
	bk, err := proofbook.Create(context.Background(), path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "other.c6book")})
	ro, err := proofbook.OpenWith(context.Background(), path, proofbook.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ta.wa.switchTo(service.Wrap(ro))
	clearOverlays(ta.wa.win)
	games := filepath.Join(dir, "g.json")
	if err := os.WriteFile(games, []byte(`{"1": ["j10", "i9k11"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.dropped([]fyne.URI{storage.NewFileURI(games)})
	if got := overlayTexts(ta.wa.win); !strings.Contains(got, "read-only") {
		t.Fatalf("no read-only error: %q", got)
	}
	if ta.wa.busy() != 0 {
		t.Fatal("an import started on a read-only book")
	}
}
