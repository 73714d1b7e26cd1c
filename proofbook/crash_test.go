package proofbook

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/bookdamage"
)

// synthGames makes n random legal Connect6 games of up to maxTurns turns,
// stones near the centre (so that games share openings and transpose):
// bookdamage.Games, with the ids in the order they were made.
func synthGames(seed int64, n, maxTurns int) ([]string, map[string][]string) {
	games := bookdamage.Games(seed, n, maxTurns)
	ids := make([]string, n)
	for g := range ids {
		ids[g] = fmt.Sprint(100000 + g)
	}
	return ids, games
}

const crashEnv = "C6BOOK_CRASH_WRITER"

// TestHelperWriter is the child process of TestCrashSafety: it imports the
// synthetic games into the book named by C6BOOK_CRASH_WRITER, printing each
// committed game id, until it is killed.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("child process of TestCrashSafety only")
	}
	ctx := context.Background()
	bk, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	ids, games := synthGames(7, crashGames, 30)
	_, err = bk.importGames(ctx, ids, games, ImportOptions{Batch: 10, OnCommit: func(gs []string) {
		fmt.Println("committed", strings.Join(gs, " "))
	}})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("done")
	bk.Close()
	os.Exit(0)
}

const crashGames = 2500

func TestCrashSafety(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "crash.c6book")
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	_, games := synthGames(7, crashGames, 30)
	rng := rand.New(rand.NewSource(1))
	t0 := time.Now()
	committed := map[string]bool{}
	kills, finished := 0, false
	for run := 0; run < 20 && !finished; run++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var reported []string
		done := make(chan struct{})
		commits := make(chan struct{}, 1000)
		go func() {
			defer close(done)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				line := sc.Text()
				mu.Lock()
				switch {
				case strings.HasPrefix(line, "committed "):
					reported = append(reported, strings.Fields(line)[1:]...)
					select {
					case commits <- struct{}{}:
					default:
					}
				case line == "done":
					finished = true
				case strings.HasPrefix(line, "error"):
					t.Errorf("child: %s", line)
				}
				mu.Unlock()
			}
		}()
		// Kill at a random moment of the import, whatever its speed (-race
		// or not): after a random number of commits (1-8), plus 0-30 ms.
		wait := 1 + rng.Intn(8)
		delay := time.Duration(rng.Intn(30)) * time.Millisecond
		killed := false
	waiting:
		for n := 0; ; {
			select {
			case <-commits:
				if n++; n < wait {
					continue
				}
				select {
				case <-time.After(delay):
					killed = cmd.Process.Signal(syscall.SIGKILL) == nil
				case <-done:
				}
				break waiting
			case <-done:
				break waiting
			}
		}
		<-done
		cmd.Wait()
		if killed {
			kills++
		}
		mu.Lock()
		for _, g := range reported {
			committed[g] = true
		}
		mu.Unlock()
		// The book opens, is intact, and holds every reported game.
		bk, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("run %d: open after the kill: %v", run, err)
		}
		var ic string
		if err := bk.r.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ic); err != nil || ic != "ok" {
			t.Fatalf("run %d: integrity_check %q %v", run, ic, err)
		}
		for g := range committed {
			var leaf int64
			if err := bk.r.QueryRowContext(ctx, "SELECT leaf FROM game WHERE source = 'littlegolem' AND ext_id = ?", g).Scan(&leaf); err != nil {
				t.Fatalf("run %d: committed game %s missing: %v", run, g, err)
			}
		}
		bk.Close()
	}
	if kills < 10 {
		t.Fatalf("only %d of the runs were killed mid-import; make the import larger", kills)
	}
	t.Logf("%d kills, %d games reported committed (%s)", kills, len(committed), time.Since(t0).Round(time.Millisecond))
	// The final book: sound, every committed game replays to its stored
	// leaf, and it holds exactly the positions and moves of the games it
	// lists (nothing from a transaction that did not commit).
	bk, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	rep := mustCheck(t, bk)
	r := bk.Rules()
	rows, err := bk.r.QueryContext(ctx, "SELECT ext_id, leaf FROM game")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]PosID{}
	for rows.Next() {
		var g string
		var leaf int64
		if err := rows.Scan(&g, &leaf); err != nil {
			t.Fatal(err)
		}
		stored[g] = PosID(leaf)
	}
	rows.Close()
	for g := range committed {
		if _, ok := stored[g]; !ok {
			t.Fatalf("committed game %s missing", g)
		}
	}
	type edgeKey struct {
		parent uint64
		move   int64
	}
	positions := map[uint64]bool{}
	edges := map[edgeKey]bool{}
	tmpl := board.MustNewBoard(r)
	for g, leaf := range stored {
		b := tmpl.Clone()
		key, sym := b.CanonicalKey()
		positions[key] = true
		for _, t1 := range games[g] {
			m, err := game.ParseMove(r, t1)
			if err != nil {
				t.Fatal(err)
			}
			rep := repMove(r, stabilizer(r, canonStones(r, b, sym)), ToCanonical(r, sym, m))
			edges[edgeKey{key, packMove(rep)}] = true
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
			key, sym = b.CanonicalKey()
			positions[key] = true
		}
		id, _, err := bk.Locate(ctx, b)
		if err != nil || id != leaf {
			t.Fatalf("game %s: stored leaf %d, replayed %d (%v)", g, leaf, id, err)
		}
	}
	st, err := bk.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != int64(len(positions)) || st.Edges != int64(len(edges)) || st.Games != int64(len(stored)) {
		t.Fatalf("book: %d positions %d moves %d games; its games make %d positions %d moves",
			st.Positions, st.Edges, st.Games, len(positions), len(edges))
	}
	t.Logf("(%s) final book: %d positions, %d moves, %d games (check: %d statuses)",
		time.Since(t0).Round(time.Millisecond), st.Positions, st.Edges, st.Games, rep.Statuses)
}
