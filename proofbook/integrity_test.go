//go:build unix

package proofbook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"c6book/engine/game"
	"c6book/internal/bookdamage"
)

// gamesBook makes a closed book at path holding n synthetic games (enough
// for the game tables to span many pages).
func gamesBook(t *testing.T, path string, n int) {
	t.Helper()
	ctx := context.Background()
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	_, games := synthGames(7, n, 12)
	if _, err := bk.importMap(ctx, games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	if exists(path + "-wal") {
		t.Fatalf("%s-wal left after Close", path)
	}
}

// damagePages writes random bytes over every other leaf page of table
// (which the root position's reads and writes never touch), keeping the
// file's modification time.
func damagePages(t *testing.T, path, table string) {
	t.Helper()
	if _, err := bookdamage.Damage(path, table, 1); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedBookNotWritten: a book with random bytes over data pages is
// never written: every write says it is damaged (one line) and the file
// stays byte for byte as it was; Backup refuses to copy it. Damage with
// the modification time set back is caught too (the change time moves).
func TestDamagedBookNotWritten(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	gamesBook(t, book, 300)
	// A sound book's first write leaves the record that vouches for it.
	bk, err := Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.SetComment(ctx, bk.root, "sound"); err != nil {
		t.Fatal(err)
	}
	bk.Close()
	if !exists(book + checkedSuffix) {
		t.Fatal("no record after a write to a sound book")
	}
	damagePages(t, book, "game_pos")
	before, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}

	bk, err = Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	err = bk.SetComment(ctx, bk.root, "written to a damaged book")
	if !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("SetComment on a damaged book: %v, want one line with %v", err, ErrDamaged)
	}
	if _, err := bk.AddLine(ctx, []game.Move{game.NewMove(game.Connect6().Sq(3, 3))}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("AddLine on a damaged book: %v", err)
	}
	if bk.Damaged() == "" {
		t.Fatal("Damaged() is empty")
	}
	dst := filepath.Join(dir, "copy.c6book")
	if err := bk.Backup(ctx, dst); !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Backup of a damaged book: %v", err)
	}
	if exists(dst) {
		t.Fatal("Backup of a damaged book left a copy")
	}
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the damaged book was changed")
	}
}

// TestWriteGateRecord: the record beside the book spares the next writer
// the check when the file changed only through c6book since; a change by
// anything else (here only the file's times) makes it check again.
func TestWriteGateRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	gamesBook(t, book, 50)
	if !exists(book + checkedSuffix) {
		t.Fatal("creating and importing left no record")
	}
	os.Remove(book + checkedSuffix)
	write := func(text string) int {
		t.Helper()
		bk, err := Open(ctx, book)
		if err != nil {
			t.Fatal(err)
		}
		defer bk.Close()
		if err := bk.SetComment(ctx, bk.root, text); err != nil {
			t.Fatal(err)
		}
		return bk.gate.checks
	}
	if n := write("one"); n != 1 {
		t.Fatalf("first write: %d checks, want 1 (no record yet)", n)
	}
	if n := write("two"); n != 0 {
		t.Fatalf("second write: %d checks, want 0 (the record vouches)", n)
	}
	// A reader in between changes nothing.
	bk, err := Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	if n := write("three"); n != 0 {
		t.Fatalf("after a reader: %d checks, want 0", n)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(book, old, old); err != nil {
		t.Fatal(err)
	}
	if n := write("four"); n != 1 {
		t.Fatalf("after a change by another program: %d checks, want 1", n)
	}
}

// TestCheckRenewsGateRecord: a passing Check (integrity_check reads every
// page, as the gate's quick_check would) writes the record, so neither the
// same Book's first write nor the next Book's checks again; a Check that
// finds damage writes none.
func TestCheckRenewsGateRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	gamesBook(t, book, 50)
	os.Remove(book + checkedSuffix)
	bk, err := Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bk.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("check: %v %v", rep.Problems, err)
	}
	if !exists(book + checkedSuffix) {
		t.Fatal("a passing check left no record")
	}
	if err := bk.SetComment(ctx, bk.root, "one"); err != nil {
		t.Fatal(err)
	}
	if n := bk.gate.checks; n != 0 {
		t.Fatalf("a write after the check ran %d quick_checks, want 0", n)
	}
	bk.Close()
	bk, err = Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.SetComment(ctx, bk.root, "two"); err != nil {
		t.Fatal(err)
	}
	if n := bk.gate.checks; n != 0 {
		t.Fatalf("the next Book's write ran %d quick_checks, want 0 (the record vouches)", n)
	}
	bk.Close()

	damaged := filepath.Join(dir, "d.c6book")
	gamesBook(t, damaged, 300)
	os.Remove(damaged + checkedSuffix)
	damagePages(t, damaged, "game_pos")
	bk, err = Open(ctx, damaged)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if rep, err := bk.Check(ctx); err == nil && rep.OK() {
		t.Fatal("the damaged book checked ok")
	}
	if exists(damaged + checkedSuffix) {
		t.Fatal("a check that found damage wrote the record")
	}
}

// Backup's check of its copy: a damaged copy, or one that lost rows, is
// refused (VACUUM INTO is not made to fail here; its output is replaced).
func TestVerifyCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	gamesBook(t, book, 300)
	bk, err := Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	want, err := bookShape(ctx, bk.r)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.c6book")
	if err := bk.Backup(ctx, good); err != nil {
		t.Fatal(err)
	}
	if err := verifyCopy(ctx, good, time.Second, want, true); err != nil {
		t.Fatalf("a good copy: %v", err)
	}
	fewer := filepath.Join(dir, "fewer.c6book")
	gamesBook(t, fewer, 200)
	if err := verifyCopy(ctx, fewer, time.Second, want, true); err == nil || !strings.Contains(err.Error(), "rows") {
		t.Fatalf("a copy with fewer rows: %v", err)
	}
	if err := verifyCopy(ctx, fewer, time.Second, want, false); err != nil {
		t.Fatalf("rows not compared: %v", err)
	}
	damagePages(t, good, "game_pos")
	if err := verifyCopy(ctx, good, time.Second, want, true); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a damaged copy: %v", err)
	}
}
