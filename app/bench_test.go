package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/autopilot"
	"c6book/bookfile"
	"c6book/engine/board"
	gamepkg "c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
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
	ids, games, err := bookfile.ReadGames(f)
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
		if bk, err = proofbook.Create(ctx, path, gamepkg.Connect6()); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(gamesFile)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		st, err := bookfile.ImportGames(ctx, bk, f, proofbook.ImportOptions{})
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
	wb, err := ui.NewWorkbenchConfig(newStore(bk, threat.Limits{}), engineVerifier{}, w, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		b.Fatal(err)
	}
	defer wb.Session().Close()
	wb.OnError = func(err error) { b.Fatal(err) }
	w.SetContent(wb.Content())
	w.Resize(fyne.NewSize(1280, 860))
	wb.Attach(w)
	settle := func() {
		for wb.Session().Busy() > 0 {
			(<-queue)()
		}
	}
	turns, err := gamepkg.ParseTurns(bk.Rules(), strings.Join(game, " "))
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range []int{0, 1, 2, 4, 8} {
		if depth+1 > len(turns) {
			break
		}
		start := func() {
			wb.Cursor().GoToLine(turns[:depth+1])
			wb.Cursor().GoToPly(depth)
			settle()
		}
		start()
		n := len(wb.Cursor().Children())
		b.Run(fmt.Sprintf("depth%d-%dreplies", depth, n), func(b *testing.B) {
			start()
			b.ResetTimer()
			stepAndBack(b, w, settle)
		})
		if _, cur := wb.Cursor().Line(); cur != depth && cur != depth+1 {
			b.Fatalf("the keys moved to ply %d, want %d or %d", cur, depth, depth+1)
		}
	}
}

// BenchmarkStoreQueries is the book side alone: Position and Children of a
// position through the adapter (symmetry lookup included).
func BenchmarkStoreQueries(b *testing.B) {
	bk, game := benchBook(b)
	s := newStore(bk, threat.Limits{})
	turns, err := gamepkg.ParseTurns(bk.Rules(), strings.Join(game, " "))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, depth := range []int{0, 1, 2, 4} {
		pos, err := board.Replay(bk.Rules(), turns[:depth])
		if err != nil {
			b.Fatal(err)
		}
		kids, err := s.Children(ctx, pos, gamepkg.Black)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("depth%d-%dreplies", depth, len(kids)), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := s.Position(ctx, pos, gamepkg.Black); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Children(ctx, pos, gamepkg.Black); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShowPositionWhileProving is BenchmarkShowPosition on a small
// Connect(10,10,5,2,1) book while the auto-pilot commits verdicts into it:
// the workbench's own Auto job ("auto-job"), autopilot.Prove on a second
// handle of the file ("other-handle", as another program would), or the
// real `bin/c6 book prove` in another process ("c6-process", when
// ../bin/c6 is built), each with C6_PROVE_JOBS verifier jobs (default 2);
// "idle" is the same steps once the auto-pilot has stopped. Each op is one step between the root and a reply.
// It reports the errors seen (the workbench's and the prover's: "database
// is locked" would be one; must be 0) and the verifier calls committed
// while it ran.
func BenchmarkShowPositionWhileProving(b *testing.B) {
	for _, mode := range []string{"idle", "auto-job", "other-handle", "c6-process"} {
		b.Run(mode, func(b *testing.B) { benchWhileProving(b, mode) })
	}
}

func benchWhileProving(b *testing.B, mode string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Black's proof there takes about 200 calls of 3000 nodes (8 s).
	r := gamepkg.Rules{M: 10, N: 10, K: 5, P: 2, Q: 1}
	path := filepath.Join(b.TempDir(), "prove.c6book")
	bk, err := proofbook.Create(ctx, path, r)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	limits := threat.Limits{MaxNodes: 3000}
	jobs := 2
	if v, err := strconv.Atoi(os.Getenv("C6_PROVE_JOBS")); err == nil && v > 0 {
		jobs = v
	}
	test.NewTempApp(b)
	w := test.NewWindow(nil)
	defer w.Close()
	queue := make(chan func(), 1024)
	wb, err := ui.NewWorkbenchConfig(newStore(bk, limits), engineVerifier{}, w, session.Config{Do: func(f func()) { queue <- f }})
	if err != nil {
		b.Fatal(err)
	}
	defer wb.Session().Close()
	var errs []error
	wb.OnError = func(err error) { errs = append(errs, err) }
	w.SetContent(wb.Content())
	w.Resize(fyne.NewSize(1280, 860))
	wb.Attach(w)
	s := wb.Session()
	settle := func() {
		for s.Busy() > 0 {
			(<-queue)()
		}
	}
	settle()

	// The prover, and how many calls it has committed.
	calls := func() int { return 0 }
	proverErr := make(chan error, 1)
	switch mode {
	case "idle", "auto-job":
		s.Prover().StartAuto(jobs, 0)
		calls = func() int { return s.Prover().AutoProgress().Calls }
	case "other-handle":
		other, err := proofbook.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		defer other.Close()
		var mu sync.Mutex
		n := 0
		calls = func() int { mu.Lock(); defer mu.Unlock(); return n }
		done := make(chan struct{})
		defer func() { cancel(); <-done }()
		go func() {
			defer close(done)
			root, _ := other.Root(ctx)
			_, err := autopilot.Prove(ctx, other, root, verify.LocalVerifier{}, autopilot.ProveOptions{Attacker: gamepkg.Black, Jobs: jobs,
				Verify: verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: limits}}, func(p c6book.ProveProgress) {
				mu.Lock()
				n = p.Calls
				mu.Unlock()
			})
			if err != nil && ctx.Err() == nil {
				proverErr <- err
			}
		}()
	case "c6-process":
		bin, err := filepath.Abs("../bin/c6")
		if err != nil || !fileExists(bin) {
			b.Skip("../bin/c6 not built (make build)")
		}
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, "book", "prove", "--book", path, "--attacker", "B", "--lambda", "2",
			"--jobs", strconv.Itoa(jobs), "--workers", "1", "--max-nodes", "3000", "--json")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() {
			cancel()
			_ = cmd.Wait()
			if strings.Contains(out.String(), "locked") {
				b.Errorf("c6 book prove: %s", out.String())
			}
		}()
		// Its progress is not visible from here: count the verdicts.
		base, _ := bk.Stats(ctx)
		calls = func() int {
			st, err := bk.Stats(context.Background())
			if err != nil {
				return -1
			}
			return int(st.Verdicts - base.Verdicts)
		}
	}

	// Wait for the root's first replies and the prover's fast phase (its
	// first calls, on the root's candidates, take seconds; then it
	// commits tens a second), then step between the root and a reply.
	deadline := time.Now().Add(2 * time.Minute)
	for len(wb.Cursor().Children()) == 0 || calls() < 20 {
		if time.Now().After(deadline) {
			b.Fatalf("the prover did not get going within two minutes (errors %v)", errs)
		}
		time.Sleep(50 * time.Millisecond) // the benchmark's goroutine, not a UI one
		s.Reload()
		settle()
	}
	if mode == "idle" {
		s.Prover().StopAuto()
		for s.Prover().AutoRunning() || s.Busy() > 0 {
			(<-queue)()
		}
	}
	c0 := calls()
	start := time.Now()
	b.ResetTimer()
	stepAndBack(b, w, settle)
	b.StopTimer()
	secs := time.Since(start).Seconds()
	select {
	case err := <-proverErr:
		errs = append(errs, err)
	default:
	}
	b.Logf("%s: %d ops, calls %d to %d in %.1fs", mode, b.N, c0, calls(), secs)
	for _, err := range errs {
		b.Logf("error: %v", err)
	}
	b.ReportMetric(float64(len(errs)), "errors")
	b.ReportMetric(float64(calls()-c0)/secs, "commits/s")
	b.ReportMetric(float64(len(wb.Cursor().Children())), "root-replies")
	if len(errs) > 0 {
		b.Fail()
	}
}

// stepAndBack sends → and ← in turn to the window, b.N keys, each followed
// by settle (the book's answer delivered and rendered).
func stepAndBack(b *testing.B, w fyne.Window, settle func()) {
	key := w.Canvas().OnTypedKey()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			key(&fyne.KeyEvent{Name: fyne.KeyRight})
		} else {
			key(&fyne.KeyEvent{Name: fyne.KeyLeft})
		}
		settle()
	}
}
