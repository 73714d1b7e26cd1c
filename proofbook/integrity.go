package proofbook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mattn/go-sqlite3"
)

// The write gate: a book that SQLite reports damaged is never written.
// Before the first write of a Book (and before a schema upgrade), SQLite's
// quick_check reads every page of the file (b-tree structure, cell and
// record format, freelist; not index-to-table consistency: that is
// integrity_check, in Check). It costs about as long as reading the file
// (see the README), so its result is remembered beside the book in
// BOOK.checked: the identity of the main file (device, inode, size,
// modification and change times) when it was last found sound. The record
// is written after a passing check and, when a Book closes, only if every
// change of the main file since the check was this Book's own (its
// identity was the one remembered before each of the Book's commits): a
// change by anything else (another program's checkpoint, a stray write,
// a copy) makes the next writer check again. Damage that leaves the file's
// identity alone (a disk that flips bits under the file system) is not
// seen before a write; Check sees it.

// checkedSuffix names the record beside the book.
const checkedSuffix = ".checked"

// gate is a Book's write gate.
type gate struct {
	mu     sync.Mutex // held while checking and around each commit
	done   bool       // the check ran (or the record vouched for the file)
	damage string     // what quick_check reported ("" when sound)
	vouch  bool       // every change of the file since known was this Book's
	known  fileID     // the main file's identity this Book vouches for
	checks int        // quick_checks run (tests)
	// found is damage once the check found it, read without mu (the
	// check holds mu for seconds; ReadOnly is called on the UI goroutine).
	found atomic.Pointer[string]
}

// checkedRecord is the content of BOOK.checked.
type checkedRecord struct {
	File fileID `json:"file"`
	Note string `json:"note"`
}

// readChecked reads the record; anything but a small regular file (a
// named pipe would block the read) is no record.
func readChecked(path string) (fileID, bool) {
	fi, err := os.Stat(path + checkedSuffix)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return fileID{}, false
	}
	data, err := os.ReadFile(path + checkedSuffix)
	if err != nil || len(data) > 4096 {
		return fileID{}, false
	}
	var rec checkedRecord
	if json.Unmarshal(data, &rec) != nil {
		return fileID{}, false
	}
	return rec.File, true
}

// writeChecked replaces the record (through a temporary file: a crash
// leaves the old record or the new one). Failing to write it only costs
// the next writer a check.
func writeChecked(path string, id fileID) {
	data, err := json.Marshal(checkedRecord{File: id, Note: "quick_check of this state of the book found it sound (c6book)"})
	if err != nil {
		return
	}
	tmp := path + checkedSuffix + ".tmp"
	os.Remove(tmp) // whatever a crash (or anyone) left there: a new file only
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, path+checkedSuffix); err != nil {
		os.Remove(tmp)
	}
}

// damagedError is the error of a write to a damaged book.
func (bk *Book) damagedError(reason string) error {
	return fmt.Errorf("%w: %s: %s; nothing was written (c6 book check tells more; restore a backup)", ErrDamaged, bk.path, reason)
}

// CheckWritable runs the write gate now (the first write runs it
// otherwise): nil when the book may be written, an ErrDamaged error (one
// line) when SQLite reports it damaged, ErrReadOnly when it is read-only.
// It reads the whole file unless BOOK.checked vouches for it.
func (bk *Book) CheckWritable(ctx context.Context) error {
	if bk.readOnly != "" {
		return fmt.Errorf("%w: %s cannot be written (%s)", ErrReadOnly, bk.path, bk.readOnly)
	}
	g := &bk.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		if g.damage != "" {
			return bk.damagedError(g.damage)
		}
		return nil
	}
	before, err := statID(bk.path)
	if err != nil {
		return err
	}
	if rec, ok := readChecked(bk.path); ok && rec == before {
		g.done, g.vouch, g.known = true, true, before
		return nil
	}
	g.checks++
	damage, err := bk.gateCheck(ctx)
	if err != nil {
		return err
	}
	g.done, g.damage = true, damage
	if damage != "" {
		g.found.Store(&damage)
		return bk.damagedError(damage)
	}
	// A change during the check (another program's commit) leaves the
	// file unvouched for: the next writer checks again.
	if after, err := statID(bk.path); err == nil && after == before {
		g.vouch, g.known = true, after
		writeChecked(bk.path, after)
	}
	return nil
}

// passed records that integrity_check (a superset of quick_check) found
// the file sound while its identity was before: the write gate need not
// read the file again, in this Book or the next (the record). A file that
// changed during the check is left to the gate; a gate that already ran
// keeps its result.
func (g *gate) passed(path string, before fileID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return
	}
	after, err := statID(path)
	if err != nil || after != before {
		return
	}
	g.done, g.vouch, g.known = true, true, after
	writeChecked(path, after)
}

// gateCheck runs quick_check on a connection of its own that opens the
// file read-only (mode=ro; it still sees the WAL and takes the usual
// locks): on the 1.2M-position book it ran in about half the time it took
// on the read pool's connections.
func (bk *Book) gateCheck(ctx context.Context) (string, error) {
	u := url.URL{Path: bk.path}
	db, err := sql.Open("sqlite3", fmt.Sprintf("file:%s?mode=ro&_busy_timeout=%d&_query_only=1&_cache_size=-16384", u.EscapedPath(), bk.busy.Milliseconds()))
	if err != nil {
		return "", err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return quickCheck(ctx, db)
}

// Damaged says what SQLite reported when the write gate found the book
// damaged ("" when it did not, or has not run yet).
func (bk *Book) Damaged() string {
	if d := bk.gate.found.Load(); d != nil {
		return *d
	}
	return ""
}

// stillVouch drops the vouch when the file at path is no longer the one
// the Book vouches for (another program changed it). g.mu is held.
func (g *gate) stillVouch(path string) {
	if g.vouch {
		if id, err := statID(path); err != nil || id != g.known {
			g.vouch = false
		}
	}
}

// commit commits tx, keeping the gate's record of the file's changes: the
// main file changes at a commit only through the checkpoint that follows
// it, so its identity before the commit must be the one the Book vouches
// for, and the one after becomes it.
func (bk *Book) commit(tx *sql.Tx) error {
	g := &bk.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stillVouch(bk.path)
	err := tx.Commit()
	if g.vouch {
		id, serr := statID(bk.path)
		g.vouch, g.known = serr == nil, id
	}
	return err
}

// closeGate is Close's part of the gate: close closes the connections (the
// last one merges the WAL into the file); when the file changed only
// through this Book, the record vouches for the file as it is left.
func (bk *Book) closeGate(close func() error) error {
	g := &bk.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stillVouch(bk.path)
	err := close()
	if g.vouch && err == nil {
		if id, serr := statID(bk.path); serr == nil {
			writeChecked(bk.path, id)
		}
	}
	return err
}

// quickCheck runs PRAGMA quick_check and returns what it reported ("" when
// the file is sound): its first line, and how many more there are.
func quickCheck(ctx context.Context, db queryer) (string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return corrupt(ctx, err)
	}
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return corrupt(ctx, err)
		}
		if s != "ok" && len(lines) < 2 {
			lines = append(lines, s)
		}
	}
	if err := rows.Close(); err != nil {
		return corrupt(ctx, err)
	}
	if err := rows.Err(); err != nil {
		return corrupt(ctx, err)
	}
	switch len(lines) {
	case 0:
		return "", nil
	case 1:
		return "SQLite's quick_check: " + oneLineText(lines[0]), nil
	}
	return "SQLite's quick_check: " + oneLineText(lines[0]) + " (and more)", nil
}

// corrupt turns SQLite's "malformed" and "not a database" errors into a
// damage report; other errors (a cancelled context, I/O) are returned.
func corrupt(ctx context.Context, err error) (string, error) {
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB) {
		return "SQLite: " + oneLineText(err.Error()), nil
	}
	return "", err
}

func oneLineText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:199] + "…"
	}
	return s
}
