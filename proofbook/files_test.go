package proofbook

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
)

// listing describes a folder: the folder's own modification time, then
// each entry's name, mode, size, modification time and a digest of its
// bytes.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&sb, "%s\n", fi.ModTime().Format(time.RFC3339Nano))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		fi, err := os.Lstat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, n))
		var sum uint64
		for i, c := range data {
			sum = sum*1099511628211 + uint64(c) + uint64(i)
		}
		fmt.Fprintf(&sb, "%s %v %d %s %x\n", n, fi.Mode(), fi.Size(), fi.ModTime().Format(time.RFC3339Nano), sum)
	}
	return sb.String()
}

// closedBook makes a book with a line and a comment, closed (no WAL file
// beside it), and returns its bytes.
func closedBook(t *testing.T) []byte {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "src.c6book")
	bk, err := Create(ctx, path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	id := add(t, bk, "j10 j11k10")
	if err := bk.SetComment(ctx, id, "kept"); err != nil {
		t.Fatal(err)
	}
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 8192 || exists(path+"-wal") {
		t.Fatalf("closed book: %d bytes, WAL left: %v", len(data), exists(path+"-wal"))
	}
	return data
}

// withHeader returns a copy of a book's bytes with a big-endian 32-bit
// header field changed (user_version at 60, application_id at 68).
func withHeader(data []byte, off int, v uint32) []byte {
	out := bytes.Clone(data)
	binary.BigEndian.PutUint32(out[off:], v)
	return out
}

// A refused file is left byte-identical and nothing is created beside it
// (no -wal, -shm or -journal): the folder's listing is unchanged, whether
// it is opened for writing or read-only.
func TestRefusedFileLeavesFolderUnchanged(t *testing.T) {
	ctx := context.Background()
	book := closedBook(t)
	cases := []struct {
		name string
		data []byte
		mode os.FileMode
		want error
	}{
		{"truncated book", book[:5000], 0o644, ErrDamaged},
		{"header only", book[:100], 0o644, ErrDamaged},
		{"schema 99", withHeader(book, 60, 99), 0o644, ErrTooNew},
		{"schema 0", withHeader(book, 60, 0), 0o644, ErrNotBook},
		{"another program's application_id", withHeader(book, 68, 0x12345678), 0o644, ErrNotBook},
		{"no application_id", withHeader(book, 68, 0), 0o644, ErrNotBook},
		{"empty file", nil, 0o644, ErrNotBook},
		{"text file", []byte("(;FF[4]SZ[19];B[j10])\n"), 0o644, ErrNotBook},
		{"read-only truncated book", book[:5000], 0o444, ErrDamaged},
		{"read-only schema 99", withHeader(book, 60, 99), 0o444, ErrTooNew},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.c6book")
			if err := os.WriteFile(path, c.data, c.mode); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			for _, p := range []string{path, dir} {
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			before := listing(t, dir)
			for _, o := range []OpenOptions{{}, {ReadOnly: true}} {
				bk, err := OpenWith(ctx, path, o)
				if err == nil {
					bk.Close()
					t.Fatalf("opened (%+v)", o)
				}
				if !errors.Is(err, c.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q, want one line naming the file: %v", err, c.want)
				}
				if after := listing(t, dir); after != before {
					t.Fatalf("the folder changed (%+v):\nbefore %s\nafter  %s", o, before, after)
				}
			}
		})
	}
}

// A book that cannot be written opens read-only: reads work, every write
// says read-only and what cannot be written, and nothing is created beside
// it. As root (permission bits not enforced) the read-only path is tested
// through OpenOptions.ReadOnly; as another user through a read-only folder
// and a read-only file too.
func TestReadOnlyBook(t *testing.T) {
	ctx := context.Background()
	book := closedBook(t)
	check := func(t *testing.T, path string, o OpenOptions, reason string) {
		t.Helper()
		dir := filepath.Dir(path)
		before := listing(t, dir)
		bk, err := OpenWith(ctx, path, o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(bk.ReadOnly(), reason) {
			t.Fatalf("ReadOnly() = %q, want %q", bk.ReadOnly(), reason)
		}
		r := bk.Rules()
		b, _ := board.ReplayText(r, "j10 j11k10")
		id, _, err := bk.Locate(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := bk.Position(ctx, id); err != nil || p.Comment != "kept" {
			t.Fatalf("read: %q %v", p.Comment, err)
		}
		if hits, err := bk.Search(ctx, "kept", 5); err != nil || len(hits) != 1 {
			t.Fatalf("search: %v %v", hits, err)
		}
		if rep, err := bk.Check(ctx); err != nil || !rep.OK() {
			t.Fatalf("check: %v %v", err, rep.Problems)
		}
		// (The SGF export of a read-only book: bookfile's TestReadOnlyBookFormats.)
		cp := filepath.Join(t.TempDir(), "copy.c6book")
		if err := bk.Backup(ctx, cp); err != nil {
			t.Fatalf("backup: %v", err)
		}
		id2, v := verdict(t, bk, "j10", verify.StatusOpen, 0, "k11l12")
		games := map[string][]string{"1": {"j10", "a1a2"}}
		for what, err := range map[string]error{
			"comment":  bk.SetComment(ctx, id, "lost?"),
			"line":     func() error { _, err := bk.AddLine(ctx, turns(t, r, "a1")); return err }(),
			"verdict":  func() error { _, err := bk.StoreVerdict(ctx, id2, v); return err }(),
			"disprove": bk.SetDisproved(ctx, id, game.Black, true),
			"tree":     func() error { _, _, err := bk.WriteTree(ctx, func(*TreeTx, Node) error { return nil }); return err }(),
			"games":    func() error { _, err := bk.importMap(ctx, games, ImportOptions{}); return err }(),
		} {
			if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only: "+path+" cannot be written") {
				t.Fatalf("%s on a read-only book: %v", what, err)
			}
		}
		if err := bk.Close(); err != nil {
			t.Fatal(err)
		}
		if after := listing(t, dir); after != before {
			t.Fatalf("the folder changed:\nbefore %s\nafter  %s", before, after)
		}
	}
	write := func(t *testing.T, mode os.FileMode) string {
		path := filepath.Join(t.TempDir(), "ro.c6book")
		if err := os.WriteFile(path, book, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	t.Run("option", func(t *testing.T) {
		check(t, write(t, 0o644), OpenOptions{ReadOnly: true}, "opened read-only")
	})
	t.Run("permissions", func(t *testing.T) {
		path := write(t, 0o444)
		dir := filepath.Dir(path)
		if canWrite(path) {
			t.Log("permission bits are not enforced for this user (root): the read-only path is covered by the option")
			return
		}
		check(t, path, OpenOptions{}, "the file is read-only")
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		check(t, path, OpenOptions{}, "its folder "+dir+" cannot be written")
	})
	// A book a writer has open (its WAL beside it) is read with the WAL:
	// the read-only book sees what the writer commits.
	t.Run("beside a writer", func(t *testing.T) {
		path := write(t, 0o644)
		w, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ro, err := OpenWith(ctx, path, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		l, err := w.AddLine(ctx, turns(t, w.Rules(), "a1 b1b2"))
		if err != nil {
			t.Fatal(err)
		}
		if p, err := ro.Position(ctx, l.IDs[2]); err != nil || len(p.White) != 2 {
			t.Fatalf("the read-only book does not see the writer's commit: %+v %v", p, err)
		}
	})
	// A read-only book of an older schema cannot be upgraded: refused,
	// untouched.
	t.Run("older schema", func(t *testing.T) {
		path := write(t, 0o644)
		data := withHeader(book, 60, uint32(SchemaVersion()-1))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		before := listing(t, filepath.Dir(path))
		_, err := OpenWith(ctx, path, OpenOptions{ReadOnly: true})
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "upgraded") {
			t.Fatalf("older schema read-only: %v", err)
		}
		if after := listing(t, filepath.Dir(path)); after != before {
			t.Fatal("the folder changed")
		}
	})
}

// Creating a book in a folder that cannot be written is a clear error.
func TestCreateInReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if canWrite(dir) {
		t.Log("permission bits are not enforced for this user (root)")
		return
	}
	_, err := Create(context.Background(), filepath.Join(dir, "new.c6book"), game.Connect6())
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("create in a read-only folder: %v", err)
	}
}
