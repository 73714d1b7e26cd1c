package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book/proofbook"
	"c6book/session"
)

// A flood of 100,000 reports from the work leaves the progress dialog
// showing the last one after a bounded number of UI updates, its bar
// determinate.
func TestProgressDialogFlood(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "b.c6book")})
	const reports = 100_000
	release := make(chan struct{})
	ta.wa.background("Flood", func(ctx context.Context, report func(session.Progress)) (string, error) {
		for i := 1; i <= reports; i++ {
			report(session.Progress{Done: i, Total: reports, Text: fmt.Sprintf("report %d", i)})
		}
		<-release // the dialog stays open until the test has looked
		return "done", nil
	}, func(string) {})
	bar, spin, msg := progressWidgets(t, ta)
	ran := 0
	for !strings.HasPrefix(msg.Text, fmt.Sprintf("report %d\n", reports)) { // -timeout is the guard
		if n := len(ta.queue); n > 1 {
			t.Fatalf("%d deliveries queued at once", n)
		}
		(<-ta.queue)()
		ran++
	}
	if ran > reports/10 {
		t.Fatalf("%d UI calls for %d reports", ran, reports)
	}
	if !bar.Visible() || spin.Visible() || bar.Value != reports || bar.Max != reports {
		t.Fatalf("bar %v/%v (shown %v), bouncing bar shown %v", bar.Value, bar.Max, bar.Visible(), spin.Visible())
	}
	if !strings.Contains(msg.Text, "elapsed") {
		t.Fatalf("no elapsed time: %q", msg.Text)
	}
	t.Logf("%d reports: the last shown after %d UI calls", reports, ran)
	close(release)
	ta.pumpUntil("the end", func() bool { return ta.wa.busy() == 0 })
}

// progressWidgets are the progress dialog's bars and label.
func progressWidgets(t *testing.T, ta *testApp) (bar *widget.ProgressBar, spin *widget.ProgressBarInfinite, msg *widget.Label) {
	t.Helper()
	top := ta.wa.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no progress dialog")
	}
	for _, o := range test.LaidOutObjects(top) {
		switch w := o.(type) {
		case *widget.ProgressBar:
			bar = w
		case *widget.ProgressBarInfinite:
			spin = w
		case *widget.Label:
			if msg == nil && w.Text != "Flood" {
				msg = w
			}
		}
	}
	if bar == nil || spin == nil || msg == nil {
		t.Fatal("no progress bars and label in the dialog")
	}
	return bar, spin, msg
}

// Quitting (a signal, the window's close) in the middle of an import
// cancels it from another goroutine: the import returns, close returns,
// and the book holds whole committed batches, consistent.
func TestQuitCancelsImport(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	book := filepath.Join(dir, "b.c6book")
	ta := startApp(t, test.NewTempApp(t), options{book: book})
	path := filepath.Join(dir, "games.json")
	if err := os.WriteFile(path, []byte(gamesJSON(3000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(path)
	jobs := ta.wa.wb.Session().Jobs()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs", len(jobs))
	}
	// Quit once a batch is committed (or the import has ended).
	ta.pumpUntil("the import's first commit", func() bool { return jobs[0].Progress().Done > 0 || ta.wa.busy() == 0 })
	done := jobs[0].Progress().Done
	go ta.wa.beginQuit() // as the signal handler does
	jobs[0].Wait()       // returns: cancelled (or finished)
	ta.wa.close()
	if ta.wa.wb.Session().Busy() != 0 {
		t.Fatal("book calls still running after close")
	}
	// The book reopens and checks sound; its statistics are those of the
	// games it holds.
	bk, err := proofbook.Open(context.Background(), book)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	rep, err := bk.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("book after a quit mid-import: %v", rep.Problems)
	}
	st, err := bk.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Games > 3000 {
		t.Fatalf("%d games", st.Games)
	}
	t.Logf("quit mid-import after %d games committed: %d of 3000 games kept, %d positions", done, st.Games, st.Positions)
}

// The menus: Navigate lists the navigation keys with their accelerators
// (its items move the cursor, as the keys do, typed as the driver
// delivers them whatever has the focus); File ends with our Quit, which
// cancels the work before the loop ends.
func TestNavigateMenuAndQuitItem(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "b.c6book"), play: "j10 k10k11"})
	menus := ta.wa.win.MainMenu().Items
	var nav *fyne.Menu
	for _, m := range menus {
		if m.Label == "Navigate" {
			nav = m
		}
	}
	if nav == nil {
		t.Fatal("no Navigate menu")
	}
	var back *fyne.MenuItem
	for _, it := range nav.Items {
		if it.Label == "Back" {
			back = it
		}
	}
	if sc, ok := back.Shortcut.(fyne.KeyboardShortcut); back == nil || !ok || sc.Key() != fyne.KeyLeft || sc.Mod() != 0 {
		t.Fatalf("Navigate → Back: %+v", back)
	}
	back.Action()
	ta.pumpUntil("Back", func() bool { return ta.line() == "j10" })
	// The key, typed as the driver delivers it, with a list of the
	// workbench focused (as after a click in it).
	ta.wa.win.Canvas().Focus(findFocusable(t, ta.wa.win, "*ui.keyList"))
	typeKey(ta.wa.win.Canvas(), &fyne.KeyEvent{Name: fyne.KeyRight})
	ta.pumpUntil("→", func() bool { return ta.line() == "j10 k10k11" })
	// After a click on a radio item (the attacker) the keys navigate.
	var items []fyne.Tappable // Black, White
	for _, o := range test.LaidOutObjects(ta.wa.win.Content()) {
		if fmt.Sprintf("%T", o) == "*widget.radioItem" {
			items = append(items, o.(fyne.Tappable))
		}
	}
	if len(items) != 2 {
		t.Fatalf("%d radio items", len(items))
	}
	// (Here the radio item does not take the focus, as it does in the
	// real window under Xvfb, where a click on it does: this test covers
	// the case where it does not.)
	test.Tap(items[1])
	typeKey(ta.wa.win.Canvas(), &fyne.KeyEvent{Name: fyne.KeyLeft})
	ta.pumpUntil("← after a click on a radio item", func() bool { return ta.line() == "j10" })
	file := menus[0].Items
	if last := file[len(file)-1]; last.Label != "Quit" || !last.IsQuit {
		t.Fatalf("File's last item %+v", last)
	}
}

// findFocusable is the first object of type typ (as %T prints it) in the
// window.
func findFocusable(t *testing.T, w fyne.Window, typ string) fyne.Focusable {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Content()) {
		if f, ok := o.(fyne.Focusable); ok && fmt.Sprintf("%T", o) == typ {
			return f
		}
	}
	t.Fatalf("no %s in the window", typ)
	return nil
}
