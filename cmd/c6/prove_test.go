package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// c6 book prove proves a small board's first move on its own, the book
// checks, a second run has nothing to do, and a held position is named.
func TestBookProve(t *testing.T) {
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	runBook(t, true, "prove", "--book", book, "--jobs", "0")
	runBook(t, true, "prove", "--book", book, "--lambda", "4")
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "3",
		"--max-nodes", "3000", "--workers", "1", "--jobs", "2", "--json")
	var res struct {
		Result   string `json:"result"`
		Status   string `json:"status"`
		Calls    int    `json:"calls"`
		Added    int    `json:"added"`
		Frontier []any  `json:"frontier"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Result != "proved" || res.Status != "proved" || res.Calls == 0 || len(res.Frontier) != 0 {
		t.Fatalf("prove: %s", out)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "ok") {
		t.Fatalf("check: %s", out)
	}
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--max-nodes", "3000")
	if !strings.Contains(out, "proved") || !strings.Contains(out, "0 verifier calls") {
		t.Fatalf("second run: %s", out)
	}
	// Held: the auto-pilot skips it and says so; next names it.
	runBook(t, false, "annotate", "--book", book, "--turns", "b2", "--attacker", "B", "--hold")
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "b2", "--attacker", "B", "--max-nodes", "3000")
	if !strings.Contains(out, "stuck") || !strings.Contains(out, "left to the expert") {
		t.Fatalf("held: %s", out)
	}
	out, _ = runBook(t, false, "next", "--book", book, "--turns", "b2", "--attacker", "B")
	if !strings.Contains(out, "left to the expert") {
		t.Fatalf("next at a held position: %s", out)
	}
	runBook(t, true, "annotate", "--book", book, "--turns", "b2", "--hold", "--unhold")
}
