package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/assets"
	"c6book/engine/board"
	"c6book/proofbook"
)

func TestBundledCount(t *testing.T) {
	if got, want := bundledCount(), fmt.Sprintf("%d,%03d", assets.LittleGolemGamesCount/1000, assets.LittleGolemGamesCount%1000); got != want {
		t.Fatalf("bundledCount() = %q, want %q", got, want)
	}
}

// The welcome panel's one click imports the games bundled with the app,
// as File → Import games does, with progress and Cancel: the test stops it
// after the first committed batch (or sees it finish) and finds the games
// stored, counted out of the bundled file's total.
func TestWelcomeImportsBundledGames(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "first.c6book")
	ta := startApp(t, test.NewTempApp(t), options{book: path})
	b := ta.wa.bundledButton
	if ta.wa.welcome == nil || b == nil || !b.Visible() || b.Disabled() {
		t.Fatal("no bundled-games button on the welcome panel of an empty book")
	}
	if !strings.Contains(b.Text, bundledCount()) || !strings.Contains(b.Text, "LittleGolem") {
		t.Fatalf("bundled-games button %q", b.Text)
	}
	test.Tap(b)
	if ta.wa.busy() != 1 {
		t.Fatalf("%d jobs after the click, want the import", ta.wa.busy())
	}
	total := fmt.Sprint(assets.LittleGolemGamesCount)
	committed := regexp.MustCompile(`\d+ / ` + total + ` games committed: ([1-9]\d*) stored`)
	ta.pumpUntil("a committed batch", func() bool {
		return committed.MatchString(overlayTexts(ta.wa.win)) || ta.wa.busy() == 0
	})
	if ta.wa.busy() > 0 {
		var cancel *widget.Button
		for _, o := range ta.wa.win.Canvas().Overlays().List() {
			for _, l := range test.LaidOutObjects(o) {
				if bt, ok := l.(*widget.Button); ok && bt.Text == "Cancel" {
					cancel = bt
				}
			}
		}
		if cancel == nil {
			t.Fatal("no Cancel on the import's progress dialog")
		}
		test.Tap(cancel)
		ta.pumpUntil("the cancelled import", func() bool { return ta.wa.busy() == 0 })
	}
	report := overlayTexts(ta.wa.win)
	if !strings.Contains(report, "Import cancelled: ") && !strings.Contains(report, "Imported "+total+" games") {
		t.Fatalf("the import's report: %q", report)
	}
	if !strings.Contains(report, total) {
		t.Fatalf("the report does not count out of the bundled %s games: %q", total, report)
	}
	ctx := context.Background()
	root, err := board.NewBoard(ta.wa.bk.Rules())
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := ta.wa.bk.Proofbook().Locate(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	_, stored, err := ta.wa.bk.Proofbook().GamesThrough(ctx, id, proofbook.GamesQuery{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if stored == 0 {
		t.Fatalf("no game stored: %q", report)
	}
	if len(ta.wa.wb.Cursor().Children()) == 0 {
		t.Fatal("the root shows no move after the import")
	}
	t.Logf("%d games stored; %s", stored, report)
}
