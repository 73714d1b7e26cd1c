package proofbook

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofcheck"

	"github.com/mattn/go-sqlite3"
)

// ApplicationID marks a SQLite file as a c6book book ("C6BK").
const ApplicationID = 0x4336424B

// Errors returned when a file cannot be opened as a book. The file is never
// modified in these cases.
var (
	ErrNotBook   = errors.New("not a c6book book")
	ErrTooNew    = errors.New("the book was written by a newer c6book")
	ErrExists    = errors.New("file already exists")
	ErrNotFound  = errors.New("not in the book")
	ErrCollision = errors.New("hash collision: two positions with the same key")
	// ErrReadOnly: the book (or its folder) cannot be written; it is opened
	// for reading only, and every write returns this error.
	ErrReadOnly = errors.New("read-only")
	// ErrDamaged: an SQLite file with the book's marks that is truncated or
	// otherwise unreadable.
	ErrDamaged = errors.New("damaged book file")
)

// DefaultBusyTimeout is how long a write waits for another program's write
// lock before it fails with "database is locked".
const DefaultBusyTimeout = 10 * time.Second

// OpenOptions tune OpenWith.
type OpenOptions struct {
	// ReadOnly opens the book for reading only even when it could be
	// written (a book whose file or folder cannot be written is always
	// opened so).
	ReadOnly bool
	// BusyTimeout is how long a write waits for another program's write
	// lock before it fails (default DefaultBusyTimeout). StoreVerdict then
	// waits and tries again until its context is done.
	BusyTimeout time.Duration
}

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations sorted by version; file names
// are NNNN_name.sql and the versions must be 1, 2, 3 ... without gaps.
func migrations() ([]migration, error) {
	ents, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range ents {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", e.Name())
		}
		data, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(data)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion is the user_version this build writes.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// Book is an open proof book. Its methods are safe for concurrent use: writes
// go through one connection (one immediate transaction at a time), reads
// through a small pool that sees the last committed state.
type Book struct {
	path     string
	w        *sql.DB // one connection, all writes (nil when read-only)
	r        *sql.DB // read pool, query_only
	rules    game.Rules
	root     PosID
	tmpl     *board.Board  // empty board; Clone shares its geometry
	readOnly string        // why the book cannot be written ("" when it can)
	busy     time.Duration // busy timeout of every connection
	closed   bool
	gate     gate // the write gate: no write to a damaged book (integrity.go)
	// upgradeNote says what opening the book changed (a schema upgrade
	// that re-derived the proofs), "" when nothing.
	upgradeNote string
	// noDigest: writes leave the proof digest alone (the upgrade of a
	// book older than the digest, which records it at its end).
	noDigest bool
	// checked: the certificates StoreVerdict checked and stored (this
	// process), for Prove's closing check.
	checked checkedCerts
	// ProofsChecked's connection and cache (dmu guards both).
	dmu    sync.Mutex
	dc     *sql.Conn
	dcache proofsCache
}

// UpgradeNote says what opening the book changed, e.g. how many proved
// positions an upgrade to certified proofs turned open again; "" when
// nothing.
func (bk *Book) UpgradeNote() string { return bk.upgradeNote }

// dsn builds the connection string; every connection setting is in it so no
// PRAGMA is ever executed on a pool.
func dsn(path string, readOnly bool, busy time.Duration) string {
	u := url.URL{Path: path}
	q := fmt.Sprintf("_journal_mode=WAL&_foreign_keys=1&_busy_timeout=%d&_synchronous=NORMAL&_stmt_cache_size=64", busy.Milliseconds())
	if readOnly {
		q += "&_query_only=1&_cache_size=-16384"
	} else {
		q += "&_txlock=immediate&_cache_size=-65536"
	}
	return "file:" + u.EscapedPath() + "?" + q
}

// roDSN is the connection string of a connection that opens the file
// read-only and never creates anything beside it: without a WAL file
// beside the book (no writer has it open, and the last one merged its WAL)
// the file is read as immutable, so SQLite makes no -wal or -shm file;
// with one, SQLite reads the WAL too. queryOnly refuses writes to attached
// files as well (Backup's VACUUM INTO needs it off).
func roDSN(path string, busy time.Duration, queryOnly bool) string {
	u := url.URL{Path: path}
	q := fmt.Sprintf("mode=ro&_foreign_keys=1&_busy_timeout=%d&_stmt_cache_size=64&_cache_size=-16384", busy.Milliseconds())
	if queryOnly {
		q += "&_query_only=1"
	}
	if !exists(path + "-wal") {
		q += "&immutable=1"
	}
	return "file:" + u.EscapedPath() + "?" + q
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readOnlyReason says why path cannot be written in place ("" when it
// can): the file, its folder (SQLite makes its -wal and -shm files there)
// or a WAL file another user left beside it.
func readOnlyReason(path string) string {
	if !canWrite(path) {
		return "the file is read-only"
	}
	if dir := filepath.Dir(path); !canWrite(dir) {
		return "its folder " + dir + " cannot be written"
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if exists(path+ext) && !canWrite(path+ext) {
			return "its file " + filepath.Base(path+ext) + " is read-only"
		}
	}
	return ""
}

// probe checks, without writing or creating anything, that path holds a
// c6book book this build can open. It reads the header bytes first, then
// asks SQLite through a read-only connection (the header can be stale
// while a WAL is unmerged).
func probe(ctx context.Context, path string, busy time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	var hdr [100]byte
	n, err := io.ReadFull(f, hdr[:])
	fi, serr := f.Stat()
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	if serr != nil {
		return serr
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, fileKind(fi.Mode()))
	}
	if n < 100 || !bytes.Equal(hdr[:16], []byte("SQLite format 3\x00")) {
		return fmt.Errorf("%s: %w (not an SQLite database)", path, ErrNotBook)
	}
	if id := binary.BigEndian.Uint32(hdr[68:72]); id != 0 && id != ApplicationID {
		return fmt.Errorf("%s: %w (SQLite application_id %#x)", path, ErrNotBook, id)
	}
	if !exists(path + "-wal") {
		// Without a WAL the header is the truth: its page count (valid
		// when its version-valid-for number matches the change counter)
		// must fit in the file.
		pageSize := int64(binary.BigEndian.Uint16(hdr[16:18]))
		if pageSize == 1 {
			pageSize = 65536
		}
		pages := int64(binary.BigEndian.Uint32(hdr[28:32]))
		if bytes.Equal(hdr[92:96], hdr[24:28]) && pages*pageSize > fi.Size() {
			return fmt.Errorf("%s: %w (truncated: %d bytes, its header says %d)", path, ErrDamaged, fi.Size(), pages*pageSize)
		}
	}
	db, err := sql.Open("sqlite3", roDSN(path, busy, true))
	if err != nil {
		return err
	}
	defer db.Close()
	var appID, ver int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("%s: %w (%v)", path, notBookOrDamaged(hdr[:]), err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		return fmt.Errorf("%s: %w (%v)", path, notBookOrDamaged(hdr[:]), err)
	}
	return checkIDs(path, appID, ver)
}

// notBookOrDamaged is the error for an SQLite file SQLite cannot read: a
// damaged book when its header carries the book's application_id.
func notBookOrDamaged(hdr []byte) error {
	if binary.BigEndian.Uint32(hdr[68:72]) == ApplicationID {
		return ErrDamaged
	}
	return ErrNotBook
}

func checkIDs(path string, appID, ver int64) error {
	if appID != ApplicationID {
		return fmt.Errorf("%s: %w (SQLite application_id %#x)", path, ErrNotBook, appID)
	}
	if ver > int64(SchemaVersion()) {
		return fmt.Errorf("%s: %w (schema version %d, this build knows %d)", path, ErrTooNew, ver, SchemaVersion())
	}
	if ver < 1 {
		return fmt.Errorf("%s: %w (schema version %d)", path, ErrNotBook, ver)
	}
	return nil
}

// Open opens an existing book, upgrading its schema if it was written by an
// older build. A file that is not a c6book book, or that a newer build
// wrote, is refused and left untouched, with nothing created beside it. A
// book whose file or folder cannot be written is opened read-only.
func Open(ctx context.Context, path string) (*Book, error) {
	return OpenWith(ctx, path, OpenOptions{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, path string, o OpenOptions) (*Book, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	busy := o.BusyTimeout
	if busy <= 0 {
		busy = DefaultBusyTimeout
	}
	if err := checkRegular(abs); err != nil {
		return nil, err
	}
	if err := probe(ctx, abs, busy); err != nil {
		return nil, err
	}
	ro := readOnlyReason(abs)
	if ro == "" && o.ReadOnly {
		ro = "opened read-only"
	}
	if ro != "" {
		return openReadOnly(ctx, abs, ro, busy)
	}
	return open(ctx, abs, nil, busy)
}

// Create makes a new book for the rules at path, which must not exist.
func Create(ctx context.Context, path string, rules game.Rules) (*Book, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(abs); err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err == nil {
		return nil, fmt.Errorf("%s: %w", path, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if dir := filepath.Dir(abs); !canWrite(dir) {
		return nil, fmt.Errorf("%w: cannot create %s: its folder %s cannot be written", ErrReadOnly, path, dir)
	}
	return open(ctx, abs, &rules, DefaultBusyTimeout)
}

func open(ctx context.Context, path string, create *game.Rules, busy time.Duration) (bk *Book, err error) {
	w, err := sql.Open("sqlite3", dsn(path, false, busy))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	defer func() {
		if err != nil {
			w.Close()
		}
	}()
	var note string
	if err := migrate(ctx, w, path, create, &note); err != nil {
		return nil, err
	}
	r, err := sql.Open("sqlite3", dsn(path, true, busy))
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	bk = &Book{path: path, w: w, r: r, busy: busy, upgradeNote: note}
	if err := bk.loadMeta(ctx, w); err != nil {
		r.Close()
		return nil, err
	}
	return bk, nil
}

// openReadOnly opens a book that cannot (or must not) be written: a read
// pool only, creating nothing beside the file (see roDSN). A book whose
// schema needs an upgrade cannot be read so.
func openReadOnly(ctx context.Context, path, reason string, busy time.Duration) (*Book, error) {
	r, err := sql.Open("sqlite3", roDSN(path, busy, true))
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	bk := &Book{path: path, r: r, readOnly: reason, busy: busy}
	var ver int64
	if err := r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ver != int64(SchemaVersion()) {
		r.Close()
		return nil, fmt.Errorf("%w: %s cannot be written (%s), and its schema (version %d) must be upgraded to version %d first: open it once where it can be written",
			ErrReadOnly, path, reason, ver, SchemaVersion())
	}
	if err := bk.loadMeta(ctx, r); err != nil {
		r.Close()
		return nil, err
	}
	return bk, nil
}

// loadMeta reads the rule set and the root position.
func (bk *Book) loadMeta(ctx context.Context, db queryer) error {
	var root sql.NullInt64
	row := db.QueryRowContext(ctx, "SELECT m, n, k, p, q, root FROM meta WHERE id = 1")
	if err := row.Scan(&bk.rules.M, &bk.rules.N, &bk.rules.K, &bk.rules.P, &bk.rules.Q, &root); err != nil {
		return fmt.Errorf("%s: reading the rule set: %w", bk.path, err)
	}
	if err := bk.rules.Validate(); err != nil {
		return fmt.Errorf("%s: %w", bk.path, err)
	}
	var err error
	if bk.tmpl, err = board.NewBoard(bk.rules); err != nil {
		return err
	}
	bk.root = PosID(root.Int64)
	if !root.Valid {
		return fmt.Errorf("%s: %w (no root position)", bk.path, ErrNotBook)
	}
	return nil
}

// migrate applies the pending migrations in one immediate transaction on
// the writer, re-checking application_id and user_version inside it.
func migrate(ctx context.Context, w *sql.DB, path string, create *game.Rules, note *string) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer tx.Rollback()
	var appID, ver int64
	if err := tx.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if create == nil {
		if err := checkIDs(path, appID, ver); err != nil {
			return err
		}
	} else if appID != 0 || ver != 0 {
		return fmt.Errorf("%s: %w", path, ErrExists)
	}
	if create == nil && int(ver) < len(ms) {
		// An upgrade writes: not to a damaged book.
		damage, err := quickCheck(ctx, tx)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if damage != "" {
			return fmt.Errorf("%w: %s: %s; not upgraded, nothing was written", ErrDamaged, path, damage)
		}
	}
	for _, m := range ms[ver:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("%s: migration %s: %w", path, m.name, err)
		}
	}
	var notes []string
	if create == nil && ver >= 1 && ver < certSchema {
		n, err := rederive(ctx, tx, path)
		if err != nil {
			return fmt.Errorf("%s: migration to certified proofs: %w", path, err)
		}
		notes = append(notes, n)
	}
	if create == nil && ver >= 1 && ver < gameStatsSchema {
		n, err := backfillGames(ctx, tx, path)
		if err != nil {
			return fmt.Errorf("%s: migration to game statistics: %w", path, err)
		}
		notes = append(notes, n)
	}
	if create == nil && ver >= 1 && ver < digestSchema {
		// The proofs of an older book are taken as they are (as every
		// build before this one did): from now on a change made outside
		// the program is seen.
		if err := recordDigest(ctx, tx); err != nil {
			return fmt.Errorf("%s: migration to the proof digest: %w", path, err)
		}
	}
	if create == nil && ver >= 1 && ver < orderSchema {
		n, err := trueOrders(ctx, tx, path, ver >= digestSchema)
		if err != nil {
			return fmt.Errorf("%s: migration to true orders: %w", path, err)
		}
		notes = append(notes, n)
	}
	if create == nil && ver >= 1 && ver < twinSchema {
		n, err := linkStoredTwins(ctx, tx, path, ver >= digestSchema)
		if err != nil {
			return fmt.Errorf("%s: migration to twins: %w", path, err)
		}
		notes = append(notes, n)
	}
	for _, n := range notes {
		if n != "" && *note != "" {
			*note += "; "
		}
		*note += n
	}
	if create != nil {
		now := time.Now().Unix()
		r := *create
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta(id, m, n, k, p, q, created_at) VALUES (1, ?, ?, ?, ?, ?, ?)",
			r.M, r.N, r.K, r.P, r.Q, now); err != nil {
			return err
		}
		b, err := board.NewBoard(r)
		if err != nil {
			return err
		}
		key, sym := b.CanonicalKey()
		res, err := tx.ExecContext(ctx, "INSERT INTO position(key, stones, to_move, nstones, winner, created_at) VALUES (?, ?, ?, 0, 0, ?)",
			int64(key), encodeStones(r, b, sym), int(b.ToMove()), now)
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		if _, err := tx.ExecContext(ctx, "UPDATE meta SET root = ? WHERE id = 1", id); err != nil {
			return err
		}
	}
	if int(ver) != len(ms) || create != nil {
		// PRAGMA arguments cannot be bound; both values are integers we own.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms))); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", ApplicationID)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Close closes the book.
func (bk *Book) Close() error {
	if bk.closed {
		return nil
	}
	bk.closed = true
	bk.dmu.Lock()
	if bk.dc != nil {
		bk.dc.Close()
		bk.dc = nil
	}
	bk.dmu.Unlock()
	return bk.closeGate(func() error {
		err1 := bk.r.Close()
		var err2 error
		if bk.w != nil {
			err2 = bk.w.Close()
		}
		if err1 != nil {
			return err1
		}
		return err2
	})
}

// Path is the book's file.
func (bk *Book) Path() string { return bk.path }

// Rules is the book's rule set.
func (bk *Book) Rules() game.Rules { return bk.rules }

// Root is the empty board's position.
func (bk *Book) Root(ctx context.Context) (PosID, error) { return bk.root, nil }

// ReadOnly reports why the book cannot be written ("" when it can): its
// file or folder is read-only, it was opened with OpenOptions.ReadOnly, or
// the write gate found it damaged ("damaged: ..."; see CheckWritable).
func (bk *Book) ReadOnly() string {
	if bk.readOnly != "" {
		return bk.readOnly
	}
	if d := bk.Damaged(); d != "" {
		return "damaged: " + d
	}
	return ""
}

// write runs fn in one immediate write transaction on the writer, once
// the write gate has found the book sound (CheckWritable).
func (bk *Book) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := bk.CheckWritable(ctx); err != nil {
		return err
	}
	tx, err := bk.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return bk.commit(tx)
}

// Retry backoff of writeRetry: the first pause, doubled up to the last.
const (
	retryFirst = 20 * time.Millisecond
	retryMax   = time.Second
)

// writeRetry is write for finished work that must not be lost (a verdict
// that took minutes, an import's next batch): when another program holds the book's write lock
// past the busy timeout ("database is locked"), it pauses briefly and tries
// again, until the write is stored or ctx is done. This is the one retry
// policy of the package.
func (bk *Book) writeRetry(ctx context.Context, fn func(tx *sql.Tx) error) error {
	pause := retryFirst
	for {
		err := bk.write(ctx, fn)
		if !IsBusy(err) {
			return err
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (gave up waiting: %v)", ctx.Err(), err)
		case <-t.C:
		}
		pause = min(2*pause, retryMax)
	}
}

// IsBusy reports whether err is SQLite's "database is locked" (another
// connection holds the lock past the busy timeout).
func IsBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// IsStorageError reports whether err is the store's own failure (an
// SQLite error: a full disk, I/O, a lock; the book read-only or damaged)
// rather than a refusal of what was asked (a verdict whose certificate
// does not check, an illegal move): a copy between books stops on it.
func IsStorageError(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) || errors.Is(err, ErrReadOnly) || errors.Is(err, ErrDamaged)
}

// Backup writes a consistent copy of the book to dst (which must not exist)
// with VACUUM INTO, and verifies it. A book that SQLite reports damaged
// (quick_check) is not copied; the copy must pass quick_check (VACUUM
// INTO builds its indexes from its rows, so integrity_check's comparison
// of the two would only double the time), carry the book's marks and
// schema, and (unless another program committed while it was written)
// hold as many rows in every table as the book. A copy that fails is
// removed and an ErrDamaged error says why.
func (bk *Book) Backup(ctx context.Context, dst string) error {
	abs, err := filepath.Abs(dst)
	if err != nil {
		return err
	}
	if err := checkRegular(abs); err != nil {
		return err
	}
	if _, err := os.Stat(abs); err == nil {
		return fmt.Errorf("%s: %w", dst, ErrExists)
	}
	if err := checkRegular(bk.path); err != nil {
		return err
	}
	// A connection of its own (VACUUM INTO only reads this book, but a
	// query_only connection refuses it, and the writer must stay free); a
	// read-only connection for a read-only book.
	conn := dsn(bk.path, false, bk.busy)
	if bk.readOnly != "" {
		conn = roDSN(bk.path, bk.busy, false)
	}
	db, err := sql.Open("sqlite3", conn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var damage string
	if bk.readOnly == "" {
		damage, err = bk.gateCheck(ctx) // the faster connection (integrity.go)
	} else {
		damage, err = quickCheck(ctx, db)
	}
	if err != nil {
		return fmt.Errorf("backup of %s: %w", bk.path, err)
	}
	if damage != "" {
		return fmt.Errorf("%w: %s: %s; no copy written", ErrDamaged, bk.path, damage)
	}
	before, err := bookShape(ctx, db)
	if err != nil {
		return fmt.Errorf("backup of %s: %w", bk.path, err)
	}
	if _, err = db.ExecContext(ctx, "VACUUM INTO ?", abs); err != nil {
		os.Remove(abs)
		return fmt.Errorf("backup to %s: %w", dst, err)
	}
	var after int64
	if err := db.QueryRowContext(ctx, "PRAGMA data_version").Scan(&after); err != nil {
		os.Remove(abs)
		return fmt.Errorf("backup of %s: %w", bk.path, err)
	}
	if err := verifyCopy(ctx, abs, bk.busy, before, before.dataVersion == after); err != nil {
		os.Remove(abs)
		return fmt.Errorf("%w: backup to %s: %v; the copy was removed", ErrDamaged, dst, err)
	}
	return nil
}

// shape is what a backup must keep: the marks, the schema and the rows of
// every table.
type shape struct {
	appID, version int64
	schema         string
	rows           map[string]int64
	dataVersion    int64 // PRAGMA data_version: changes when another connection commits
}

func bookShape(ctx context.Context, db *sql.DB) (sh shape, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return sh, err
	}
	defer conn.Close()
	for _, q := range []struct {
		pragma string
		v      *int64
	}{{"data_version", &sh.dataVersion}, {"application_id", &sh.appID}, {"user_version", &sh.version}} {
		if err := conn.QueryRowContext(ctx, "PRAGMA "+q.pragma).Scan(q.v); err != nil {
			return sh, err
		}
	}
	rows, err := conn.QueryContext(ctx, "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		return sh, err
	}
	var tables []string
	var schema strings.Builder
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			rows.Close()
			return sh, err
		}
		fmt.Fprintf(&schema, "%s %s: %s\n", typ, name, text)
		if typ == "table" && !strings.HasPrefix(name, "sqlite_") && !strings.HasPrefix(strings.ToUpper(text), "CREATE VIRTUAL") {
			tables = append(tables, name)
		}
	}
	if err := rows.Close(); err != nil {
		return sh, err
	}
	sh.schema = schema.String()
	sh.rows = map[string]int64{}
	for _, t := range tables {
		var n int64
		if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM "`+strings.ReplaceAll(t, `"`, `""`)+`"`).Scan(&n); err != nil {
			return sh, err
		}
		sh.rows[t] = n
	}
	return sh, nil
}

// verifyCopy checks a backup just written at path against the book's
// shape (its row counts too when rows is set).
func verifyCopy(ctx context.Context, path string, busy time.Duration, want shape, rows bool) error {
	db, err := sql.Open("sqlite3", roDSN(path, busy, true))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	damage, err := quickCheck(ctx, db)
	if err != nil {
		return fmt.Errorf("the copy cannot be read: %v", oneLineText(err.Error()))
	}
	if damage != "" {
		return fmt.Errorf("the copy is damaged: %s", damage)
	}
	got, err := bookShape(ctx, db)
	if err != nil {
		return fmt.Errorf("the copy cannot be read: %v", oneLineText(err.Error()))
	}
	switch {
	case got.appID != want.appID || got.version != want.version:
		return fmt.Errorf("the copy's application_id/user_version %#x/%d differ from the book's %#x/%d", got.appID, got.version, want.appID, want.version)
	case got.schema != want.schema:
		return errors.New("the copy's schema differs from the book's")
	}
	if rows {
		for t, n := range want.rows {
			if got.rows[t] != n {
				return fmt.Errorf("the copy's table %s holds %d rows, the book's %d", t, got.rows[t], n)
			}
		}
	}
	return nil
}

// certSchema is the schema version from which proofs rest on certificates.
const certSchema = 5

// rederive recomputes every status of a book upgraded to certSchema inside
// the migration's transaction: verdicts stored without a certificate prove
// nothing any more, and every proved position gets its zone. It returns a
// note with the count of proved positions that are open again.
func rederive(ctx context.Context, tx *sql.Tx, path string) (string, error) {
	// The digest is recorded after every upgrade step (a book of this
	// schema has no digest yet).
	tmp := &Book{path: path, noDigest: true}
	if err := tmp.loadMeta(ctx, tx); err != nil {
		return "", err
	}
	count := func() (int64, error) {
		var n int64
		err := tx.QueryRowContext(ctx, "SELECT count(*) FROM status WHERE status = ? AND how <> 'win'", int(c6book.StatusProved)).Scan(&n)
		return n, err
	}
	before, err := count()
	if err != nil {
		return "", err
	}
	rows, err := tx.QueryContext(ctx, "SELECT pos FROM status WHERE status = ? UNION SELECT pos FROM verdict", int(c6book.StatusProved))
	if err != nil {
		return "", err
	}
	var start []PosID
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return "", err
		}
		start = append(start, PosID(id))
	}
	if err := rows.Close(); err != nil {
		return "", err
	}
	if err := propagate(ctx, tmp, tx, start); err != nil {
		return "", err
	}
	after, err := count()
	if err != nil {
		return "", err
	}
	if before == after {
		return "", nil
	}
	return fmt.Sprintf("upgraded to certified proofs: %d proved positions rested on verdicts without a certificate and are open again (re-verify them)", before-after), nil
}

// orderSchema is the schema version from which stored orders are true
// orders (see migrations/0009_true_orders.sql).
const orderSchema = 9

// trueOrders upgrades a book to true orders: every certified verdict whose
// stored order is below what its certificate supports is raised to it (an
// older build stored 0 for open verdicts and 1 for some single-threat
// wins), then every proof is re-derived, which replaces the run's λ by the
// derived order. digest says whether the book keeps a proof digest: the
// changed rows update it as the program's own writes do, so that a book
// changed outside the program stays unchecked.
func trueOrders(ctx context.Context, tx *sql.Tx, path string, digest bool) (string, error) {
	tmp := &Book{path: path, noDigest: !digest}
	if err := tmp.loadMeta(ctx, tx); err != nil {
		return "", err
	}
	ids, err := queryIDs(ctx, tx, "SELECT pos FROM verdict WHERE cert IS NOT NULL ORDER BY pos")
	if err != nil {
		return "", err
	}
	raised := 0
	for _, id := range ids {
		v, err := loadVerdict(ctx, tx, id)
		if err != nil {
			return "", err
		}
		list, tm, err := loadPos(ctx, tx, tmp.rules, id)
		if err != nil {
			return "", err
		}
		b := tmp.board(list, tm)
		tol, ok := b.DefenderDeficit(v.Attacker)
		if !ok || v.Cert == nil || v.Tolerance != tol {
			continue // never counts in a proof
		}
		res, err := proofcheck.CheckVerdict(ctx, tmp.rules, b.StoneList(game.Black), b.StoneList(game.White), tm, tol, v.Cert)
		if err != nil {
			continue // `check` reports it; it is not used as it is
		}
		if v.Order >= res.Order {
			continue
		}
		v.Order = res.Order
		data, err := marshalVerdict(*v)
		if err != nil {
			return "", err
		}
		removed, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return "", err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE verdict SET ord = ?, data = ? WHERE pos = ?", v.Order, data, int64(id)); err != nil {
			return "", err
		}
		if digest {
			added, err := oldVerdictHash(ctx, tx, int64(id))
			if err != nil {
				return "", err
			}
			if err := bumpDigest(ctx, tx, removed, added); err != nil {
				return "", err
			}
		}
		raised++
	}
	start, err := queryIDs(ctx, tx, "SELECT pos FROM status WHERE status = ? UNION SELECT pos FROM verdict", int(c6book.StatusProved))
	if err != nil {
		return "", err
	}
	if err := propagate(ctx, tmp, tx, start); err != nil {
		return "", err
	}
	if raised == 0 {
		return "", nil
	}
	return fmt.Sprintf("upgraded to true orders: %d verdicts' orders raised to what their certificates support", raised), nil
}
