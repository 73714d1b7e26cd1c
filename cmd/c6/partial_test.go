package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// λ3 sub-positions from the command line: a null ("-") or seminull (one
// stone) defender turn is refused with a hint unless --partial, in --turns
// and in SGF alike, and the book stores and finds such lines.
func TestPartialTurns(t *testing.T) {
	line := "j10 j9l10 k11l9 - k12k13 m12"
	runFail(t, []string{"threats", "--turns", line}, "turn 4", "wrong number of stones", "--partial")
	v := runThreats(t, "--partial", "--turns", line)
	if v.ToMove != "B" || v.Turn != 6 || v.Players["B"].Stones != 5 || v.Players["W"].Stones != 3 {
		t.Fatalf("partial line: %s to move, turn %d, stones B %d W %d", v.ToMove, v.Turn, v.Players["B"].Stones, v.Players["W"].Stones)
	}
	sgf := filepath.Join(t.TempDir(), "line.sgf")
	os.WriteFile(sgf, []byte("(;FF[4]RU[19,19,6,2,1];B[j10];W[j9l10];B[k11l9];W[];B[k12k13];W[m12])"), 0o644)
	runFail(t, []string{"threats", "--sgf", sgf}, "line.sgf")
	if w := runThreats(t, "--partial", "--sgf", sgf); w.Turn != v.Turn || w.Players["W"].Stones != 3 {
		t.Fatalf("partial SGF line: turn %d, W stones %d", w.Turn, w.Players["W"].Stones)
	}

	book := filepath.Join(t.TempDir(), "b.c6book")
	runBook(t, false, "init", "--book", book)
	_, errs := runBook(t, true, "annotate", "--book", book, "--turns", "j10 j9l10 k11l9 -", "--comment", "after the null move")
	if !strings.Contains(errs, "--partial") {
		t.Fatalf("annotate without --partial: %s", errs)
	}
	runBook(t, false, "verify", "--book", book, "--partial", "--turns", "j10 j9l10 k11l9 - k12k13", "--max-nodes", "500", "--workers", "1")
	out, _ := runBook(t, false, "show", "--book", book, "--partial", "--turns", "j10 j9l10 k11l9 -")
	if !strings.Contains(out, "k12k13") {
		t.Fatalf("the null-move position's child is not listed:\n%s", out)
	}
}
