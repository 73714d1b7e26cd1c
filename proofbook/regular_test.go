//go:build unix

package proofbook

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"c6book/engine/game"
)

// TestNotRegularFileRefused: a named pipe, a folder or a socket at the
// book's path (or at its -wal, -shm or -journal) is refused with one line
// before SQLite opens anything (a pipe hung Open); a symbolic link to a
// book is fine. Without the check this test hangs until go test's
// -timeout.
func TestNotRegularFileRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := filepath.Join(dir, "b.c6book")
	bk, err := Create(ctx, book, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	link := filepath.Join(dir, "link.c6book")
	if err := os.Symlink(book, link); err != nil {
		t.Fatal(err)
	}
	if bk, err := Open(ctx, link); err != nil {
		t.Fatalf("a link to a book: %v", err)
	} else {
		bk.Close()
	}

	fifo := func(p string) {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotRegular) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: %v, want one line with %v", what, err, ErrNotRegular)
		}
	}
	p := filepath.Join(dir, "pipe.c6book")
	fifo(p)
	_, err = Open(ctx, p)
	refused("named pipe", err)
	_, err = OpenWith(ctx, p, OpenOptions{ReadOnly: true})
	refused("named pipe, read-only", err)
	_, err = Create(ctx, p, game.Connect6())
	refused("create over a named pipe", err)
	_, err = Open(ctx, dir)
	refused("folder", err)
	for _, ext := range companions {
		b2 := filepath.Join(dir, "c"+ext+".c6book")
		if err := os.WriteFile(b2, closedBook(t), 0o644); err != nil {
			t.Fatal(err)
		}
		fifo(b2 + ext)
		_, err = Open(ctx, b2)
		refused("a named pipe at "+ext, err)
	}
	sock := filepath.Join(dir, "s.c6book")
	l, err := netListenUnix(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = Open(ctx, sock)
	refused("socket", err)

	// A named pipe as the write gate's record is no record (reading it
	// would block).
	fifo(book + checkedSuffix)
	fifo(book + checkedSuffix + ".tmp")
	if bk, err := Open(ctx, book); err != nil {
		t.Fatal(err)
	} else {
		if err := bk.SetComment(ctx, bk.root, "x"); err != nil {
			t.Fatalf("write with a named pipe as the record: %v", err)
		}
		bk.Close()
	}

	// Backup: to a named pipe, or beside one.
	bk, err = Open(ctx, book)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	refused("backup to a named pipe", bk.Backup(ctx, p))
	dst := filepath.Join(dir, "copy.c6book")
	fifo(dst + "-journal")
	refused("backup beside a named pipe", bk.Backup(ctx, dst))
	if exists(dst) {
		t.Fatal("backup beside a named pipe left a file")
	}
}

func netListenUnix(path string) (interface{ Close() error }, error) {
	return net.Listen("unix", path)
}
