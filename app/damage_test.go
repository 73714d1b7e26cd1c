package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book/bookfile"
	"c6book/engine/game"
	"c6book/internal/bookdamage"
	"c6book/proofbook"
)

// A book SQLite reports damaged (random bytes over data pages) opens
// read-only in the workbench, saying why in the title, the status bar and
// a dialog: browsing works, no edit is stored, and the file is left as it
// was. At start (--book) and through File ▸ Open alike.
func TestDamagedBookOpensReadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "damaged.c6book")
	bk, err := proofbook.Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(bookdamage.Games(3, 300, 12))
	if _, err := bookfile.ImportGames(ctx, bk, bytes.NewReader(data), proofbook.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	bk.Close()
	if _, err := bookdamage.Damage(path, "game_pos", 1); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)

	readOnly := func(ta *testApp, how string) {
		t.Helper()
		if ro := ta.wa.bk.ReadOnly(); !strings.HasPrefix(ro, "damaged: ") {
			t.Fatalf("%s: ReadOnly() = %q, want the damage", how, ro)
		}
		if title := ta.wa.win.Title(); !strings.Contains(title, "damaged.c6book") || !strings.Contains(title, "read-only") {
			t.Fatalf("%s: title %q", how, title)
		}
		if st := findLabel(ta.wa.wb.Content(), "Read-only"); !strings.Contains(st, "damaged") {
			t.Fatalf("%s: status bar %q", how, st)
		}
		if ta.wa.win.Canvas().Overlays().Top() == nil {
			t.Fatalf("%s: no dialog says the book is damaged", how)
		}
		for _, it := range ta.wa.win.MainMenu().Items[0].Items {
			if strings.HasPrefix(it.Label, "Import") && !it.Disabled {
				t.Fatalf("%s: menu item %q enabled on a damaged book", how, it.Label)
			}
		}
	}

	ta := startApp(t, a, options{book: path})
	readOnly(ta, "at start")
	ta.wa.close()

	ta = startApp(t, a, options{book: filepath.Join(dir, "other.c6book")})
	ta.wa.openPath(path)
	if ta.wa.bk.Path() != path {
		t.Fatalf("open: the book is %s", ta.wa.bk.Path())
	}
	readOnly(ta, "File ▸ Open")
	clearOverlays(ta.wa.win)
	wb := ta.wa.wb
	ta.tap("j10")
	if !wb.Cursor().Info().Found && len(wb.Cursor().Children()) == 0 {
		t.Fatal("browsing: j10 is not in the book")
	}
	ta.tap("a1", "b1")
	wb.Notes().Save("changed", "label")
	ta.wa.close()
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the damaged book was changed")
	}
}
