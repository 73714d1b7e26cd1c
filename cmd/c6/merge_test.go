package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// merge, split and export-proof from the command line: a proved position
// travels with its verdict, a book of other rules is refused, and the
// proof's SGF replays.
func TestBookMergeSplitExportProof(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.c6book")
	b := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", a)
	runBook(t, false, "init", "--book", b)
	// Black has two open fours: proved at once.
	const before = "j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19"
	const won = before + " f3p15"
	runBook(t, false, "verify", "--book", a, "--turns", won)
	runBook(t, false, "annotate", "--book", b, "--turns", "j10 a1b1", "--comment", "b's note")

	out, _ := runBook(t, false, "merge", "--book", b, "--from", a, "--json")
	var m bookMergeJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.Summary.Verdicts != 1 || m.Summary.RefusedCount != 0 || m.Summary.Positions == 0 || m.From != a {
		t.Fatalf("merge: %s", out)
	}
	out, _ = runBook(t, false, "show", "--book", b, "--turns", before, "--json")
	if !strings.Contains(out, `"black":"proved`) {
		t.Fatalf("the merged book does not prove %q: %s", before, out)
	}
	out, _ = runBook(t, false, "merge", "--book", b, "--from", a)
	if !strings.Contains(out, "0 verdicts imported") || !strings.Contains(out, "1 already there") || !strings.Contains(out, "no verdict refused") {
		t.Fatalf("merging again: %s", out)
	}
	runBook(t, false, "check", "--book", b)

	// The auto-pilot's move marks travel too, and --json counts them.
	c := filepath.Join(dir, "c.c6book")
	d := filepath.Join(dir, "d.c6book")
	runBook(t, false, "init", "--book", c)
	runBook(t, false, "init", "--book", d)
	runBook(t, false, "prove", "--book", c, "--turns", before, "--attacker", "B", "--no-queue")
	out, _ = runBook(t, false, "merge", "--book", d, "--from", c, "--json")
	m = bookMergeJSON{}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.Summary.AutoMoves != 1 {
		t.Fatalf("merge of a book with one auto-pilot move: auto_moves %d: %s", m.Summary.AutoMoves, out)
	}

	small := filepath.Join(dir, "small.c6book")
	runBook(t, false, "init", "--book", small, "--rules", "9,9,5,2,1")
	_, errs := runBook(t, true, "merge", "--book", b, "--from", small)
	if !strings.Contains(errs, "nothing was merged") {
		t.Fatalf("merge of other rules: %s", errs)
	}
	_, errs = runBook(t, true, "merge", "--book", b)
	if !strings.Contains(errs, "--from") {
		t.Fatalf("merge without --from: %s", errs)
	}

	sub := filepath.Join(dir, "sub.c6book")
	out, _ = runBook(t, false, "split", "--book", b, "--turns", "j10 a1b1", "--to", sub)
	if !strings.Contains(out, "1 verdict imported") {
		t.Fatalf("split: %s", out)
	}
	_, errs = runBook(t, true, "split", "--book", b, "--turns", "j10 a1b1", "--to", sub)
	if !strings.Contains(errs, "exists") {
		t.Fatalf("split over a file: %s", errs)
	}
	runBook(t, false, "check", "--book", sub)
	out, _ = runBook(t, false, "show", "--book", sub, "--turns", "j10 a1b1", "--json")
	if !strings.Contains(out, "b's note") {
		t.Fatalf("the split book lost the note: %s", out)
	}

	sgf := filepath.Join(dir, "proof.sgf")
	out, _ = runBook(t, false, "export-proof", "--book", sub, "--turns", before, "--sgf", sgf)
	if !strings.Contains(out, "proof for B: 1 moves, 1 leaves") {
		t.Fatalf("export-proof: %s", out)
	}
	data, err := os.ReadFile(sgf)
	if err != nil || !strings.Contains(string(data), "B[fq];B[pe]") /* f3p15, one SGF point per node */ || !strings.Contains(string(data), "proving move") {
		t.Fatalf("proof SGF: %s %v", data, err)
	}
	back := filepath.Join(dir, "back.c6book")
	runBook(t, false, "init", "--book", back)
	runBook(t, false, "import", "--book", back, sgf)
	runBook(t, false, "show", "--book", back, "--turns", won)
	_, errs = runBook(t, true, "export-proof", "--book", sub, "--turns", "j10 a1b1")
	if !strings.Contains(errs, "not proved") {
		t.Fatalf("export-proof of a position not proved: %s", errs)
	}
}
