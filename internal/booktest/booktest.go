// Package booktest holds the small helpers the tests of the packages over
// the book (autopilot, bookfile, bookmerge) share: a new book in the
// test's temporary folder, a line of turns, a check that must pass, a
// position by its line. proofbook's internal tests cannot import it (it
// imports proofbook) and keep theirs; its external tests (package
// proofbook_test) use it.
package booktest

import (
	"context"
	"path/filepath"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// NewBook creates a book of rules r in t's temporary folder, closed at
// the end of the test.
func NewBook(t testing.TB, r game.Rules) *proofbook.Book {
	t.Helper()
	bk, err := proofbook.Create(context.Background(), filepath.Join(t.TempDir(), "test.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

// Turns reads a line of turns ("j10 i9k9 ...").
func Turns(t testing.TB, r game.Rules, s string) []game.Move {
	t.Helper()
	ms, err := game.ParseTurns(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// MustCheck checks bk and fails the test unless the check passes.
func MustCheck(t testing.TB, bk *proofbook.Book) proofbook.CheckReport {
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

// Locate finds the stored position of a line and its symmetry.
func Locate(t testing.TB, bk *proofbook.Book, s string) (proofbook.PosID, int) {
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

// Add stores a line and returns its last position.
func Add(t testing.TB, bk *proofbook.Book, line string) proofbook.PosID {
	t.Helper()
	l, err := bk.AddLine(context.Background(), Turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}
