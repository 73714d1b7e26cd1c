package bookmerge

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/prooffixture"
	"c6book/proofbook"

	_ "github.com/mattn/go-sqlite3"
)

// The book's types, named as the tests (moved here from proofbook) name
// them.
type (
	Book          = proofbook.Book
	PosID         = proofbook.PosID
	ImportOptions = proofbook.ImportOptions
)

func Open(ctx context.Context, path string) (*Book, error) { return proofbook.Open(ctx, path) }

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

func mv(t *testing.T, r game.Rules, s string) game.Move {
	t.Helper()
	m, err := game.ParseMove(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
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

func add(t *testing.T, bk *Book, line string) PosID {
	t.Helper()
	l, err := bk.AddLine(context.Background(), turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}

// The lines of the proof fixture (internal/prooffixture).
const (
	p2Line = prooffixture.P2Line
	aMove  = prooffixture.AMove
	winTwo = prooffixture.WinTwo
)

// rawDB is a connection of its own to the book's file, for the tests that
// write rows behind the book's back (a forged certificate, a bad move) or
// read a table the book has no method for.
func rawDB(t testing.TB, bk *Book) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+bk.Path()+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// storeGames stores games held in memory, in the order of ids.
func storeGames(ctx context.Context, bk *Book, ids []string, games map[string][]string) (proofbook.ImportStats, error) {
	return bk.StoreGames(ctx, mapGames{ids, games}, ImportOptions{})
}

type mapGames struct {
	ids   []string
	games map[string][]string
}

func (m mapGames) Len() int                      { return len(m.ids) }
func (m mapGames) ID(i int) string               { return m.ids[i] }
func (m mapGames) Turns(i int) ([]string, error) { return m.games[m.ids[i]], nil }

func proofOf(t *testing.T, bk *Book, id PosID, a game.Color) c6book.Proof {
	t.Helper()
	p, err := bk.Position(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Proof(a)
}

// root is the book's root position.
func root(bk *Book) PosID {
	id, _ := bk.Root(context.Background())
	return id
}
