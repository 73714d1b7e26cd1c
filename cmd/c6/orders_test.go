package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Orders that are true (README, "Orders"), on Connect(9,9,5,2,1): a
// double-threat win is proved at order 1, a quiet move refuted through the
// null move at order 2 (whatever the λ of the run), a game's end at order
// 0; show, verify, open --proved --min-order N and stats agree.
func TestBookOrdersAgree(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "o.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	games := filepath.Join(dir, "games.json")
	os.WriteFile(games, []byte(`{"1": ["e5", "a1a2", "e4e3", "a9b9", "e6e7"]}`), 0o644)
	runBook(t, false, "import-games", "--book", book, "--games", games)

	const one, two = "e5 a1a2 e4e3 a9b9 e6c3", "e5 a1a2 e4d4"
	for _, c := range []struct {
		turns string
		order int
	}{{one, 1}, {two, 2}} {
		// λ3 runs: the order is the proof's, not the run's.
		out, _ := runBook(t, false, "verify", "--book", book, "--turns", c.turns, "--lambda", "3", "--workers", "1", "--json")
		var v struct {
			Verdict struct {
				Status string `json:"status"`
				Order  int    `json:"order"`
			} `json:"verdict"`
			BookStatus string `json:"book_status"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("verify JSON %q: %v", out, err)
		}
		if v.Verdict.Status != "proved" || v.Verdict.Order != c.order || v.BookStatus != "proved" {
			t.Fatalf("verify %s: %s, want proved at order %d", c.turns, out, c.order)
		}
		out, _ = runBook(t, false, "show", "--book", book, "--turns", c.turns)
		if want := "Black attacker: proved (order " + string(rune('0'+c.order)) + ", verdict)"; !strings.Contains(out, want) {
			t.Fatalf("show %s: want %q in\n%s", c.turns, want, out)
		}
		if want := "(order " + string(rune('0'+c.order)) + ")"; !strings.Contains(out, want) {
			t.Fatalf("show %s: the verdict's order: want %q in\n%s", c.turns, want, out)
		}
	}

	// open --proved --min-order N lists the proofs of order N and more.
	listed := func(minOrder string) []int {
		out, _ := runBook(t, false, "open", "--book", book, "--proved", "--attacker", "B", "--min-order", minOrder, "--limit", "100", "--json")
		var l struct {
			Positions []struct {
				Order int `json:"order"`
			} `json:"positions"`
		}
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatalf("open JSON %q: %v", out, err)
		}
		var ords []int
		for _, p := range l.Positions {
			ords = append(ords, p.Order)
		}
		return ords
	}
	count := func(ords []int, o int) int {
		n := 0
		for _, x := range ords {
			if x == o {
				n++
			}
		}
		return n
	}
	all := listed("0")
	if count(all, 0) == 0 || count(all, 1) == 0 || count(all, 2) == 0 {
		t.Fatalf("proved orders listed with --min-order 0: %v (want game ends, order 1 and order 2)", all)
	}
	for _, m := range []int{1, 2, 3} {
		got := listed(string(rune('0' + m)))
		for _, o := range got {
			if o < m {
				t.Fatalf("--min-order %d lists order %d: %v", m, o, got)
			}
		}
		want := 0
		for _, o := range all {
			if o >= m {
				want++
			}
		}
		if len(got) != want {
			t.Fatalf("--min-order %d lists %d, want %d (all: %v)", m, len(got), want, all)
		}
	}
	// stats counts the same rows, by order.
	out, _ := runBook(t, false, "stats", "--book", book, "--json")
	var st struct {
		Proved  map[string]int64    `json:"proved"`
		ByOrder map[string][4]int64 `json:"proved_by_order"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if int(st.Proved["B"]) != len(all) {
		t.Fatalf("stats proved B %d, open --proved --min-order 0 lists %d", st.Proved["B"], len(all))
	}
	for o := 0; o < 4; o++ {
		if int(st.ByOrder["B"][o]) != count(all, o) {
			t.Fatalf("stats: order %d: %d, open lists %d (%v)", o, st.ByOrder["B"][o], count(all, o), all)
		}
	}
	text, _ := runBook(t, false, "stats", "--book", book)
	if !strings.Contains(text, "open --proved lists "+string(rune('0'+len(listed("1"))))) {
		t.Fatalf("stats text: %s", text)
	}
}
