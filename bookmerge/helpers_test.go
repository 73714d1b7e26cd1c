package bookmerge

import (
	"context"
	"database/sql"
	"testing"

	"c6book"
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

func mv(t *testing.T, r game.Rules, s string) game.Move {
	t.Helper()
	m, err := game.ParseMove(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
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
