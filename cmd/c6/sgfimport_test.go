package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reproductions: an SGF pass, a blank move, an upper-case
// point and a short turn are refused with one line naming the file and the
// node, the book unchanged and passing check; --partial reads a seminull
// move (not counted as a game); /dev/zero is refused at once; an export
// streamed to --out imports back.
func TestImportRefusesPassesAndJunk(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", book)
	write := func(name, sgf string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(sgf), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stats := func() string { out, _ := runBook(t, false, "stats", "--book", book, "--json"); return out }
	empty := stats()
	for name, c := range map[string]struct{ sgf, want string }{
		"pass.sgf":  {"(;FF[4]SZ[19];B[];W[j11k10])", "node 2 (byte 13): B[]"},
		"blank.sgf": {"(;FF[4]SZ[19];B[ ];W[j11k10])", "node 2 (byte 13): sgf: bad move B[ ]"},
		"upper.sgf": {"(;FF[4]SZ[19];B[A1])", "lower case"},
		"short.sgf": {"(;FF[4]SZ[19]PB[x];B[j10];W[j11])", "node 3 (byte 25): W[j11]: 1 of the 2 stones"},
	} {
		p := write(name, c.sgf)
		runFail(t, []string{"book", "import", "--book", book, p}, name, c.want, "nothing imported")
		if stats() != empty {
			t.Fatalf("%s: the refused import changed the book", name)
		}
	}
	runFail(t, []string{"book", "import", "--book", book, write("pass2.sgf", "(;FF[4]SZ[19];B[];W[j11k10])"), "--partial"}, "a null move on the empty board")
	if _, err := os.Stat("/dev/zero"); err == nil {
		runFail(t, []string{"book", "import", "--book", book, "/dev/zero"}, "/dev/zero", `unexpected '\x00'`)
	}
	runBook(t, false, "check", "--book", book)
	out, _ := runBook(t, false, "import", "--book", book, "--partial", filepath.Join(dir, "short.sgf"))
	if !strings.Contains(out, "0 new game records") {
		t.Fatalf("a seminull line counted as a game: %s", out)
	}
	runBook(t, false, "check", "--book", book)
	// A plain export leaves the proof line out: it imports without
	// --partial.
	plain := filepath.Join(dir, "plain.sgf")
	runBook(t, false, "export", "--book", book, "--max-nodes", "0", "--out", plain)
	book3 := filepath.Join(dir, "b3.c6book")
	runBook(t, false, "init", "--book", book3)
	runBook(t, false, "import", "--book", book3, plain)
	// Exported with the proof lines (to a file, as it walks) and imported
	// into a new book.
	sgf := filepath.Join(dir, "out.sgf")
	runBook(t, false, "export", "--book", book, "--max-nodes", "0", "--proof-lines", "--out", sgf)
	if m, _ := filepath.Glob(filepath.Join(dir, ".out.sgf.*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
	book2 := filepath.Join(dir, "b2.c6book")
	runBook(t, false, "init", "--book", book2)
	runFail(t, []string{"book", "import", "--book", book2, sgf}, "--partial")
	runBook(t, false, "import", "--book", book2, "--partial", sgf)
	a, _ := runBook(t, false, "stats", "--book", book2, "--json")
	b := stats()
	for _, k := range []string{`"positions":3`, `"moves":2`} {
		if !strings.Contains(a, k) || !strings.Contains(b, k) {
			t.Fatalf("round trip: %s vs %s, want %s", a, b, k)
		}
	}
}
