//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every book command on a named pipe (or a folder) at --book, and backup
// to one, exits non-zero with one line naming it, at once: without the
// check the commands hang on the pipe until go test's -timeout.
func TestBookOnNamedPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "x.c6book")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(dir, "g.json")
	os.WriteFile(games, []byte(`{"10": ["j10", "j11k10"]}`), 0o644)
	book := filepath.Join(dir, "b.c6book")
	runBook(t, false, "init", "--book", book)
	for _, args := range [][]string{
		{"stats", "--book", pipe},
		{"show", "--book", pipe},
		{"check", "--book", pipe},
		{"export", "--book", pipe},
		{"import-games", "--book", pipe, "--games", games},
		{"annotate", "--book", pipe, "--comment", "x"},
		{"prove", "--book", pipe, "--turns", "j10 j11k10", "--max-calls", "1"},
		{"backup", "--book", pipe, "--to", filepath.Join(dir, "copy.c6book")},
		{"backup", "--book", book, "--to", pipe},
		{"init", "--book", pipe},
		{"stats", "--book", dir},
	} {
		out, errs := runBook(t, true, args...)
		if out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "not a regular file") {
			t.Errorf("c6 book %s: stdout %q, stderr %q; want one line saying not a regular file", strings.Join(args, " "), out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.c6book")); err == nil {
		t.Error("backup of a named pipe wrote a copy")
	}
}
