package bookfile

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
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

func newBook(t testing.TB, r game.Rules) *Book {
	t.Helper()
	bk, err := proofbook.Create(context.Background(), filepath.Join(t.TempDir(), "test.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

func turns(t testing.TB, r game.Rules, s string) []game.Move {
	t.Helper()
	ms, err := game.ParseTurns(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func mustCheck(t testing.TB, bk *Book) proofbook.CheckReport {
	t.Helper()
	rep, err := bk.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("check: %v", rep.Problems)
	}
	return rep
}

func locate(t *testing.T, bk *Book, s string) (PosID, int) {
	t.Helper()
	b, err := board.ReplayText(bk.Rules(), s)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatalf("locate %q: %v", s, err)
	}
	return id, sym
}

func wantGames(t *testing.T, bk *Book, line string, games, bwins, wwins int64) {
	t.Helper()
	id, _ := locate(t, bk, line)
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

func add(t *testing.T, bk *Book, line string) PosID {
	t.Helper()
	l, err := bk.AddLine(context.Background(), turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}
