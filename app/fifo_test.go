//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"

	"fyne.io/fyne/v2/test"
)

// A named pipe chosen as the book (File ▸ Open, or --book at start) is
// refused with an error at once; without the check Open waited on the pipe
// for a writer (until go test's -timeout).
func TestOpenNamedPipe(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	pipe := filepath.Join(dir, "pipe.c6book")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	other := filepath.Join(dir, "other.c6book")
	ta := startApp(t, a, options{book: other})
	ta.wa.openPath(pipe)
	if ta.wa.bk.Path() != other {
		t.Fatalf("after opening a named pipe the book is %s", ta.wa.bk.Path())
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no error dialog for a named pipe")
	}
	ta.wa.close()
	if _, err := newWorkbenchApp(t.Context(), a, options{book: pipe, localVerifier: true, inline: true, do: func(f func()) { f() }}); err == nil {
		t.Fatal("--book on a named pipe started")
	}
}
