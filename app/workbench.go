package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"c6book/assets"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/service"
	"c6book/session"
	"c6book/ui"
)

// Preference keys.
const (
	prefLastBook = "lastBook"
	prefRecent   = "recentBooks"
	maxRecent    = 8
	defaultName  = "default.c6book"
)

// workbenchApp is the running application: one window over one open book.
type workbenchApp struct {
	app fyne.App
	win fyne.Window
	wb  *ui.Workbench
	bk  *service.Book

	shotMu  sync.Mutex
	shotErr error // set by the screenshot or bench goroutine before it ends the loop (shotError)

	exportDrv fyne.Driver // offscreen renderer for board images (lazy)

	welcome    fyne.CanvasObject // the first-start panel (nil when the book was not empty)
	welcomeBox *fyne.Container   // the panel above the workbench
	// bundledButton is the welcome panel's import of the bundled games.
	bundledButton *widget.Button

	cfg session.Config // how results reach the UI goroutine

	budget *solverBudget // the verifier's limits per solver call (Preferences)

	// The verifier queue of the open book and the status line that shows
	// it while jobs run (queue.go).
	queue      *bookQueue
	status     *widget.Label
	statusBar  fyne.CanvasObject // status with its kept height (statusline.go)
	stopStatus context.CancelFunc
	statusDone chan struct{}

	// The open book's damage check (checkDamage): its cancel and the
	// channel closed when it has returned.
	stopGate func()

	quitting  atomic.Bool   // the app is ending: nothing more reaches the UI goroutine (quit.go)
	loopDone  chan struct{} // closed by main once ShowAndRun has returned (quit.go)
	watchLoop bool          // main runs the loop: endLoop watches that it ends (not in tests)
	watchOnce sync.Once     // the loop's end is watched once (watchLoopEnd)
	closeOnce sync.Once     // close runs once (main, or the watch)
}

// defaultBookPath is the default book in the app's storage directory.
func defaultBookPath(a fyne.App) string {
	return filepath.Join(a.Storage().RootURI().Path(), defaultName)
}

// openOrCreate opens the book at path, creating a Connect6 book if the file
// does not exist.
func openOrCreate(ctx context.Context, path string) (*service.Book, error) {
	return service.OpenOrCreate(ctx, path)
}

// store is bk as the workbench's session sees it: the auto-pilot's jobs
// on the open book's queue, within the Preferences' solver limits.
func (wa *workbenchApp) store(bk *service.Book) *service.Store {
	return bk.Store(service.StoreOptions{Jobs: wa.verifier(), Limits: wa.budget.get})
}

func newWorkbenchApp(ctx context.Context, a fyne.App, o options) (*workbenchApp, error) {
	wa := &workbenchApp{app: a, budget: &solverBudget{}, loopDone: make(chan struct{})}
	path := o.book
	var startErr error
	if path == "" {
		path = a.Preferences().String(prefLastBook)
		if path == "" {
			path = defaultBookPath(a)
		}
	}
	bk, err := openOrCreate(ctx, path)
	if err != nil && o.book == "" && path != defaultBookPath(a) {
		// The last book is gone or broken: say so, and open the default.
		startErr = fmt.Errorf("could not open the last book: %w", err)
		bk, err = openOrCreate(ctx, defaultBookPath(a))
	}
	if err != nil {
		return nil, err
	}
	wa.bk = bk
	icon := fyne.NewStaticResource("icon.png", assets.IconPNG())
	a.SetIcon(icon)
	wa.win = a.NewWindow("c6book")
	wa.win.SetIcon(icon)
	do := o.do
	if do == nil {
		do = fyne.Do
	}
	wa.cfg = session.Config{Do: wa.guardDo(do), Inline: o.inline}
	wa.startQueue(o.localVerifier)
	if wa.wb, err = ui.NewWorkbenchConfig(wa.store(bk), engineVerifier{v: wa.verifier(), playNodes: o.playNodes, budget: wa.budget}, wa.win, wa.cfg); err != nil {
		wa.stopQueue()
		bk.Close()
		return nil, err
	}
	wa.wb.OnChanged = wa.updateTitle
	content := wa.wb.Content()
	if wa.bookEmpty(ctx) {
		wa.welcome = wa.newWelcome()
		wa.welcomeBox = container.NewBorder(wa.welcome, nil, nil, nil, content)
		content = wa.welcomeBox
	}
	wa.win.SetContent(container.NewBorder(nil, wa.statusBar, nil, nil, content))
	wa.wb.Attach(wa.win)
	wa.win.SetOnClosed(wa.beginQuit) // the window's close quits the app: stop the work first
	wa.attachDrop()
	wa.attachPrefs()
	wa.win.Resize(fyne.NewSize(1280, 860))
	if sz, ok := parseWindowSize(o.window); ok { // --window (script.go)
		wa.win.Resize(sz)
	}
	wa.remember(bk.Path())
	wa.setMenu()
	wa.updateTitle()

	att, _ := game.ParseColor(o.attacker)
	wa.wb.SetAttacker(att)
	wa.wb.SetLambda(o.lambda)
	if o.playTime > 0 {
		wa.wb.SetPlayBudget(o.playTime)
	}
	wa.startSettings(o)
	if o.play != "" {
		turns, err := game.ParseTurns(bk.Rules(), o.play)
		if err != nil {
			return nil, fmt.Errorf("--play: %w", err)
		}
		if bk.ReadOnly() == "" { // a read-only book only shows the line
			if err := bk.AddLine(ctx, turns); err != nil {
				return nil, fmt.Errorf("--play: %w", err)
			}
		}
		_ = wa.wb.Cursor().KeepOrder(o.play) // (read above: it cannot fail)
		wa.wb.Cursor().GoToLine(turns)
	}
	if o.verify {
		wa.wb.Prover().Verify()
	}
	if o.autoTime > 0 {
		wa.wb.SetAutoTime(o.autoTime)
	}
	if o.auto {
		wa.wb.StartAuto()
	}
	if o.suggest {
		wa.wb.Prover().Suggest()
	}
	if o.importFile != "" {
		wa.importGamesFile(o.importFile) // a --screenshot shows it running
	}
	if o.merge != "" {
		wa.mergeBookFile(o.merge) // its summary shows when it ends (merge.go)
	}
	if o.atlas {
		wa.wb.ShowAtlas()
	}
	if startErr != nil {
		dialog.ShowError(startErr, wa.win)
	}
	wa.checkDamage(bk)
	return wa, nil
}

// checkDamage runs the book's write gate (service.Book.CheckWritable:
// SQLite's quick_check, unless the record beside the book vouches for the
// file) off the UI goroutine, so that opening stays quick. A book SQLite
// reports damaged is shown again read-only, its status bar saying why, with
// a dialog: the expert can still browse it and export lines from it, and
// nothing is edited in it. An edit made while the check runs waits for it
// (the book's writes do), so none slips through.
func (wa *workbenchApp) checkDamage(bk *service.Book) {
	wa.cancelDamageCheck()
	if bk.ReadOnly() != "" {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	wa.stopGate = func() { cancel(); <-done }
	wa.wb.Session().Go(func() func() {
		err := bk.CheckWritable(ctx)
		close(done)
		return func() {
			if !service.Damaged(err) || wa.bk != bk {
				return
			}
			wa.switchTo(bk) // its ReadOnly now says why
			dialog.ShowError(fmt.Errorf("%s is damaged: it is open read-only. %w", filepath.Base(bk.Path()), err), wa.win)
		}
	})
}

// cancelDamageCheck stops the open book's damage check and waits for it.
func (wa *workbenchApp) cancelDamageCheck() {
	if wa.stopGate != nil {
		wa.stopGate()
		wa.stopGate = nil
	}
}

func (wa *workbenchApp) close() {
	wa.closeOnce.Do(func() {
		wa.beginQuit()
		wa.cancelDamageCheck()
		if wa.wb != nil {
			wa.wb.Session().Close() // stops the jobs before the queue and the book close
		}
		wa.stopQueue()
		if wa.bk != nil {
			wa.bk.Close()
		}
	})
}

func (wa *workbenchApp) updateTitle() {
	line, cur := wa.wb.Cursor().Line()
	title := "c6book — " + filepath.Base(wa.bk.Path()) + " (" + wa.bk.Rules().String() + ")"
	if wa.bk.ReadOnly() != "" {
		title += " — read-only"
	}
	if cur > 0 {
		title += " — " + game.FormatTurns(wa.bk.Rules(), line[:cur])
	}
	if len(title) > 160 {
		title = title[:157] + "…"
	}
	wa.win.SetTitle(title)
	wa.updateWelcome()
}

// remember records path as the last book and at the top of the recent list.
func (wa *workbenchApp) remember(path string) {
	p := wa.app.Preferences()
	old := p.StringList(prefRecent)
	recent := []string{path}
	for _, r := range old {
		if r != path && len(recent) < maxRecent {
			recent = append(recent, r)
		}
	}
	// Reopening the book already on top writes nothing: every write makes
	// Fyne save the file and its watcher read it again, and a read that
	// meets the file half-written prints "Preferences load error: EOF".
	if p.String(prefLastBook) == path && slices.Equal(old, recent) {
		return
	}
	p.SetString(prefLastBook, path)
	p.SetStringList(prefRecent, recent)
}

// switchTo makes bk the open book (closing the previous one).
func (wa *workbenchApp) switchTo(bk *service.Book) {
	if err := wa.wb.Session().SetStore(wa.store(bk)); err != nil {
		bk.Close()
		dialog.ShowError(err, wa.win)
		return
	}
	old := wa.bk
	wa.bk = bk
	wa.queue.setBook(bk.Path(), bk.ReadOnly()) // the jobs on the old one were cancelled and waited for
	if old != nil && old != bk {
		wa.cancelDamageCheck()
		old.Close()
	}
	wa.remember(bk.Path())
	wa.setMenu()
	wa.updateTitle()
	if old == bk {
		return // the same book again (found damaged): no upgrade note twice
	}
	if note := bk.UpgradeNote(); note != "" {
		dialog.ShowInformation("Book upgraded", note, wa.win)
	}
	wa.checkDamage(bk)
}

// checkBook runs the book's integrity check and re-checks every proved
// position from its certificates (proofcheck), with progress and Cancel.
func (wa *workbenchApp) checkBook() {
	bk := wa.bk
	wa.background("Checking the book", func(ctx context.Context, report func(session.Progress)) (string, error) {
		start := time.Now()
		report(session.Progress{Text: "integrity, positions, moves and statuses…"})
		rep, err := bk.Check(ctx, func(p service.CheckProgress) {
			report(session.Progress{Done: p.Checked, Total: p.Total,
				Text: fmt.Sprintf("re-checking proofs from their certificates: %d / %d", p.Checked, p.Total)})
		})
		if err != nil {
			return "", err
		}
		secs := time.Since(start).Seconds()
		head := fmt.Sprintf("%s, %s; %s re-checked from their certificates (%.1f s, %.0f positions/s).",
			session.Plural(rep.Positions, "position", "positions"), session.Plural(rep.Edges, "move", "moves"),
			session.Plural(rep.Proofs, "proof", "proofs"), secs, float64(rep.Positions)/max(secs, 1e-3))
		if rep.OK() {
			return head + "\nThe book is sound.", nil
		}
		return "", fmt.Errorf("%s\n%s; the first: %s", head, session.Plural(len(rep.Problems), "problem", "problems"), rep.Problems[0])
	}, nil)
}

// openPath opens the book at path (off the UI goroutine: an upgrade may
// take a while) and shows it; then (if any) runs after, either way.
func (wa *workbenchApp) openPath(path string, then ...func()) {
	wa.wb.Session().Go(func() func() {
		bk, err := service.Open(context.Background(), path)
		return func() {
			defer runAll(then)
			if err != nil {
				dialog.ShowError(fmt.Errorf("open %s: %w", path, err), wa.win)
				return
			}
			wa.switchTo(bk)
		}
	})
}

func (wa *workbenchApp) setMenu() {
	recent := fyne.NewMenuItem("Recent books", nil)
	for _, p := range wa.app.Preferences().StringList(prefRecent) {
		path := p
		recent.ChildMenu = appendItem(recent.ChildMenu, fyne.NewMenuItem(path, func() { wa.openPath(path) }))
	}
	if recent.ChildMenu == nil {
		recent.Disabled = true
	}
	// A read-only book cannot take imports.
	importSGF := fyne.NewMenuItem("Import SGF…", func() { wa.importSGF(false) })
	importLines := fyne.NewMenuItem("Import SGF with proof lines…", func() { wa.importSGF(true) })
	importGames := fyne.NewMenuItem("Import games (LittleGolem JSON)…", wa.importGames)
	importSGF.Disabled = wa.bk.ReadOnly() != ""
	importLines.Disabled = importSGF.Disabled
	importGames.Disabled = importSGF.Disabled
	importBundled := fyne.NewMenuItem(bundledLabel(), wa.importBundledGames)
	importBundled.Disabled = importSGF.Disabled
	items := []*fyne.MenuItem{
		fyne.NewMenuItem("New book…", wa.newBook),
		fyne.NewMenuItem("Open book…", wa.openBook),
		recent,
		fyne.NewMenuItem("Save a copy…", wa.saveCopy),
		fyne.NewMenuItemSeparator(),
		importSGF,
		importLines,
		importGames,
		importBundled,
		fyne.NewMenuItem("Export SGF of this position…", wa.exportSGF),
		fyne.NewMenuItem("Export board as PNG…", wa.exportPNG),
		fyne.NewMenuItemSeparator(),
	}
	items = append(items, wa.travelItems()...) // merge, split, proof SGF (merge.go)
	items = append(items,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Check book…", wa.checkBook),
		fyne.NewMenuItem("Verifier queue…", func() { wa.showPreferences() }),
		fyne.NewMenuItemSeparator(),
		quitItem(wa.quit),
	)
	file := fyne.NewMenu("File", items...)
	undo := fyne.NewMenuItem("Undo last edit", wa.wb.History().Undo)
	undo.Shortcut = &fyne.ShortcutUndo{}
	prefs := fyne.NewMenuItem("Preferences…", func() { wa.showPreferences() })
	prefs.Shortcut = preferencesShortcut()
	// Redo, copy, paste and Go to line (ui/linetext.go).
	redo := fyne.NewMenuItem("Redo", wa.wb.History().Redo)
	redo.Shortcut = ui.RedoShortcuts()[0]
	copyLine := fyne.NewMenuItem("Copy line", wa.wb.CopyLine)
	copyLine.Shortcut = &fyne.ShortcutCopy{}
	pasteLine := fyne.NewMenuItem("Paste line", wa.wb.PasteLine)
	pasteLine.Shortcut = &fyne.ShortcutPaste{}
	goToLine := fyne.NewMenuItem("Go to line…", wa.wb.ShowGoToLine)
	edit := fyne.NewMenu("Edit", undo, redo, fyne.NewMenuItemSeparator(), copyLine, pasteLine, goToLine,
		fyne.NewMenuItemSeparator(), prefs)
	engineMove := fyne.NewMenuItem("Play engine move", wa.wb.Prover().PlayEngineMove)
	engineMove.Shortcut = ui.EngineMoveShortcut()
	engineMenu := fyne.NewMenu("Engine",
		fyne.NewMenuItem("Suggest moves", wa.wb.Prover().Suggest),
		engineMove,
		fyne.NewMenuItem("Stop", wa.wb.Prover().Stop),
	)
	// The navigation keys' table (ui/keys.go), their accelerators shown.
	nav := wa.wb.NavMenu(fyne.NewMenuItem("Next position to prove", wa.wb.Cursor().Next))
	wa.win.SetMainMenu(fyne.NewMainMenu(file, edit, nav, engineMenu))
}

// runAll calls each of fs in order.
func runAll(fs []func()) {
	for _, f := range fs {
		f()
	}
}

func appendItem(m *fyne.Menu, it *fyne.MenuItem) *fyne.Menu {
	if m == nil {
		return fyne.NewMenu("", it)
	}
	m.Items = append(m.Items, it)
	return m
}

func (wa *workbenchApp) newBook() {
	rulesE := widget.NewEntry()
	rulesE.SetText(game.Connect6().String())
	form := dialog.NewForm("New book", "Choose file…", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Rules (m,n,k,p,q)", rulesE)},
		func(ok bool) {
			if !ok {
				return
			}
			r, err := game.ParseRules(rulesE.Text)
			if err != nil {
				dialog.ShowError(err, wa.win)
				return
			}
			wa.chooseFile(fileSpec{title: "New book", confirm: "Create", save: true, name: "book.c6book", exts: []string{".c6book"}}, func(path string) {
				if path == wa.bk.Path() {
					dialog.ShowError(errors.New("new book: choose another file than the open book"), wa.win)
					return
				}
				os.Remove(path) // the user agreed to replace it; Create wants a new file
				wa.wb.Session().Go(func() func() {
					bk, err := service.Create(context.Background(), path, r)
					return func() {
						if err != nil {
							dialog.ShowError(err, wa.win)
							return
						}
						wa.switchTo(bk)
					}
				})
			})
		}, wa.win)
	form.Show()
}

func (wa *workbenchApp) openBook() {
	wa.chooseFile(fileSpec{title: "Open book", confirm: "Open", exts: []string{".c6book", ".db", ".sqlite"}}, func(path string) { wa.openPath(path) })
}

func (wa *workbenchApp) saveCopy() {
	name := strings.TrimSuffix(filepath.Base(wa.bk.Path()), filepath.Ext(wa.bk.Path())) + "-copy.c6book"
	wa.chooseFile(fileSpec{title: "Save a copy", confirm: "Save", save: true, name: name, exts: []string{".c6book"}}, func(path string) {
		if path == wa.bk.Path() {
			dialog.ShowError(errors.New("save a copy: choose another file than the open book"), wa.win)
			return
		}
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			dialog.ShowError(fmt.Errorf("save a copy: %s is not a regular file (%s); nothing was replaced", path, fi.Mode().Type()), wa.win)
			return
		}
		os.Remove(path) // the user agreed to replace it; VACUUM INTO wants a new file
		wa.saveCopyTo(path)
	})
}

// saveCopyTo writes a consistent copy of the book to path (a new file).
func (wa *workbenchApp) saveCopyTo(path string) {
	bk := wa.bk
	wa.background("Saving a copy", func(ctx context.Context, _ func(session.Progress)) (string, error) {
		if err := bk.Backup(ctx, path); err != nil {
			return "", err
		}
		return "Saved a consistent copy to " + path, nil
	}, nil)
}

// importSGF asks for an SGF file and merges it into the book. With
// partial (File → Import SGF with proof lines, as c6 book import
// --partial) a turn with fewer stones than the rules place is read as a
// null or seminull move, as ExportSGF writes proof lines; else such a turn
// refuses the file.
func (wa *workbenchApp) importSGF(partial bool) {
	title := "Import SGF"
	if partial {
		title = "Import SGF with proof lines"
	}
	wa.chooseFile(fileSpec{title: title, confirm: "Import", exts: []string{".sgf", ".SGF"}}, func(path string) {
		wa.importSGFFrom(func() (io.ReadCloser, int64, error) { return openSized(path) }, partial)
	})
}

// openSized opens path for reading with its size, the progress bar's
// total (0 when unknown, as for a pipe: the bar bounces).
func openSized(path string) (io.ReadCloser, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	size := int64(0)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return f, size, nil
}

// importSGFData merges an SGF collection held in memory into the book.
func (wa *workbenchApp) importSGFData(data []byte, partial bool) {
	wa.importSGFFrom(func() (io.ReadCloser, int64, error) {
		return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
	}, partial)
}

// importSGFFrom merges an SGF collection into the book (one transaction),
// read as it is imported (within the engine's SGF limits). open gives the
// input and its size (0: unknown), the bar's total; then (if any) runs after.
func (wa *workbenchApp) importSGFFrom(open func() (io.ReadCloser, int64, error), partial bool, then ...func()) {
	bk := wa.bk
	wa.background("Importing SGF", func(ctx context.Context, report func(session.Progress)) (string, error) {
		in, size, err := open()
		if err != nil {
			return "", err
		}
		defer in.Close()
		st, err := bk.ImportSGF(ctx, &countingReader{r: in, total: size, report: report}, partial)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Imported %s (%d already in the book): %s, %s.",
			session.Plural(st.Games, "game", "games"), st.Already, session.Plural(st.Positions, "new position", "new positions"),
			session.Plural(st.Edges, "new move", "new moves")), nil
	}, nil, then...)
}

func (wa *workbenchApp) importGames() {
	wa.chooseFile(fileSpec{title: "Import games (LittleGolem JSON)", confirm: "Import", exts: []string{".json", ".gz"}}, wa.importGamesFile)
}

// importGamesFile imports a LittleGolem games file ({"gid": [turns]},
// plain or gzip), committed batch by batch.
func (wa *workbenchApp) importGamesFile(path string) {
	wa.importGamesFrom(func() (io.ReadCloser, error) { return os.Open(path) })
}

// importGamesFrom imports the LittleGolem games open reads, committed
// batch by batch, with progress and Cancel; then (if any) runs after.
func (wa *workbenchApp) importGamesFrom(open func() (io.ReadCloser, error), then ...func()) {
	bk := wa.bk
	wa.background("Importing games", func(ctx context.Context, report func(session.Progress)) (string, error) {
		f, err := open()
		if err != nil {
			return "", err
		}
		defer f.Close()
		res, err := bk.ImportGames(ctx, f, service.ImportGamesOptions{Progress: func(p service.ImportProgress) {
			report(importGamesProgress(p))
		}})
		if res.Cancelled {
			return importCancelledText(res.Kept), nil // what the book holds of it
		}
		st := res.ImportStats
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Imported %s (%d already in the book, %d skipped): %s, %s.",
			session.Plural(st.Games, "game", "games"), st.Already, len(st.Skipped), session.Plural(st.Positions, "new position", "new positions"),
			session.Plural(st.Edges, "new move", "new moves")), nil
	}, nil, then...)
}

// importProgressText is the import dialog's line: what committed
// transactions hold so far.
func importProgressText(p service.ImportProgress) string {
	return fmt.Sprintf("%d / %s committed: %d stored, %d already in the book, %d skipped", p.Done, session.Plural(p.Total, "game", "games"), p.Stored, p.Already, p.Skipped)
}

// importCancelledText says what a cancelled import stored.
func importCancelledText(p service.Kept) string {
	if p.Nothing() {
		// Cancelled while the file was being checked, before any write.
		return "Import cancelled while the file was read: nothing was stored."
	}
	return fmt.Sprintf("Import cancelled: %d of the file's %s stored (kept; %d already in the book, %d skipped). Importing the file again adds the rest.",
		p.Stored, session.Plural(p.Total, "game was", "games were"), p.Already, p.Skipped)
}

// exportSGF exports the shown position's subtree as a job (progress and
// Cancel; the board stays usable), then asks where to save it.
func (wa *workbenchApp) exportSGF() {
	bk, pos := wa.bk, wa.wb.Cursor().Position().Clone()
	line, cur := wa.wb.Cursor().Line()
	var data []byte
	var st service.ExportStats
	wa.background("Export SGF", func(ctx context.Context, report func(session.Progress)) (string, error) {
		var err error
		data, st, err = exportSGFData(ctx, bk, pos, line[:cur], func(s string) { report(session.Progress{Text: s}) })
		return "", err
	}, func(string) {
		wa.saveData("Export SGF", "SGF", "position.sgf", []string{".sgf"}, data)
		if st.Truncated {
			dialog.ShowInformation("Export SGF", fmt.Sprintf("The export stops at %d moves below this position: the book stores more. "+
				"The file says so in its game comment; export a position further down for the rest.", exportMaxNodes), wa.win)
		}
	})
}

// exportMaxNodes bounds an SGF export from the app (the SGF text is held
// in memory until it is saved).
const exportMaxNodes = 1_000_000

// exportSGFData is the SGF of pos, reached by line: the line to it, then
// its subtree with comments and statuses, in the line's orientation.
func exportSGFData(ctx context.Context, bk *service.Book, pos *board.Board, line []game.Move, say func(string)) ([]byte, service.ExportStats, error) {
	var buf bytes.Buffer
	st, err := bk.ExportSGF(ctx, pos, &buf, service.ExportOptions{Line: line, MaxNodes: exportMaxNodes,
		Progress: func(n int) { say(session.Plural(n, "move", "moves") + " exported") }})
	if err != nil {
		return nil, st, err
	}
	return buf.Bytes(), st, nil
}

// background runs long book work as a session job (off the UI goroutine,
// cancelled and waited for if another book is opened or the app quits)
// with a progress dialog and a Cancel button; then the workbench reloads
// and ok gets the result (nil: it shows in a dialog), or the error shows.
// The work reports through report (any goroutine, never blocks); the
// dialog shows the latest report (progressView), its bar determinate when
// the report has a Total. then (if any) runs last, whatever the outcome.
func (wa *workbenchApp) background(title string, work func(ctx context.Context, report func(session.Progress)) (string, error), ok func(string), then ...func()) {
	view := newProgressView(time.Now())
	d := dialog.NewCustom(title, "Cancel", view.box, wa.win)
	d.Resize(fyne.NewSize(560, 0))
	var res string
	job := wa.wb.Session().Start(session.JobSpec{
		Kind: session.JobBook,
		Run: func(ctx context.Context, _ session.BookStore, progress func(session.Progress)) error {
			var err error
			res, err = work(ctx, progress)
			return err
		},
		OnProgress: view.show,
		OnDone: func(err error) {
			defer runAll(then)
			view.stop()
			d.Hide()
			wa.wb.Session().Reload()
			switch {
			case errors.Is(err, context.Canceled):
				// Cancelled by the user (or by opening another book).
			case err != nil:
				dialog.ShowError(fmt.Errorf("%s: %w", strings.ToLower(title), err), wa.win)
			case ok != nil:
				ok(res)
			default:
				dialog.ShowInformation(title, res, wa.win)
			}
		},
	})
	d.SetOnClosed(job.Cancel)
	d.Show()
}

// busy is the number of background jobs running.
func (wa *workbenchApp) busy() int { return len(wa.wb.Session().Jobs()) }

// screenshotWhenReady (on its own goroutine) waits until the window has
// been shown for o.wait and any verification has finished, then captures
// the window into o.screenshot and, with --quit-after, quits. It never
// sleeps on the UI goroutine.
func (wa *workbenchApp) screenshotWhenReady(o options) {
	wa.runScript(o) // --show-proof, --tab (script.go)
	time.Sleep(o.wait)
	deadline := time.Now().Add(2 * time.Minute)
	var img image.Image
	for {
		running := true
		fyne.DoAndWait(func() {
			running = wa.wb.Prover().Running() || wa.wb.Prover().Suggesting() || wa.wb.Session().Busy() > 0
			if !running {
				img = wa.win.Canvas().Capture()
			}
		})
		if !running && !blank(img) || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	err := writePNG(o.screenshot, img)
	if err == nil && blank(img) {
		err = fmt.Errorf("screenshot %s is blank", o.screenshot)
	}
	if err == nil && o.exportPNG != "" {
		var buf bytes.Buffer
		fyne.DoAndWait(func() { err = wa.writeBoardPNG(&buf, o.exportOverlay) })
		if err == nil {
			err = os.WriteFile(o.exportPNG, buf.Bytes(), 0o644)
		}
	}
	wa.setShotErr(err)
	if o.quitAfter {
		fyne.Do(wa.endLoop)
	}
}

func writePNG(path string, img image.Image) error {
	if img == nil {
		return errors.New("no capture")
	}
	// The GL capture leaves alpha at 0 where the framebuffer has none: the
	// window is opaque, so write it opaque.
	out := image.NewNRGBA(img.Bounds())
	for y := out.Rect.Min.Y; y < out.Rect.Max.Y; y++ {
		for x := out.Rect.Min.X; x < out.Rect.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			out.SetNRGBA(x, y, color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, out); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// blank reports whether img is missing or a single colour.
func blank(img image.Image) bool {
	if img == nil || img.Bounds().Empty() {
		return true
	}
	b := img.Bounds()
	r0, g0, b0, a0 := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			if r, g, bb, a := img.At(x, y).RGBA(); r != r0 || g != g0 || bb != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}
