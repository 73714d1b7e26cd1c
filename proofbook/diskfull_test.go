package proofbook

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"c6book/engine/game"
)

// A full disk in the middle of an import (simulated by capping the file
// at a few more pages than it holds: SQLite then fails writes with
// SQLITE_FULL exactly as on a full file system) gives a clear error, keeps
// every committed game, writes nothing of the failed transaction, and
// leaves a book that passes its check and takes the rest of the import
// once there is room again.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.c6book")
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { bk.Close() }()
	ids, games := synthGames(11, 1500, 30)
	if _, err := bk.importGames(ctx, ids[:100], games, ImportOptions{Batch: 50}); err != nil {
		t.Fatal(err)
	}
	before := bookCounts(t, bk)
	var pages int
	if err := bk.w.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// Test-only: the writer pool has exactly one long-lived connection,
	// so this cap stays on it (the book never runs PRAGMAs on a pool).
	if _, err := bk.w.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages+40)); err != nil {
		t.Fatal(err)
	}
	var committed []string
	_, err = bk.importGames(ctx, ids, games, ImportOptions{Batch: 50, OnCommit: func(gs []string) { committed = append(committed, gs...) }})
	if err == nil {
		t.Fatal("import into a full book: no error")
	}
	t.Logf("import into a full book: %v", err)
	if !strings.Contains(err.Error(), "full") {
		t.Fatalf("the error does not say the disk is full: %v", err)
	}
	if err := bk.SetComment(ctx, bk.root, strings.Repeat("a long comment ", 50_000)); err == nil {
		t.Fatal("a comment written into a full book: no error")
	}
	// Reads still work, and the writer recovers for small writes that fit.
	if _, err := bk.Children(ctx, bk.root); err != nil {
		t.Fatal(err)
	}
	after := bookCounts(t, bk)
	if after.games != before.games+len(committed) {
		t.Fatalf("after the failure: %d games, want %d before + %d committed", after.games, before.games, len(committed))
	}
	bk.Close()

	// Room again (a new connection has no cap): intact, every committed
	// game there, nothing of the failed batch, and the import completes.
	bk, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	if got := bookCounts(t, bk); got != after {
		t.Fatalf("reopened: %+v, want %+v", got, after)
	}
	for _, g := range committed {
		var leaf int64
		if err := bk.r.QueryRowContext(ctx, "SELECT leaf FROM game WHERE source = 'littlegolem' AND ext_id = ?", g).Scan(&leaf); err != nil {
			t.Fatalf("committed game %s missing: %v", g, err)
		}
	}
	st, err := bk.importGames(ctx, ids, games, ImportOptions{Batch: 50})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games+st.Already+len(st.Skipped) != len(ids) || st.Already != after.games {
		t.Fatalf("import after the disk was freed: %+v", st)
	}
	mustCheck(t, bk)
}

type counts struct{ games, positions, edges int }

func bookCounts(t *testing.T, bk *Book) counts {
	t.Helper()
	var c counts
	ctx := context.Background()
	for q, dst := range map[string]*int{"SELECT count(*) FROM game": &c.games, "SELECT count(*) FROM position": &c.positions, "SELECT count(*) FROM edge": &c.edges} {
		if err := bk.r.QueryRowContext(ctx, q).Scan(dst); err != nil {
			t.Fatal(err)
		}
	}
	return c
}
