package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// A long import (one batch of 40000 games, were it not for the time bound)
// runs in one connection while, in two others as in two other programs,
// verifiers store verdicts (with a busy timeout far shorter than the
// import) and the app stores notes: every verdict and every note is
// stored, and the other writers get the lock while the import still runs.
func TestLongImportAgainstVerdictsAndEdits(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/lock.c6book"
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	r := bk.Rules()
	// Eight positions with White to move, for Black's verdicts.
	lines := []string{"j10", "a1", "b1", "c1", "d1", "b2", "c2", "d2"} // no two symmetric
	ids := make([]PosID, len(lines))
	for i, l := range lines {
		ids[i] = add(t, bk, l)
	}
	verifier, err := OpenWith(ctx, path, OpenOptions{BusyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { verifier.Close() })
	// The app waits for the lock as long as it takes: how long an import
	// transaction holds it depends on the machine's speed (about
	// DefaultMaxTxTime, a game more on a loaded one), so the default busy
	// timeout would make the test depend on it; overlapped below still
	// fails if the import holds the lock throughout.
	app, err := OpenWith(ctx, path, OpenOptions{BusyTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })

	gids, games := synthGames(5, 3000, 30)
	var importing atomic.Bool
	importing.Store(true)
	done := make(chan ImportStats, 1)
	go func() {
		defer importing.Store(false)
		st, err := bk.importGames(ctx, gids, games, ImportOptions{Batch: 40000})
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()

	// Verifiers: each stores verdicts on its position (the unsolved reply
	// changes each time) until the import is over; the last one must stay.
	var wg sync.WaitGroup
	var overlapped atomic.Int64
	last := make([]game.Move, len(ids))
	replies := []string{"k11l12", "h8h9", "b2c3", "m13n14"}
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := verifier.Board(ctx, id) // canonical frame
			if err != nil {
				t.Error(err)
				return
			}
			for n := 0; n == 0 || importing.Load(); n++ {
				var m game.Move
				for _, s := range replies[(i+n)%len(replies):] {
					if c, err := game.ParseMove(r, s); err == nil && b.Check(c, false) == nil {
						m = c
						break
					}
				}
				v := c6book.Verdict{Attacker: game.Black, Status: c6book.StatusOpen, Lambda: 2, Engine: "test",
					Unsolved: []c6book.Unsolved{{Move: m, Reason: threat.UnsolvedReason(fmt.Sprint("run ", n))}}}
				if _, err := verifier.StoreVerdict(ctx, id, v); err != nil {
					t.Errorf("verdict %d, run %d: %v", i, n, err)
					return
				}
				last[i] = m
				if importing.Load() {
					overlapped.Add(1)
				}
				time.Sleep(20 * time.Millisecond) // the next verification
			}
		}()
	}
	// The app: comments, one after the other.
	var notes []string
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; n == 0 || importing.Load(); n++ {
			id := ids[n%len(ids)]
			text := fmt.Sprint("note ", n)
			if err := app.SetComment(ctx, id, text); err != nil {
				t.Errorf("comment %d: %v", n, err)
				return
			}
			if len(notes) < len(ids) {
				notes = append(notes, "")
			}
			notes[n%len(ids)] = text
			if importing.Load() {
				overlapped.Add(1)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	st := <-done
	wg.Wait()
	if t.Failed() {
		return
	}
	if st.Games != len(gids) {
		t.Fatalf("imported %d of %d games", st.Games, len(gids))
	}
	if overlapped.Load() == 0 {
		t.Fatal("no verdict or note was stored while the import ran: the import held the lock throughout")
	}
	if st.Transactions < 2 {
		t.Fatalf("the import of %d games in one batch of 40000 committed %d times", len(gids), st.Transactions)
	}
	for i, id := range ids {
		p, err := bk.Position(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Verdict == nil || len(p.Verdict.Unsolved) != 1 || p.Verdict.Unsolved[0].Move != last[i] {
			t.Fatalf("position %s: verdict %+v, want the last one stored (unsolved %s)", lines[i], p.Verdict, game.MoveName(r, last[i]))
		}
		if i < len(notes) && p.Comment != notes[i] {
			t.Fatalf("position %s: comment %q, want %q", lines[i], p.Comment, notes[i])
		}
	}
	mustCheck(t, bk)
	t.Logf("%d writes overlapped the import; %d transactions, the longest %v", overlapped.Load(), st.Transactions, st.LongestTx)
}

// Every transaction of an import is bounded in time, whatever the batch:
// with a bound shorter than any game, each transaction stores one game.
func TestImportTimeBound(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	ids, games := synthGames(9, 60, 20)
	var commits [][]string
	st, err := bk.importGames(ctx, ids, games, ImportOptions{Batch: 40000, MaxTxTime: time.Nanosecond,
		OnCommit: func(gs []string) { commits = append(commits, gs) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 60 || st.Transactions != 60 || len(commits) != 60 {
		t.Fatalf("%d games in %d transactions (%d commits reported), want one game per transaction", st.Games, st.Transactions, len(commits))
	}
	for i, c := range commits {
		if len(c) != 1 || c[0] != ids[i] {
			t.Fatalf("commit %d: %v, want [%s]", i, c, ids[i])
		}
	}
	mustCheck(t, bk)
}

// StoreVerdict waits out another writer's lock past its busy timeout (it
// retries until stored), and gives up only when its context is done; the
// write that gave up stored nothing.
func TestStoreVerdictRetries(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/retry.c6book"
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	add(t, bk, "j10")
	id, v := verdict(t, bk, "j10", verify.StatusOpen, 0, "k11l12")
	other, err := OpenWith(ctx, path, OpenOptions{BusyTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	// Hold the write lock in bk until told to let go.
	locked, release, released := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	hold := func() {
		released <- bk.write(ctx, func(tx *sql.Tx) error {
			close(locked)
			<-release
			return nil
		})
	}
	go hold()
	<-locked
	// A plain write fails after its busy timeout...
	if err := other.SetComment(ctx, id, "x"); !IsBusy(err) {
		t.Fatalf("a write against a held lock: %v, want database is locked", err)
	}
	// ...a verdict gives up only with its context,
	cctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	_, err = other.StoreVerdict(cctx, id, v)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("verdict against a held lock with a deadline: %v", err)
	}
	if p, _ := other.Position(ctx, id); p.Verdict != nil {
		t.Fatal("a verdict that gave up was stored")
	}
	// ...and otherwise waits for the lock, however long it is held.
	stored := make(chan error, 1)
	go func() { _, err := other.StoreVerdict(ctx, id, v); stored <- err }()
	select {
	case err := <-stored:
		t.Fatalf("the verdict was stored (%v) while the lock was held", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if err := <-released; err != nil {
		t.Fatal(err)
	}
	if err := <-stored; err != nil {
		t.Fatalf("verdict after the lock was released: %v", err)
	}
	p, err := other.Position(ctx, id)
	if err != nil || p.Verdict == nil || p.Verdict.Unsolved[0].Move != v.Unsolved[0].Move {
		t.Fatalf("stored verdict %+v, %v", p.Verdict, err)
	}
}
