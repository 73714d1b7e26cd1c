package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"c6book/internal/testenv"
	"c6book/proofbook"
)

// sqlOutside runs SQL on the book as another program (sqlite3 by hand).
func sqlOutside(t *testing.T, book string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+book+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// After the proofs were changed outside the program, show, open --proved,
// stats and search say so and show no proof as proved; prove re-checks its
// target's proof before reporting it; check records the proofs again.
// open --proved says how many the other attacker has when the asked one
// has none.
func TestBookUncheckedProofs(t *testing.T) {
	testenv.Heavy(t)
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "3",
		"--max-nodes", "3000", "--workers", "1", "--json")
	if !strings.Contains(out, `"result":"proved"`) {
		t.Fatalf("prove: %s", out)
	}
	out, _ = runBook(t, false, "open", "--book", book, "--proved", "--attacker", "B", "--limit", "1000", "--json")
	var list struct {
		Positions []struct {
			Status string `json:"status"`
		} `json:"positions"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Positions) == 0 {
		t.Fatalf("no proved positions for B: %s", out)
	}
	out, _ = runBook(t, false, "open", "--book", book, "--proved", "--attacker", "W")
	if want := fmt.Sprintf("no proved positions for W; %d for B\n", len(list.Positions)); out != want {
		t.Fatalf("open --proved for the other attacker: %q, want %q", out, want)
	}

	// An outside change: every proof shows unchecked until check.
	sqlOutside(t, book, "UPDATE verdict SET engine = engine || ' (copied by hand)' WHERE pos = (SELECT min(pos) FROM verdict)")
	for _, args := range [][]string{
		{"show", "--book", book, "--turns", "d4"},
		{"open", "--book", book, "--proved", "--attacker", "B"},
		{"stats", "--book", book},
	} {
		out, stderr := runBook(t, false, args...)
		if strings.Contains(out, "proved (") || !strings.Contains(out, "unchecked") || !strings.Contains(out+stderr, proofbook.UncheckedNote) {
			t.Fatalf("c6 book %s after an outside change:\nstdout: %s\nstderr: %s", args[0], out, stderr)
		}
	}
	out, _ = runBook(t, false, "stats", "--book", book, "--json")
	if !strings.Contains(out, `"proofs_checked":false`) || !strings.Contains(out, `"proved":{"B":0,"W":0}`) {
		t.Fatalf("stats --json: %s", out)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "re-checked, the book trusts them again") || !strings.HasSuffix(out, "ok\n") {
		t.Fatalf("check: %s", out)
	}
	out, stderr := runBook(t, false, "show", "--book", book, "--turns", "d4")
	if !strings.Contains(out, "Black attacker: proved") || strings.Contains(out+stderr, "unchecked") {
		t.Fatalf("show after check:\n%s%s", out, stderr)
	}

	// A status flipped to proved by hand: prove does not take it on trust.
	runBook(t, false, "annotate", "--book", book, "--turns", "b2", "--comment", "new")
	sqlOutside(t, book, `INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at, zone)
SELECT pos, 1, 2, 2, 'verdict', 0, 0, 1099511627776, 0, X'' FROM note WHERE comment = 'new'
ON CONFLICT(pos, attacker) DO UPDATE SET status = 2, ord = 2, how = 'verdict', pn = 0, dn = 1099511627776, zone = X''`)
	out, _ = runBook(t, false, "show", "--book", book, "--turns", "b2")
	if !strings.Contains(out, "Black attacker: unchecked") {
		t.Fatalf("show of the flipped position: %s", out)
	}
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "b2", "--attacker", "B", "--lambda", "2",
		"--max-nodes", "2000", "--workers", "1", "--max-calls", "2", "--json")
	var res struct {
		Result string `json:"result"`
		Calls  int    `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Calls == 0 {
		t.Fatalf("prove took a status flipped by hand: %s", out)
	}
}
