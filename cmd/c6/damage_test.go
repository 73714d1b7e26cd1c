package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"c6book/internal/bookdamage"
)

// A book with random bytes over data pages (whole pages of a table, or 8
// bytes inside pages of the games table or of an index: with those backup
// copied the book and exited 0): the write commands exit non-zero with one
// line saying it is damaged and leave the file as it was; backup writes no
// copy; the read commands still answer.
func TestDamagedBookCLI(t *testing.T) {
	for _, c := range []struct {
		tree      string
		off, size int64
	}{{"game_pos", 0, 0}, {"game", 3000, 8}, {"edge_child", 3000, 8}} {
		t.Run(c.tree, func(t *testing.T) { testDamagedBookCLI(t, c.tree, c.off, c.size) })
	}
}

func testDamagedBookCLI(t *testing.T, tree string, off, size int64) {
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", book)
	data, _ := json.Marshal(bookdamage.Games(3, 300, 12))
	games := filepath.Join(dir, "g.json")
	os.WriteFile(games, data, 0o644)
	runBook(t, false, "import-games", "--book", book, "--games", games)
	more, _ := json.Marshal(bookdamage.Games(4, 20, 12))
	games2 := filepath.Join(dir, "g2.json")
	os.WriteFile(games2, more, 0o644)
	sgf := filepath.Join(dir, "g.sgf")
	os.WriteFile(sgf, []byte("(;FF[4]SZ[19];B[j10];W[j11k10]C[x];B[k12l12])"), 0o644)
	if _, err := bookdamage.DamageSpan(book, tree, 1, off, size); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.c6book")
	for _, args := range [][]string{
		{"annotate", "--book", book, "--comment", "written to a damaged book"},
		{"annotate", "--book", book, "--turns", "a1", "--label", "new"},
		{"import-games", "--book", book, "--games", games2},
		{"import", "--book", book, sgf},
		{"verify", "--book", book, "--turns", "j10 j11k10", "--max-nodes", "1000"},
		{"prove", "--book", book, "--turns", "j10 j11k10", "--max-calls", "1"},
		{"backup", "--book", book, "--to", copyPath},
	} {
		out, errs := runBook(t, true, args...)
		if strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "damaged book file") {
			t.Errorf("c6 book %s: stdout %q, stderr %q; want one line saying damaged", strings.Join(args, " "), out, errs)
		}
		after, err := os.ReadFile(book)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("c6 book %s changed the damaged book", strings.Join(args, " "))
		}
	}
	if _, err := os.Stat(copyPath); err == nil {
		t.Error("backup of a damaged book left a copy")
	}
	runBook(t, false, "show", "--book", book)
}
