package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runBook runs `c6 book args...` and returns stdout; it fails the test on
// a non-zero exit unless wantFail.
func runBook(t *testing.T, wantFail bool, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"book"}, args...), &out, &errb)
	if (code != 0) != wantFail {
		t.Fatalf("c6 book %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", book)
	runBook(t, true, "init", "--book", book) // exists

	games := filepath.Join(dir, "games.json")
	os.WriteFile(games, []byte(`{"10": ["j10", "j11k10", "l11m9"], "11": ["j10", "k10k11", "h8h9", "g7g8"], "12": ["j10", "j10k10"]}`), 0o644)
	out, _ := runBook(t, false, "import-games", "--book", book, "--games", games)
	if !strings.Contains(out, "2 games imported") || !strings.Contains(out, "1 skipped") || !strings.Contains(out, "game 12") {
		t.Fatalf("import-games: %s", out)
	}
	out, _ = runBook(t, false, "import-games", "--book", book, "--games", games)
	if !strings.Contains(out, "0 games imported, 2 already") {
		t.Fatalf("second import-games: %s", out)
	}

	sgf := filepath.Join(dir, "g.sgf")
	os.WriteFile(sgf, []byte("(;FF[4]SZ[19];B[j10];W[j11k10]C[the usual reply];B[k12l12])"), 0o644)
	runBook(t, false, "import", "--book", book, sgf)
	bad := filepath.Join(dir, "bad.sgf")
	os.WriteFile(bad, []byte("(;FF[4]SZ[19];B[j10];W[j10k10])"), 0o644)
	_, errs := runBook(t, true, "import", "--book", book, bad)
	if !strings.Contains(errs, "bad.sgf") || !strings.Contains(errs, "nothing imported") {
		t.Fatalf("bad SGF error: %s", errs)
	}

	out, _ = runBook(t, false, "stats", "--book", book, "--json")
	var st struct {
		Positions int `json:"positions"`
		Moves     int `json:"moves"`
		Games     int `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	// root, j10, j11k10, l11m9 / k12l12; k10k11 (mirror-distinct), h8h9, g7g8.
	if st.Positions != 8 || st.Moves != 7 || st.Games != 2 {
		t.Fatalf("stats: %s", out)
	}

	// show: children in the frame of the line asked for (a mirrored line
	// shows mirrored moves).
	out, _ = runBook(t, false, "show", "--book", book, "--turns", "j10 j11k10", "--json")
	var sh struct {
		Comment  string `json:"comment"`
		Children []struct {
			Move string `json:"move"`
		} `json:"children"`
	}
	if err := json.Unmarshal([]byte(out), &sh); err != nil {
		t.Fatal(err)
	}
	if sh.Comment != "the usual reply" || len(sh.Children) != 2 {
		t.Fatalf("show: %s", out)
	}
	// j10 j11k10 is symmetric about the diagonal through j10, so a stored
	// move stands for itself and its mirror image (l11m9 / k12i13; names list stones in square order).
	moves := sh.Children[0].Move + " " + sh.Children[1].Move
	if !strings.Contains(moves, "l11m9") && !strings.Contains(moves, "k12i13") ||
		!strings.Contains(moves, "k12l12") && !strings.Contains(moves, "l11l12") {
		t.Fatalf("show children %q", moves)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", "j10 j9k10", "--json") // mirror top-bottom
	if !strings.Contains(out, "l9m11") && !strings.Contains(out, "i7k8") {
		t.Fatalf("mirrored show: %s", out)
	}
	_, errs = runBook(t, true, "show", "--book", book, "--turns", "j10 a1b1")
	if !strings.Contains(errs, "not in the book") {
		t.Fatalf("missing position: %s", errs)
	}

	runBook(t, false, "annotate", "--book", book, "--turns", "j10 k10k11 h8h9", "--comment", "sharp attack", "--label", "trap")
	out, _ = runBook(t, false, "search", "--book", book, "--text", "sharp")
	// The line is printed in the frame of the stored moves (an image of the
	// annotated line under the symmetries of j10): three turns.
	if !strings.Contains(out, "sharp attack") || len(strings.Fields(out[strings.LastIndex(out, "\"")+1:])) != 3 {
		t.Fatalf("search: %s", out)
	}

	// verify: Black has two open fours; the verifier proves it at once.
	const won = "j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15"
	out, _ = runBook(t, false, "verify", "--book", book, "--turns", won, "--json")
	if !strings.Contains(out, `"status":"proved"`) || !strings.Contains(out, `"book_status":"proved"`) {
		t.Fatalf("verify: %s", out)
	}
	out, _ = runBook(t, false, "open", "--book", book, "--proved", "--attacker", "B")
	if !strings.Contains(out, "f3p15") {
		t.Fatalf("proved list: %s", out)
	}
	out, _ = runBook(t, false, "next", "--book", book, "--turns", "j10 j11k10")
	if !strings.Contains(out, "--turns") {
		t.Fatalf("next: %s", out)
	}

	out, _ = runBook(t, false, "export", "--book", book, "--turns", "j10")
	if !strings.Contains(out, "C[the usual reply]") || !strings.Contains(out, "RU[19,19,6,2,1]") {
		t.Fatalf("export: %s", out)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "ok") {
		t.Fatalf("check: %s", out)
	}
	cp := filepath.Join(dir, "copy.c6book")
	runBook(t, false, "backup", "--book", book, "--to", cp)
	runBook(t, false, "check", "--book", cp)

	// A file that is not a book is refused, untouched.
	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, []byte("hello"), 0o644)
	_, errs = runBook(t, true, "stats", "--book", foreign)
	if !strings.Contains(errs, "not a c6book book") {
		t.Fatalf("foreign file: %s", errs)
	}
	if data, _ := os.ReadFile(foreign); string(data) != "hello" {
		t.Fatal("foreign file modified")
	}
	runBook(t, true, "nosuch", "--book", book)
	runBook(t, true, "stats")
}

// The reproduction of the unsound λ3 proof (Connect(9,9,5,2,1)): verifying
// the position at λ3, then proving the position after one seminull reply
// answered by the expert, must not make the book call the position proved,
// and check must accept the book.
func TestLambda3SeminullRegression(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "cx.c6book")
	const d = "e6 f4c6 g3g4 d4f6 c4e5 c3d7 b3a5"
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	runBook(t, false, "verify", "--book", book, "--turns", d, "--lambda", "3", "--max-nodes", "300", "--workers", "1")
	runBook(t, false, "verify", "--book", book, "--turns", d+" d5 e4d6", "--partial", "--lambda", "2", "--workers", "1")
	out, _ := runBook(t, false, "show", "--book", book, "--turns", d, "--json")
	var show struct {
		Black string `json:"black"`
	}
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(show.Black, "proved") {
		t.Fatalf("the book calls the position proved for Black: %s (White wins after d5f3)", show.Black)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "ok") || !strings.Contains(out, "re-checked from their certificates") {
		t.Fatalf("check: %s", out)
	}
}

// `c6 book` and `c6 book -h` list every subcommand of the table; each
// subcommand's -h lists its flags (--book and --json for all of them).
func TestBookUsageListsTable(t *testing.T) {
	for _, args := range [][]string{{"book"}, {"book", "-h"}} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if want := map[int]int{1: 2, 2: 0}[len(args)]; code != want {
			t.Fatalf("c6 %q: exit %d, want %d", args, code, want)
		}
		for _, c := range bookCommands() {
			if !strings.Contains(errb.String(), "  "+c.name+" ") || !strings.Contains(errb.String(), c.summary) {
				t.Errorf("c6 %q does not list %s: %s", args, c.name, errb.String())
			}
		}
	}
	for _, c := range bookCommands() {
		var out, errb bytes.Buffer
		if code := run([]string{"book", c.name, "-h"}, &out, &errb); code != 2 {
			t.Errorf("c6 book %s -h: exit %d, want 2", c.name, code)
		}
		for _, fl := range []string{"-book", "-json"} {
			if !strings.Contains(errb.String(), fl) {
				t.Errorf("c6 book %s -h does not list %s: %s", c.name, fl, errb.String())
			}
		}
		if c.position != strings.Contains(errb.String(), "-turns") {
			t.Errorf("c6 book %s -h: --turns listed %v, want %v", c.name, !c.position, c.position)
		}
	}
}

// show and verify name a verdict's open seminull moves in its verdict line
// ("0 unsolved []" alone hid them), and in JSON.
func TestBookVerdictNamesOpenSeminull(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "cx.c6book")
	const d = "e6 f4c6 g3g4 d4f6 c4e5 c3d7 b3a5"
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	// A small budget leaves the seminull reply d5 open.
	out, _ := runBook(t, false, "verify", "--book", book, "--turns", d, "--lambda", "3", "--max-nodes", "100", "--workers", "1")
	if !strings.Contains(out, "1 open seminull [d5]") {
		t.Fatalf("verify does not name the open seminull d5:\n%s", out)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", d)
	verdict := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "verdict:") {
			verdict = l
		}
	}
	if !strings.Contains(verdict, "1 open seminull [d5]") {
		t.Fatalf("show's verdict line does not name the open seminull d5:\n%s", out)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", d, "--json")
	var sh struct {
		Verdict verdictJSON `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &sh); err != nil || len(sh.Verdict.OpenSeminull) != 1 || sh.Verdict.Names.OpenSeminull[0] != "d5" {
		t.Fatalf("show --json open_seminull: %v %s", err, out)
	}
}

// book verify --timeout bounds each solver call, as c6 verify's does: a
// budget too small for any call leaves moves unsolved, and the verdict is
// still stored (it used to cancel the run and lose the verdict).
func TestBookVerifyTimeoutPerCall(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	const pos = "j10 j11k10 l9k11"
	runBook(t, false, "init", "--book", book)
	out, _ := runBook(t, false, "verify", "--book", book, "--turns", pos, "--timeout", "1ns", "--workers", "1", "--json")
	var v struct {
		Verdict struct {
			Status string `json:"status"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Verdict.Status == "" {
		t.Fatalf("verify --timeout 1ns: %v %s", err, out)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", pos, "--json")
	if !strings.Contains(out, `"verdict"`) {
		t.Fatalf("no verdict stored after verify --timeout 1ns: %s", out)
	}
	// The flag's help says what it bounds, in both commands.
	for _, args := range [][]string{{"verify", "-h"}, {"book", "verify", "-h"}} {
		var o, e bytes.Buffer
		run(args, &o, &e)
		if !strings.Contains(e.String(), "time budget of each solver call") {
			t.Errorf("c6 %q: --timeout help: %s", args, e.String())
		}
	}
}

// Opening a book written before certificates prints how many proofs the
// upgrade turned open.
func TestUpgradeNotePrinted(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "proofbook", "testdata", "book_v4.sql"))
	if err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(t.TempDir(), "old.c6book")
	db, err := sql.Open("sqlite3", "file:"+book)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, stderr := runBook(t, false, "stats", "--book", book)
	if !strings.Contains(stderr, "2 proved positions") || !strings.Contains(stderr, "re-verify") {
		t.Fatalf("no upgrade note on stderr: %q", stderr)
	}
	_, stderr = runBook(t, false, "stats", "--book", book)
	if stderr != "" {
		t.Fatalf("the note is printed again on the second open: %q", stderr)
	}
}
