package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"c6book/internal/testenv"
)

// c6 book prove --json counts the positions proved during the run: its
// "proved" and "proved_during_run" equal the book's proved positions for
// the attacker after the run less those before (read with stats), and
// "book_proved" is the count after. Two runs: the second starts from a
// book that holds proofs already (its own count starts there).
func TestBookProveCountsProvedPositions(t *testing.T) {
	testenv.Heavy(t)
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	provedB := func() int64 {
		out, _ := runBook(t, false, "stats", "--book", book, "--json")
		var s struct {
			Proved byColor `json:"proved"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s.Proved.B
	}
	for i, turns := range []string{"d4 c3e5", "d4"} {
		before := provedB()
		out, _ := runBook(t, false, "prove", "--book", book, "--turns", turns, "--attacker", "B", "--lambda", "3",
			"--max-nodes", "3000", "--workers", "1", "--json")
		var res struct {
			Proved          *int `json:"proved"`
			ProvedDuringRun *int `json:"proved_during_run"`
			BookProved      *int `json:"book_proved"`
			SearchProved    *int `json:"search_proved"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Proved == nil || res.ProvedDuringRun == nil || res.BookProved == nil || res.SearchProved == nil {
			t.Fatalf("run %d: a count is missing: %s", i+1, out)
		}
		after := provedB()
		if after <= before {
			t.Fatalf("run %d (%s): the book's proved positions went from %d to %d: the test wants a run that proves", i+1, turns, before, after)
		}
		if int64(*res.Proved) != after-before || *res.ProvedDuringRun != *res.Proved || int64(*res.BookProved) != after {
			t.Fatalf("run %d (%s): proved %d, proved_during_run %d, book_proved %d; the book went from %d to %d proved positions",
				i+1, turns, *res.Proved, *res.ProvedDuringRun, *res.BookProved, before, after)
		}
		t.Logf("run %d (%s): %d proved during the run (search_proved %d), %d in the book", i+1, turns, *res.Proved, *res.SearchProved, after)
	}
}
