// Command c6book is the desktop workbench: the only package that wires the
// engine, the proof book and the widgets together.
//
//	c6book [--book PATH] [--play TURNS] [--attacker B|W] [--verify] [--auto]
//	       [--auto-time D] [--suggest] [--play-time D] [--import-games FILE]
//	       [--screenshot FILE] [--shot-delay D] [--quit-after] [--bench-keys N]
//	       [--preferences] [--import-bundled] [--replies all|games:N|book]
//
// --bench-keys N types N ← and → keys into the window and prints the time
// from each key to the repainted window (app/benchkeys.go; make bench-ui).
//
// Without --book it opens the last book used, or a default book in the
// app's storage directory (created on first start).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"c6book/engine/game"
	"c6book/ui"
)

// appID is set in code so that storage and preferences have a stable home.
const appID = "org.c6book.workbench"

// options are the command-line flags.
type options struct {
	book       string
	play       string
	attacker   string
	verify     bool
	auto       bool
	suggest    bool
	playTime   time.Duration
	lambda     int
	screenshot string
	autoTime   time.Duration // --auto-time: the auto-pilot's time budget
	exportPNG  string
	quitAfter  bool
	wait       time.Duration
	benchKeys  int
	benchProf  string          // --bench-profile: a CPU profile of the keys
	importFile string          // --import-games
	flagSet    map[string]bool // the flags given on the command line
	showPrefs  bool
	bundled    bool // import the bundled games at start
	merge      string
	replies    string // --replies: the Replies filter (ui.ParseReplyFilter)
	showProof  int    // --show-proof: step the proof shown at start (-1: none; script.go)
	tab        string // --tab: the tab shown at start (script.go)
	window     string // --window: the window's size at start, "WxH" (script.go)

	exportOverlay bool // --export-overlay: the --export-board image has the board's overlay
	atlas         bool // --atlas: show the Atlas tab at start

	// Tests: how results reach the UI goroutine (fyne.Do when nil), and
	// book calls run inline (see session.Config).
	do     func(func())
	inline bool
	// localVerifier (tests) verifies in this process instead of through
	// the verifier queue beside the book.
	localVerifier bool
	// playNodes (tests) bounds the engine player in nodes instead of
	// time: the same answer on every machine.
	playNodes int64
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("c6book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.book, "book", "", "open (or create) the book at `PATH`")
	fs.StringVar(&o.play, "play", "", "store and show the line `TURNS` (LittleGolem notation, e.g. \"j10 k10k11\")")
	fs.StringVar(&o.attacker, "attacker", "B", "attacker for statuses and the prover (B or W)")
	fs.BoolVar(&o.verify, "verify", false, "run the verifier on the shown position at start")
	fs.BoolVar(&o.auto, "auto", false, "start the auto-pilot below the shown position at start (a --screenshot shows it running)")
	fs.DurationVar(&o.autoTime, "auto-time", 0, "the auto-pilot's time budget (the Prove tab's time; 0: none)")
	fs.IntVar(&o.lambda, "lambda", 2, "Verify's mode: 2 or 3 (the auto-pilot is λ3, as c6 book prove)")
	fs.BoolVar(&o.suggest, "suggest", false, "press Suggest on the shown position at start (a --screenshot waits for its answer)")
	fs.DurationVar(&o.playTime, "play-time", time.Second, "the engine player's time for a move (Suggest, Play engine move)")
	fs.StringVar(&o.screenshot, "screenshot", "", "save a capture of the window to `FILE` (PNG) once it is drawn (and any --verify is done)")
	fs.StringVar(&o.exportPNG, "export-board", "", "with --screenshot: also export the board as a PNG to `FILE`")
	fs.BoolVar(&o.exportOverlay, "export-overlay", true, "with --export-board: draw the board's overlay (zone, unsolved moves, reply letters, marks), as File → Export board's option; false: the stones only")
	fs.BoolVar(&o.quitAfter, "quit-after", false, "quit after saving the screenshot")
	fs.BoolVar(&o.showPrefs, "preferences", false, "show the Preferences at start (a --screenshot shows them)")
	fs.BoolVar(&o.bundled, "import-bundled", false, "import the bundled LittleGolem games at start, as the welcome panel's button (a --screenshot shows the progress)")
	fs.StringVar(&o.merge, "merge", "", "merge the book at `FILE` into the book at start (a --screenshot shows its summary)")
	fs.IntVar(&o.benchKeys, "bench-keys", 0, "benchmark: type `N` ← and → keys into the window, print key → repaint times and quit")
	fs.StringVar(&o.benchProf, "bench-profile", "", "with --bench-keys: write a CPU profile of the keys typed to `FILE` (go tool pprof)")
	fs.StringVar(&o.importFile, "import-games", "", "import the LittleGolem games file `FILE` (JSON, plain or gzip) at start, with its progress dialog (File → Import games)")
	fs.StringVar(&o.replies, "replies", "", "the replies the board and the Replies list show: all, games:2, games:5, games:20 (played that often, and book moves) or book (book moves only); default: the last choice")
	fs.IntVar(&o.showProof, "show-proof", -1, "show the proof of the shown (proved) position at start, `N` steps in (a --screenshot shows it)")
	fs.StringVar(&o.window, "window", "", "the window's size at start, `WxH` in pixels (default 1280x860)")
	fs.StringVar(&o.tab, "tab", "", "show the tab `NAME` at start (Prove, Notes, Games, Search, Solved, Proof, Atlas)")
	fs.BoolVar(&o.atlas, "atlas", false, "show the Atlas tab (the opening atlas's rows and their statuses) at start")
	fs.DurationVar(&o.wait, "shot-delay", 1500*time.Millisecond, "how long the window is shown before the screenshot")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.flagSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.flagSet[f.Name] = true })
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.benchProf != "" && o.benchKeys <= 0 {
		return o, errors.New("--bench-profile needs --bench-keys")
	}
	if o.lambda != 2 && o.lambda != 3 {
		return o, fmt.Errorf("--lambda %d: want 2 or 3", o.lambda)
	}
	if o.autoTime < 0 {
		return o, fmt.Errorf("--auto-time %v: want a duration of 0 or more", o.autoTime)
	}
	if o.playTime <= 0 {
		return o, fmt.Errorf("--play-time %v: want a positive duration", o.playTime)
	}
	if _, ok := parseWindowSize(o.window); o.window != "" && !ok {
		return o, fmt.Errorf("--window %q: want WxH in pixels, e.g. 1600x1000", o.window)
	}
	if o.tab != "" && !slices.ContainsFunc(ui.TabNames(), func(n string) bool { return strings.EqualFold(n, o.tab) }) {
		return o, fmt.Errorf("--tab %q: want one of %s", o.tab, strings.Join(ui.TabNames(), ", "))
	}
	if _, err := game.ParseColor(o.attacker); err != nil {
		return o, fmt.Errorf("--attacker: %w", err)
	}
	if _, err := ui.ParseReplyFilter(o.replies); err != nil {
		return o, fmt.Errorf("--replies: %w", err)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(os.Stderr, "c6book:", err)
			os.Exit(2)
		}
		return
	}
	if path, err := preferencesPath(); err == nil {
		if err := dropEmptyPreferences(path); err != nil {
			fmt.Fprintln(os.Stderr, "c6book: preferences:", err)
		}
	}
	// Every call into Fyne from another goroutine goes through fyne.Do or
	// fyne.DoAndWait (the session's Config.Do, the screenshot and bench
	// goroutines): declaring the migration spares every canvas refresh
	// Fyne's check of the calling goroutine (a stack trace per refresh,
	// a fifth of the UI's time on a position switch).
	app.SetMetadata(fyne.AppMetadata{ID: appID, Name: "c6book", Version: "0.1.0", Build: 1,
		Migrations: map[string]bool{"fyneDo": true}})
	a := app.NewWithID(appID)
	applySavedTheme(a) // before any widget is made
	var bench *keyBench
	if o.benchKeys > 0 {
		bench = newKeyBench()
		o.do = bench.do
	}
	wbApp, err := newWorkbenchApp(context.Background(), a, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "c6book:", err)
		os.Exit(1)
	}
	// SIGTERM, SIGINT: cancel the work and quit (quit.go); listening stops
	// once close has returned.
	stopSignals := wbApp.catchSignals()
	defer stopSignals()
	defer wbApp.close()
	if bench != nil {
		bench.wa = wbApp
		wbApp.win.SetContent(bench.wrap(wbApp.win.Content()))
		a.Lifecycle().SetOnStarted(func() {
			go func() {
				wbApp.setShotErr(bench.run(o.benchKeys, o.wait, o.benchProf, os.Stdout))
				fyne.Do(wbApp.endLoop)
			}()
		})
	}
	if (o.showProof >= 0 || o.tab != "") && o.screenshot == "" {
		a.Lifecycle().SetOnStarted(func() { go wbApp.runScript(o) }) // (script.go)
	}
	if o.screenshot != "" && bench == nil {
		a.Lifecycle().SetOnStarted(func() { go wbApp.screenshotWhenReady(o) })
	}
	wbApp.watchLoop = true
	wbApp.win.ShowAndRun()
	close(wbApp.loopDone)
	if code := wbApp.exitCode(); code != 0 {
		wbApp.close()
		os.Exit(code)
	}
}
