package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/proofbook"
)

// overlayTexts are the labels of the dialogs shown.
func overlayTexts(w fyne.Window) string {
	var out []string
	for _, o := range w.Canvas().Overlays().List() {
		for _, l := range test.LaidOutObjects(o) {
			if lb, ok := l.(*widget.Label); ok {
				out = append(out, lb.Text)
			}
		}
	}
	return strings.Join(out, "\n")
}

func buttonTexts(root fyne.CanvasObject) []string {
	var out []string
	for _, o := range test.LaidOutObjects(root) {
		if b, ok := o.(*widget.Button); ok && b.Visible() {
			out = append(out, b.Text)
		}
	}
	return out
}

// An empty book opens with the welcome panel (its three ways in and how to
// play a turn); the first move played makes it go. A book with moves opens
// without it.
func TestWelcomePanel(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	path := filepath.Join(dir, "empty.c6book")
	bk, err := proofbook.Create(context.Background(), path, small)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	ta := startApp(t, a, options{book: path})
	if ta.wa.welcome == nil || !ta.wa.welcome.Visible() {
		t.Fatal("no welcome panel on an empty book")
	}
	content := ta.wa.win.Content()
	if got := findLabel(content, "Welcome to c6book"); !strings.Contains(got, "this book is empty") {
		t.Fatalf("welcome title %q", got)
	}
	if got := findLabel(content, "Import the LittleGolem games"); !strings.Contains(got, "click two squares") {
		t.Fatalf("welcome text %q", got)
	}
	if y := ta.wa.wb.Content().Position().Y; y <= 0 {
		t.Fatal("the workbench is not below the welcome panel")
	}
	buttons := strings.Join(buttonTexts(content), "|")
	for _, want := range []string{"Import games…", "Open book…", "New book…"} {
		if !strings.Contains(buttons, want) {
			t.Fatalf("welcome buttons %q: no %q", buttons, want)
		}
	}
	ta.tap("e5")
	if ta.line() != "e5" {
		t.Fatalf("line %q", ta.line())
	}
	if ta.wa.welcome.Visible() {
		t.Fatal("the welcome panel stays after a move")
	}
	if y := ta.wa.wb.Content().Position().Y; y != 0 {
		t.Fatalf("the workbench stays %v below the top after the panel went", y)
	}
	ta.wa.close()

	ta2 := startApp(t, test.NewTempApp(t), options{book: path})
	if ta2.wa.welcome != nil {
		t.Fatal("welcome panel on a book with moves")
	}
}

// File dialogs take a typed path (relative to the folder they start in)
// and start in the folder of the last file chosen.
func TestFileChoiceTypedPathAndLastFolder(t *testing.T) {
	dir := userDir(t)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "e5"})
	sub := filepath.Join(dir, "games")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	sgf := filepath.Join(sub, "x.sgf")
	if err := os.WriteFile(sgf, []byte("(;FF[4])"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	fc := ta.wa.chooseFile(fileSpec{title: "Import SGF", confirm: "Import"}, func(p string) { got = p })
	if fc.entry.Text != dir+string(filepath.Separator) {
		t.Fatalf("the first dialog starts in %q, want the book's folder %q", fc.entry.Text, dir)
	}
	fc.entry.SetText("games/x.sgf")
	fc.dialog.Submit()
	if got != sgf {
		t.Fatalf("typed relative path gave %q, want %q", got, sgf)
	}
	clearOverlays(ta.wa.win)
	fc = ta.wa.chooseFile(fileSpec{title: "Open book", confirm: "Open"}, func(string) {})
	if fc.entry.Text != sub+string(filepath.Separator) {
		t.Fatalf("the next dialog starts in %q, want the last folder %q", fc.entry.Text, sub)
	}
	// A file that does not exist is refused with a message.
	got = ""
	fc.entry.SetText(filepath.Join(sub, "nothing.c6book"))
	fc.dialog.Submit()
	if got != "" || !strings.Contains(overlayTexts(ta.wa.win), "no such file") {
		t.Fatalf("a missing file: chose %q, dialogs %q", got, overlayTexts(ta.wa.win))
	}
	clearOverlays(ta.wa.win)
}

// userDir is a user's folder for a test's book, beside the test app's
// storage folder (TMPDIR: file dialogs do not start there).
func userDir(t *testing.T) string {
	root := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(root, "storage"))
	dir := filepath.Join(root, "user")
	for _, d := range []string{dir, filepath.Join(root, "storage")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every export ends with a line naming the file written.
func TestExportConfirmation(t *testing.T) {
	dir := userDir(t)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "e5"})
	fc := ta.wa.saveData("Export board", "board image", "board.png", []string{".png"}, []byte("png bytes"))
	want := filepath.Join(dir, "board.png")
	if fc.entry.Text != want {
		t.Fatalf("suggested %q, want %q", fc.entry.Text, want)
	}
	fc.dialog.Submit()
	if data, err := os.ReadFile(want); err != nil || string(data) != "png bytes" {
		t.Fatalf("written %q, %v", data, err)
	}
	if got := overlayTexts(ta.wa.win); !strings.Contains(got, "Saved the board image to "+want+" (9 bytes).") {
		t.Fatalf("confirmation %q", got)
	}
	clearOverlays(ta.wa.win)

	// Save a copy confirms with the copy's path.
	cp := filepath.Join(dir, "copy.c6book")
	ta.wa.saveCopyTo(cp)
	ta.pumpUntil("the copy", func() bool { return ta.wa.busy() == 0 })
	if got := overlayTexts(ta.wa.win); !strings.Contains(got, cp) {
		t.Fatalf("save a copy: %q", got)
	}
}

// File dialogs start in the last folder used, else the open book's, else
// the working folder, else home; never in the app's hidden storage folder
// where the default book lives.
func TestStartDir(t *testing.T) {
	root := t.TempDir()
	mk := func(parts ...string) string {
		d := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	home := mk("home")
	storage := mk("home", ".config", "fyne", "c6book")
	work := mk("home", "work")
	books := mk("home", "books")
	hidden := mk("home", ".cache")
	defBook := filepath.Join(storage, "book.c6book")
	for _, c := range []struct {
		name                  string
		last, book, cwd, want string
	}{
		{"the default book in the storage folder: the working folder", "", defBook, work, work},
		{"the default book, started from /: home", "", defBook, "/", home},
		{"the default book, started in a hidden folder: home", "", defBook, hidden, home},
		{"the default book, started inside the storage folder: home", "", defBook, storage, home},
		{"a book in a user folder: its folder", "", filepath.Join(books, "x.c6book"), work, books},
		{"the last folder used first", work, filepath.Join(books, "x.c6book"), home, work},
		{"a last folder that is gone is passed over", filepath.Join(root, "gone"), defBook, work, work},
	} {
		if got := startDir(c.last, c.book, storage, c.cwd, home); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if hiddenDir(startDir(c.last, c.book, storage, c.cwd, home), storage) {
			t.Errorf("%s: starts in a hidden folder", c.name)
		}
	}
}
