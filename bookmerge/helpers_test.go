package bookmerge

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
	"c6book/proofcheck"

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

func newBook(t testing.TB, r engine.Rules) *Book {
	t.Helper()
	bk, err := proofbook.Create(context.Background(), filepath.Join(t.TempDir(), "test.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

func turns(t testing.TB, r engine.Rules, s string) []engine.Move {
	t.Helper()
	ms, err := engine.ParseTurns(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func mv(t *testing.T, r engine.Rules, s string) engine.Move {
	t.Helper()
	m, err := engine.ParseMove(r, s)
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
	b, err := engine.ReplayText(bk.Rules(), s)
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

// The lines of proofbook's propagation tests (Connect6): before P2, Black
// (to move) has three in a row on rows 4 and 7 and two on row 10; after A
// (e10f10) Black has a live four on row 10, and after any of White's three
// blocks f4f7 makes four threats.
const (
	p2Line = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19"
	aMove  = "e10f10"
	winTwo = "f4f7"
)

// realVerdict runs the verifier on the position of line.
func realVerdict(t *testing.T, bk *Book, line string, lambda int, nodes int64) (PosID, c6book.Verdict) {
	t.Helper()
	ctx := context.Background()
	b, err := engine.ReplayText(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	tol, _ := b.DefenderDeficit(b.ToMove().Opp())
	v, err := engine.Verify(ctx, b, engine.VerifyOptions{Lambda: lambda, Tolerance: tol, Workers: 1, Limits: engine.Limits{MaxNodes: nodes}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return id, c6book.FromEngine(bk.Rules(), sym, v, lambda)
}

// twoThreatVerdict is a certified open verdict on a position where the
// attacker has p threats: every reply that blocks them all is left unsolved
// (the certificate refutes the others: they leave a threat window open).
func twoThreatVerdict(t *testing.T, bk *Book, line string) (PosID, c6book.Verdict, []engine.Move) {
	t.Helper()
	b, err := engine.ReplayText(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	a := b.ToMove().Opp()
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	normal, relaxed := b.CriticalDefences(a)
	blocks := append(normal, relaxed...)
	v := c6book.Verdict{Attacker: a, Status: c6book.StatusOpen, Order: 1, Lambda: 2, Engine: "test", Cert: &proofcheck.Cert{Attacker: a}}
	for _, m := range blocks {
		mc := proofbook.ToCanonical(bk.Rules(), sym, m)
		v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: mc, Reason: "budget"})
		v.Cert.Unsolved = append(v.Cert.Unsolved, mc)
	}
	return id, v, blocks
}

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

func proofOf(t *testing.T, bk *Book, id PosID, a engine.Color) c6book.Proof {
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
