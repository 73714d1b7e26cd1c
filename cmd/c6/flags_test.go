package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliFixture is a book with a few lines, a games file and an SGF file.
type cliFixture struct {
	dir, book, games, sgf string
}

func newCLIFixture(t *testing.T) cliFixture {
	t.Helper()
	dir := t.TempDir()
	f := cliFixture{dir: dir, book: filepath.Join(dir, "b.c6book"), games: filepath.Join(dir, "games.json"), sgf: filepath.Join(dir, "g.sgf")}
	runBook(t, false, "init", "--book", f.book)
	if err := os.WriteFile(f.games, []byte(`{"10": ["j10", "j11k10", "l11m9"], "11": ["j10", "j10k10"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.sgf, []byte("(;FF[4]SZ[19];B[j10];W[j11k10]C[the usual reply];B[k12l12])"), 0o644); err != nil {
		t.Fatal(err)
	}
	runBook(t, false, "import-games", "--book", f.book, "--games", f.games)
	runBook(t, false, "import", "--book", f.book, f.sgf)
	return f
}

// Every subcommand, with a bad value of each of its flags (and conflicting
// flags): a non-zero exit, one line on stderr naming the flag, nothing on
// stdout, and the book unchanged.
func TestBadFlagValues(t *testing.T) {
	f := newCLIFixture(t)
	b := f.book
	missing := filepath.Join(f.dir, "missing.sgf")
	cases := []struct {
		args []string
		want string
	}{
		// Position commands.
		{[]string{"threats", "--rules", "", "--turns", "j10"}, "-rules"},
		{[]string{"threats", "--rules", "19,19", "--turns", "j10"}, "-rules"},
		{[]string{"threats", "--rules", "19,19,6,2,x", "--turns", "j10"}, "-rules"},
		{[]string{"threats", "--turns", "j10 zz"}, "--turns"},
		{[]string{"threats", "--turns", "j10", "--sgf", f.sgf}, "not both"},
		{[]string{"threats", "--sgf", missing}, "missing.sgf"},
		{[]string{"threats", "--partial=maybe", "--turns", "j10"}, "-partial"},
		{[]string{"threats", "--json=2", "--turns", "j10"}, "-json"},
		{[]string{"solve", "--turns", "j10", "--mode", "vcxt"}, "--mode"},
		{[]string{"solve", "--turns", "j10", "--max-nodes", "0"}, "--max-nodes"},
		{[]string{"solve", "--turns", "j10", "--timeout", "-1s"}, "--timeout"},
		{[]string{"solve", "--turns", "j10", "--free", "some"}, "--free"},
		{[]string{"solve", "--turns", "j10", "--tolerance", "-1"}, "--tolerance"},
		{[]string{"solve", "--turns", "j10", "--rules", ""}, "-rules"},
		{[]string{"verify", "--turns", "j10", "--lambda", "4"}, "--lambda"},
		{[]string{"verify", "--turns", "j10", "--max-nodes", "-5"}, "--max-nodes"},
		{[]string{"verify", "--turns", "j10", "--timeout", "-1s"}, "--timeout"},
		{[]string{"verify", "--turns", "j10", "--workers", "-1"}, "--workers"},
		{[]string{"verify", "--turns", "j10", "--rules", ""}, "-rules"},
		// Book commands.
		{[]string{"book", "init", "--book", filepath.Join(f.dir, "n.c6book"), "--rules", ""}, "-rules"},
		{[]string{"book", "init", "--book", filepath.Join(f.dir, "n.c6book"), "--rules", "19,19,6,2"}, "-rules"},
		{[]string{"book", "init", "--rules", "9,9,5,2,1"}, "--book"},
		{[]string{"book", "init", "--book", b}, "exists"},
		{[]string{"book", "import", "--book", b}, "give the SGF files"},
		{[]string{"book", "import", "--book", b, "--bogus", f.sgf}, "bogus"},
		{[]string{"book", "import", "--book", b, missing}, "missing.sgf"},
		{[]string{"book", "import", f.sgf}, "--book"},
		{[]string{"book", "import-games", "--book", b, "--games", f.games, "--batch", "0"}, "--batch 0"},
		{[]string{"book", "import-games", "--book", b, "--games", f.games, "--batch", "-40"}, "--batch -40"},
		{[]string{"book", "import-games", "--book", b, "--games", f.games, "--source", ""}, "--source"},
		{[]string{"book", "import-games", "--book", b, "--games", ""}, "--games"},
		{[]string{"book", "import-games", "--book", b, "--games", missing}, "--games"},
		{[]string{"book", "import-games", "--book", b, "--games", f.sgf}, "games file"},
		{[]string{"book", "import-games", "--book", b, "--games", f.games, "-v=3"}, "-v"},
		{[]string{"book", "export", "--book", b, "--max-nodes", "-1"}, "--max-nodes -1"},
		{[]string{"book", "export", "--book", b, "--depth", "-1"}, "--depth -1"},
		{[]string{"book", "export", "--book", b, "--turns", "j10 zz"}, "--turns"},
		{[]string{"book", "export", "--book", b, "--turns", "j10 a1a2"}, "not in the book"},
		{[]string{"book", "export", "--book", b, "--attacker", "Q"}, "-attacker"},
		{[]string{"book", "export", "--book", b, "--out", filepath.Join(f.dir, "no", "such", "x.sgf")}, "--out"},
		{[]string{"book", "stats", "--book", b, "extra"}, "unexpected argument"},
		{[]string{"book", "stats", "--book", missing}, "missing.sgf"},
		{[]string{"book", "stats", "--book", f.sgf}, "not a c6book book"},
		{[]string{"book", "show", "--book", b, "--attacker", "Q"}, "-attacker"},
		{[]string{"book", "show", "--book", b, "--attacker", "X"}, "-attacker"},
		{[]string{"book", "show", "--book", b, "--attacker", ""}, "-attacker"},
		{[]string{"book", "show", "--book", b, "--turns", "j10 j10k10"}, "--turns"},
		{[]string{"book", "annotate", "--book", b, "--turns", "j10", "--disprove", "--undisprove"}, "--undisprove"},
		{[]string{"book", "annotate", "--book", b, "--turns", "j10"}, "nothing to do"},
		{[]string{"book", "annotate", "--book", b, "--turns", "j10 a1a2", "--attacker", "W", "--comment", "x"}, "--attacker"},
		{[]string{"book", "annotate", "--book", b, "--turns", "j10", "--attacker", "Q", "--disprove"}, "-attacker"},
		{[]string{"book", "annotate", "--book", b, "--turns", "j10 zz", "--comment", "x"}, "--turns"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10", "--attacker", "Q"}, "-attacker"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10 a1a2", "--attacker", "B"}, "--attacker B"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10", "--lambda", "4"}, "--lambda"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10", "--max-nodes", "0"}, "--max-nodes"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10", "--timeout", "-1s"}, "--timeout"},
		{[]string{"book", "verify", "--book", b, "--turns", "j10", "--workers", "-2"}, "--workers"},
		{[]string{"book", "next", "--book", b, "--attacker", "Q"}, "-attacker"},
		{[]string{"book", "next", "--book", b, "--turns", "zz"}, "--turns"},
		{[]string{"book", "open", "--book", b, "--attacker", "Q"}, "-attacker"},
		{[]string{"book", "open", "--book", b, "--limit", "0"}, "--limit 0"},
		{[]string{"book", "open", "--book", b, "--proved", "--min-order", "-1"}, "--min-order -1"},
		{[]string{"book", "open", "--book", b, "--min-order", "2"}, "--min-order"},
		{[]string{"book", "search", "--book", b, "--text", ""}, "--text"},
		{[]string{"book", "search", "--book", b, "--text", "usual", "--limit", "-1"}, "--limit -1"},
		{[]string{"book", "check", "--book", b, "--bogus"}, "bogus"},
		{[]string{"book", "check", "--book", b, "extra"}, "unexpected argument"},
		{[]string{"book", "backup", "--book", b}, "--to"},
		{[]string{"book", "backup", "--book", b, "--to", f.sgf}, "exists"},
	}
	for _, tc := range cases {
		before, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		msg := errb.String()
		switch {
		case code != 1:
			t.Errorf("c6 %q: exit %d, want 1 (stderr %q)", tc.args, code, msg)
		case strings.Count(strings.TrimRight(msg, "\n"), "\n") != 0 || !strings.HasSuffix(msg, "\n"):
			t.Errorf("c6 %q: stderr is not one line: %q", tc.args, msg)
		case !strings.Contains(msg, tc.want):
			t.Errorf("c6 %q: stderr %q does not name %q", tc.args, msg, tc.want)
		case out.Len() != 0:
			t.Errorf("c6 %q: wrote to stdout on error: %q", tc.args, out.String())
		}
		after, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("c6 %q changed the book", tc.args)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, "n.c6book")); err == nil {
		t.Fatal("a refused init created the book")
	}
}

// Every command that takes --json prints one JSON value on stdout.
func TestEveryJSONFlagPrintsJSON(t *testing.T) {
	f := newCLIFixture(t)
	b := f.book
	won := "j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15"
	for _, args := range [][]string{
		{"threats", "--turns", "j10 j11k10"},
		{"solve", "--turns", "j10 a1a2 j11j12 b1b2", "--max-nodes", "2000"},
		{"verify", "--turns", "j10 a1b1 j11j12 a19b19 j13c3", "--max-nodes", "2000", "--workers", "1"},
		{"book", "init", "--book", filepath.Join(f.dir, "new.c6book")},
		{"book", "import", "--book", b, f.sgf},
		{"book", "import-games", "--book", b, "--games", f.games},
		{"book", "export", "--book", b, "--turns", "j10"},
		{"book", "export", "--book", b, "--turns", "j10", "--out", filepath.Join(f.dir, "out.sgf")},
		{"book", "stats", "--book", b},
		{"book", "show", "--book", b, "--turns", "j10"},
		{"book", "annotate", "--book", b, "--turns", "j10", "--comment", "centre"},
		{"book", "verify", "--book", b, "--turns", won},
		{"book", "next", "--book", b, "--turns", "j10"},
		{"book", "open", "--book", b},
		{"book", "open", "--book", b, "--proved"},
		{"book", "search", "--book", b, "--text", "usual"},
		{"book", "check", "--book", b},
		{"book", "backup", "--book", b, "--to", filepath.Join(f.dir, "copy.c6book")},
	} {
		var out, errb bytes.Buffer
		if code := run(append(args, "--json"), &out, &errb); code != 0 {
			t.Errorf("c6 %q --json: exit %d, stderr %q", args, code, errb.String())
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
		var v map[string]any
		if err := dec.Decode(&v); err != nil || dec.More() {
			t.Errorf("c6 %q --json: stdout is not one JSON object (%v): %q", args, err, out.String())
		}
	}
	// search --json finds the comment.
	out, _ := runBook(t, false, "search", "--book", b, "--text", "usual", "--json")
	var s struct {
		Hits []struct {
			Comment string `json:"comment"`
			Turns   string `json:"turns"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Hits) != 1 || s.Hits[0].Comment != "the usual reply" {
		t.Fatalf("search --json: %v %s", err, out)
	}
}

// export --max-nodes: 0 is no limit; a cut export says so on stderr and in
// the SGF.
func TestExportMaxNodesFlag(t *testing.T) {
	f := newCLIFixture(t)
	moves := func(sgf string) int { return strings.Count(sgf, ";B[") + strings.Count(sgf, ";W[") }
	all, errs := runBook(t, false, "export", "--book", f.book, "--max-nodes", "0")
	// One stone per node: j10, then j11k10, l11m9 and k12l12 two each.
	if errs != "" || strings.Contains(all, "GC[") || moves(all) != 7 {
		t.Fatalf("--max-nodes 0: stderr %q\n%s", errs, all)
	}
	cut, errs := runBook(t, false, "export", "--book", f.book, "--max-nodes", "2")
	if !strings.Contains(errs, "truncated at 2 moves") || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 ||
		!strings.Contains(cut, "GC[c6book: export truncated at 2 moves") {
		t.Fatalf("--max-nodes 2: stderr %q\n%s", errs, cut)
	}
	if moves(cut) != 3 { // j10 and j11k10: three stones
		t.Fatalf("--max-nodes 2 wrote %d stones:\n%s", moves(cut), cut)
	}
}

// import-games counts skipped games by reason; -v lists each on one short
// line. A turn longer than the games file allows refuses the file, on one
// short line, however long the turn.
func TestImportGamesSkipReasons(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", book)
	games := filepath.Join(dir, "games.json")
	long := strings.Repeat("j10", 21) // 63 bytes: unreadable, within the limit
	huge := strings.Repeat("j10", 300000)
	data := `{"1": ["j10", "a1a2", "k10l10", "b1b2", "m10n10", "c1c2", "o10p10", "d1d2"],` +
		` "2": ["j10", "a1a2", "k10l10", "b1b2", "m10n10", "c1c2", "o10p10", "d1d2", "e1e2"],` +
		` "3": ["j10", "TURN"], "4": ["j10", "j10k10"], "5": ["j10", "a1a2"]}`
	if err := os.WriteFile(games, []byte(strings.Replace(data, "TURN", huge, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := runBook(t, true, "import-games", "--book", book, "--games", games, "-v")
	if !strings.Contains(errs, `entry 3 (game "3"): turn 2 of 900000 bytes (at most 64)`) || len(errs) > 240 {
		t.Fatalf("a 900 kB turn: %q", errs)
	}
	if err := os.WriteFile(games, []byte(strings.Replace(data, "TURN", long, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runBook(t, false, "import-games", "--book", book, "--games", games, "-v")
	for _, want := range []string{"1 games imported", "4 skipped", "skipped 2: continues after the game ended",
		"skipped 1: unreadable turn", "skipped 1: plays on an occupied square", "skipped game 1:", "skipped game 3:", "write transactions"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 240 {
			t.Fatalf("a line of %d bytes: %.100s…", len(line), line)
		}
	}
}

// A book that cannot be written: the read commands work, a write says
// read-only and what cannot be written (as a user to whom permission bits
// apply; root writes anyway).
func TestReadOnlyBookCLI(t *testing.T) {
	f := newCLIFixture(t)
	if err := os.Chmod(f.dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(f.dir, 0o755)
	if probe, err := os.Create(filepath.Join(f.dir, "probe")); err == nil {
		probe.Close()
		os.Remove(probe.Name())
		t.Log("permission bits are not enforced for this user (root); proofbook's tests cover the read-only path through OpenOptions")
		return
	}
	for _, args := range [][]string{
		{"stats", "--book", f.book},
		{"show", "--book", f.book, "--turns", "j10"},
		{"export", "--book", f.book},
		{"search", "--book", f.book, "--text", "usual"},
		{"open", "--book", f.book},
		{"check", "--book", f.book},
	} {
		runBook(t, false, args...)
	}
	_, errs := runBook(t, true, "annotate", "--book", f.book, "--turns", "j10", "--comment", "x")
	if !strings.Contains(errs, "read-only: "+f.book+" cannot be written") {
		t.Fatalf("write to a read-only book: %q", errs)
	}
	ents, _ := os.ReadDir(f.dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "-wal") || strings.HasSuffix(e.Name(), "-shm") {
			t.Fatalf("%s created beside the read-only book", e.Name())
		}
	}
}
