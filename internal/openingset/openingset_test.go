package openingset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed set loads, and its openings are distinct three-turn
// prefixes of its rows in rank order.
func TestCommittedSet(t *testing.T) {
	rows, err := Load(filepath.Join("..", "..", Path))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	ops := Openings(rows, 0)
	seen := map[string]bool{}
	for i, o := range ops {
		if seen[o.Turns] || len(strings.Fields(o.Turns)) != 3 {
			t.Errorf("opening %d %q: listed twice or not three turns", i, o.Turns)
		}
		seen[o.Turns] = true
		if i > 0 && o.Games > ops[i-1].Games {
			t.Errorf("opening %d played %d times, more than the one before (%d)", i, o.Games, ops[i-1].Games)
		}
	}
	for _, r := range rows {
		if !seen[r.Opening()] {
			t.Errorf("row %q: its opening is not listed", r.Turns)
		}
	}
	if got := Openings(rows, 2); len(got) != min(2, len(ops)) || got[0] != ops[0] {
		t.Errorf("the first two openings: %v", got)
	}
}

// A bad row is refused with the file and line.
func TestBadRow(t *testing.T) {
	dir := t.TempDir()
	for _, text := range []string{"1\t2\t3\n", "# c\n1\tx\t3\ta1 b1b2 c1c2 d1d2\n", "1\t2\t3\ta1 b1b2\n"} {
		p := filepath.Join(dir, "set.tsv")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p+":") {
			t.Errorf("%q: %v, want an error naming the file and line", text, err)
		}
	}
}
