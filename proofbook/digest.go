package proofbook

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"c6book"
)

// The proof digest (schema version 8): the sum, mod 2^64, of a hash of every
// proof-bearing row (a status row that says proved, and every verdict row
// with its certificate), with their count. The program updates the stored
// sum in the transaction of every write that changes such a row; a sum of
// the rows that differs from the stored one means that someone changed
// them outside the program (by hand in sqlite3, another tool): the book's
// proofs then count as unchecked until Check re-checks every one and
// records the sum again. The sum is order-independent, so checking it is
// one pass over the proof rows, and keeping it is a few statements per
// changed row.

// digestSchema is the schema version from which the book keeps the digest.
const digestSchema = 8

// UncheckedNote is what the workbench and the command line say when the
// book's proofs were changed outside the program since the last check.
const UncheckedNote = "proofs not re-checked since an outside change: run check"

// digest is a sum of row hashes and the number of rows summed.
type digest struct {
	sum uint64
	n   int64
}

func (d *digest) add(h uint64)         { d.sum += h; d.n++ }
func (d *digest) sub(h uint64)         { d.sum -= h; d.n-- }
func (d digest) minus(e digest) digest { return digest{d.sum - e.sum, d.n - e.n} }
func (d digest) equal(e digest) bool   { return d == e }
func (d digest) String() string        { return fmt.Sprintf("%016x/%d", d.sum, d.n) }

// rowHash hashes a row's columns: FNV-1a steps (64 bits; 8 bytes a step
// where it can) over each column's length and bytes, then a final mix
// (splitmix64's) so that the sum of the row hashes changes in every bit
// position. Any one changed column value of the same length changes the
// row's hash (every step is a bijection of the state). It guards
// against changes made by mistake, not against a forger (who could
// recompute the stored digest as well).
type rowHash uint64

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func newRowHash(tag string) rowHash { return rowHash(fnvOffset).bytes([]byte(tag)) }

func (h rowHash) byte(b byte) rowHash { return (h ^ rowHash(b)) * fnvPrime }

func (h rowHash) int(v int64) rowHash { return (h ^ rowHash(v)) * fnvPrime }

func (h rowHash) bytes(b []byte) rowHash {
	h = h.int(int64(len(b)))
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ rowHash(binary.LittleEndian.Uint64(b))) * fnvPrime // 8 bytes a step
	}
	for _, c := range b {
		h = h.byte(c)
	}
	return h
}

func (h rowHash) sum() uint64 {
	x := uint64(h)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// statusHash is the hash of a proved status row (raw column values).
func statusHash(pos int64, attacker, status, ord int64, how, zone []byte, hasZone bool) uint64 {
	h := newRowHash("status").int(pos).int(attacker).int(status).int(ord).bytes(how)
	if hasZone {
		h = h.byte(1).bytes(zone)
	} else {
		h = h.byte(0)
	}
	return h.sum()
}

// verdictHash is the hash of a verdict row (raw column values).
func verdictHash(pos, attacker int64, status []byte, ord int64, eng, data, cert []byte, hasCert bool) uint64 {
	h := newRowHash("verdict").int(pos).int(attacker).bytes(status).int(ord).bytes(eng).bytes(data)
	if hasCert {
		h = h.byte(1).bytes(cert)
	} else {
		h = h.byte(0)
	}
	return h.sum()
}

const (
	statusDigestCols  = "pos, attacker, status, ord, how, zone, zone IS NOT NULL"
	verdictDigestCols = "pos, attacker, status, ord, engine, data, cert, cert IS NOT NULL"
)

func scanStatusHash(sc interface{ Scan(...any) error }) (uint64, error) {
	var pos, a, st, ord int64
	var how, zone []byte
	var hasZone bool
	if err := sc.Scan(&pos, &a, &st, &ord, &how, &zone, &hasZone); err != nil {
		return 0, err
	}
	return statusHash(pos, a, st, ord, how, zone, hasZone), nil
}

func scanVerdictHash(sc interface{ Scan(...any) error }) (uint64, error) {
	var pos, a, ord int64
	var st, eng, data, cert []byte
	var hasCert bool
	if err := sc.Scan(&pos, &a, &st, &ord, &eng, &data, &cert, &hasCert); err != nil {
		return 0, err
	}
	return verdictHash(pos, a, st, ord, eng, data, cert, hasCert), nil
}

// rowsDigest sums the proof-bearing rows as they are stored: one pass over
// the proved status rows (index status_order) and the verdicts.
func rowsDigest(ctx context.Context, q queryer) (digest, error) {
	var d digest
	for _, part := range []struct {
		sql  string
		scan func(interface{ Scan(...any) error }) (uint64, error)
	}{
		// A scan of the table (+status: not through an index, whose
		// every row would cost a lookup in the table).
		{"SELECT " + statusDigestCols + " FROM status WHERE +status = 2", scanStatusHash},
		{"SELECT " + verdictDigestCols + " FROM verdict", scanVerdictHash},
	} {
		rows, err := q.QueryContext(ctx, part.sql)
		if err != nil {
			return d, err
		}
		for rows.Next() {
			h, err := part.scan(rows)
			if err != nil {
				rows.Close()
				return d, err
			}
			d.add(h)
		}
		if err := rows.Close(); err != nil {
			return d, err
		}
	}
	return d, nil
}

// storedDigest reads the digest the program keeps. A row deleted by hand
// reads as the digest of no rows (which the proof rows then do not match);
// the next write stores it again.
func storedDigest(ctx context.Context, q queryer) (digest, error) {
	var s, n int64
	err := q.QueryRowContext(ctx, "SELECT digest, nrows FROM proof_digest WHERE id = 1").Scan(&s, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return digest{}, nil
	}
	return digest{uint64(s), n}, err
}

func writeDigest(ctx context.Context, tx *sql.Tx, d digest) error {
	res, err := tx.ExecContext(ctx, "UPDATE proof_digest SET digest = ?, nrows = ? WHERE id = 1", int64(d.sum), d.n)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		_, err = tx.ExecContext(ctx, "INSERT INTO proof_digest(id, digest, nrows) VALUES (1, ?, ?)", int64(d.sum), d.n)
		return err
	}
	return err
}

// bumpDigest applies a change of the proof rows made in tx to the stored
// digest: the hashes removed and added.
func bumpDigest(ctx context.Context, tx *sql.Tx, removed, added []uint64) error {
	if len(removed) == 0 && len(added) == 0 {
		return nil
	}
	d, err := storedDigest(ctx, tx)
	if err != nil {
		return err
	}
	for _, h := range removed {
		d.sub(h)
	}
	for _, h := range added {
		d.add(h)
	}
	return writeDigest(ctx, tx, d)
}

// oldStatusHash reads the stored proved status row (pos, attacker), if
// any, before tx changes it.
func oldStatusHash(ctx context.Context, tx *sql.Tx, pos int64, a int) ([]uint64, error) {
	h, err := scanStatusHash(tx.QueryRowContext(ctx, "SELECT "+statusDigestCols+" FROM status WHERE pos = ? AND attacker = ? AND status = 2", pos, a))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []uint64{h}, nil
}

// oldVerdictHash reads position pos's stored verdict row, if any.
func oldVerdictHash(ctx context.Context, tx *sql.Tx, pos int64) ([]uint64, error) {
	h, err := scanVerdictHash(tx.QueryRowContext(ctx, "SELECT "+verdictDigestCols+" FROM verdict WHERE pos = ?", pos))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []uint64{h}, nil
}

// recordDigest stores the digest of the rows as they are in tx.
func recordDigest(ctx context.Context, tx *sql.Tx) error {
	d, err := rowsDigest(ctx, tx)
	if err != nil {
		return err
	}
	return writeDigest(ctx, tx, d)
}

// proofsCache is the last answer of ProofsChecked, for the data_version of
// the book's digest connection it was computed at.
type proofsCache struct {
	version int64
	known   bool
	ok      bool
}

// ProofsChecked reports whether the book's proof rows are those the program
// wrote (the stored digest equals the rows' sum). When they are not,
// somebody changed them outside the program since the last Check: the
// book's read methods then show every stored proof as StatusUnchecked, and
// UncheckedNote says what to do. The answer is cached until another
// connection commits (SQLite's data_version), so that it costs one pass over
// the proof rows per change of the book.
func (bk *Book) ProofsChecked(ctx context.Context) (bool, error) {
	bk.dmu.Lock()
	defer bk.dmu.Unlock()
	conn, err := bk.dconn(ctx)
	if err != nil {
		return false, err
	}
	var dv int64
	if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&dv); err != nil {
		return false, err
	}
	if bk.dcache.known && bk.dcache.version == dv {
		return bk.dcache.ok, nil
	}
	ok, err := proofsMatch(ctx, conn)
	if err != nil {
		return false, err
	}
	bk.dcache = proofsCache{version: dv, known: true, ok: ok}
	return ok, nil
}

// dconn is the one connection ProofsChecked reads on (data_version is per
// connection); the caller holds dmu.
func (bk *Book) dconn(ctx context.Context) (*sql.Conn, error) {
	if bk.dc != nil {
		return bk.dc, nil
	}
	c, err := bk.r.Conn(ctx)
	if err != nil {
		return nil, err
	}
	bk.dc = c
	return c, nil
}

// proofsMatch compares the stored digest with the rows' in one read
// transaction (one snapshot).
func proofsMatch(ctx context.Context, conn *sql.Conn) (bool, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	stored, err := storedDigest(ctx, tx)
	if err != nil {
		return false, err
	}
	rows, err := rowsDigest(ctx, tx)
	if err != nil {
		return false, err
	}
	return stored.equal(rows), nil
}

// proofMask returns what the book's read methods apply to the proofs they
// return: nothing when the proofs are checked, else proved becomes
// unchecked.
func (bk *Book) proofMask(ctx context.Context) (func(*c6book.Proof), error) {
	ok, err := bk.ProofsChecked(ctx)
	if err != nil || ok {
		return func(*c6book.Proof) {}, err
	}
	return func(p *c6book.Proof) {
		if p.Status == c6book.StatusProved {
			p.Status = c6book.StatusUnchecked
		}
	}, nil
}
