package bookfile

import (
	"bytes"
	"c6book/internal/booktest"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"

	"c6book/internal/bookdamage"
	"c6book/proofbook"

	_ "github.com/mattn/go-sqlite3"
)

// The book's types, named as the tests (moved here from proofbook) name
// them.
type (
	Book           = proofbook.Book
	PosID          = proofbook.PosID
	ImportOptions  = proofbook.ImportOptions
	ImportStats    = proofbook.ImportStats
	ImportProgress = proofbook.ImportProgress
	GamesQuery     = proofbook.GamesQuery
	Mark           = proofbook.Mark
)

func wantGames(t *testing.T, bk *Book, line string, games, bwins, wwins int64) {
	t.Helper()
	id, _ := booktest.Locate(t, bk, line)
	gs, err := bk.GameStatsOf(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if gs.Games != games || gs.BlackWins != bwins || gs.WhiteWins != wwins || gs.Unfinished != games-bwins-wwins {
		t.Fatalf("games through %q: %+v, want %d (B %d, W %d)", line, gs, games, bwins, wwins)
	}
}

func synthGames(seed int64, n, maxTurns int) ([]string, map[string][]string) {
	games := bookdamage.Games(seed, n, maxTurns)
	ids := make([]string, n)
	for g := range ids {
		ids[g] = fmt.Sprint(100000 + g)
	}
	return ids, games
}

// readDB is a read-only connection to the book's file, for the tests that
// compare its rows.
func readDB(t testing.TB, bk *Book) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+bk.Path()+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// gamesFile is games as a games file, gzip-compressed or not.
func gamesFile(t *testing.T, games map[string][]string, gz bool) *bytes.Buffer {
	t.Helper()
	data, err := json.Marshal(games)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if gz {
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
	} else {
		buf.Write(data)
	}
	return &buf
}
