package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// c6 book show names a position's twins (the position less one defender
// stone) with their statuses and a line to them; a position added by hand
// is linked to its twins, a position proved by its twin says so, and
// --proof shows the twin's proof.
func TestBookShowTwins(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "t.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	// N: White's seminull a3, Black to move one White stone short.
	runBook(t, false, "prove", "--book", book, "--turns", "e5 a1a2 e4d4 a3", "--partial", "--attacker", "B", "--max-calls", "10")
	// N+i9, added by hand: linked to its twin N as it is stored.
	runBook(t, false, "annotate", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9", "--label", "by hand")
	out, _ := runBook(t, false, "show", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9")
	for _, want := range []string{"Black attacker: proved (order", ", twin)", "twin without i9: position", `--partial --turns "e5 a1a2 d4e4 a3"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("show: no %q in\n%s", want, out)
		}
	}
	// --proof shows the twin's proof, whose moves avoid i9.
	out, _ = runBook(t, false, "show", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9", "--attacker", "B", "--proof")
	twin, _ := runBook(t, false, "show", "--book", book, "--partial", "--turns", "e5 a1a2 e4d4 a3", "--attacker", "B", "--proof")
	proofPart := func(s string) string {
		if i := strings.Index(s, "proof for B:"); i >= 0 {
			return s[i:]
		}
		return "(no proof)"
	}
	if !strings.Contains(out, "proved by its twin: the position without the defender's stone on i9") || proofPart(out) != proofPart(twin) {
		t.Fatalf("--proof:\n%s\nwant the twin's proof:\n%s", out, twin)
	}
	// export-proof writes the twin's proof below the position: the same
	// moves as the twin's own export, and an SGF that replays with i9 on
	// the board (imported into a new book).
	sgfP, sgfT := filepath.Join(dir, "p.sgf"), filepath.Join(dir, "t.sgf")
	runBook(t, false, "export-proof", "--book", book, "--turns", "e5 a1a2 e4d4 a3i9", "--attacker", "B", "--sgf", sgfP)
	runBook(t, false, "export-proof", "--book", book, "--partial", "--turns", "e5 a1a2 e4d4 a3", "--attacker", "B", "--sgf", sgfT)
	pData, tData := readFile(t, sgfP), readFile(t, sgfT)
	if !strings.Contains(pData, "the proof of its twin, the position without W's stone on i9") {
		t.Fatalf("export-proof: no twin note in\n%s", pData)
	}
	// The moves below each position: after White's i9 (P), after a3 (the
	// twin); the twin's proof is the same tree.
	got, want := sgfMoves(pData), sgfMoves(tData)
	i, j := strings.Index(got, ";W[ia]"), strings.Index(want, ";W[ag]")
	if i < 0 || j < 0 || got[i+len(";W[ia]"):] != want[j+len(";W[ag]"):] || !strings.Contains(got[i:], ";B[") {
		t.Fatalf("export-proof moves\n%s\nwant the twin's below W[ia] (i9)\n%s", got, want)
	}
	back := filepath.Join(dir, "back.c6book")
	runBook(t, false, "init", "--book", back, "--rules", "9,9,5,2,1")
	runBook(t, false, "import", "--book", back, "--partial", sgfP)
	runBook(t, false, "check", "--book", book)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// sgfMoves is an SGF's tree of moves: its variations' parentheses and
// stones (";B[ee]"), without the other properties.
func sgfMoves(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', ')':
			out.WriteByte(c)
		case '[':
			j := i + 1
			for j < len(s) && s[j] != ']' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if i >= 2 && s[i-2] == ';' && (s[i-1] == 'B' || s[i-1] == 'W') {
				out.WriteString(s[i-2 : j+1])
			}
			i = j
		}
	}
	return out.String()
}
