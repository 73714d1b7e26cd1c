package proofbook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/verify"
)

func marshalVerdict(v c6book.Verdict) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func unmarshalVerdict(data string) (c6book.Verdict, error) {
	var v c6book.Verdict
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return c6book.Verdict{}, fmt.Errorf("stored verdict: %w", err)
	}
	return v, nil
}

// Stored is what StoreVerdict added to the book.
type Stored struct {
	// Replies are the defender moves (the position's canonical frame, as
	// stored) the verdict's items added as new moves of the position.
	Replies []game.Move
	// Positions counts the positions the store added (items, and the
	// moves of closed seminull items).
	Positions int
	// Before and After are the position's status for the verdict's
	// attacker before and after the store.
	Before, After c6book.Status

	// What UndoVerdict needs: the verdict row the store wrote (its digest
	// hash) and the one it replaced, as stored (nil: none).
	row  uint64
	prev *verdictRow
}

// verdictRow is a verdict row as stored, written back as it was by
// UndoVerdict (it was checked when it was first stored).
type verdictRow struct {
	attacker     int
	status       any // c6book.Status as written (an integer the TEXT column keeps as text), or the text read
	ord          int
	engine, data string
	created      int64
	cert         []byte
}

// readVerdictRow reads position id's verdict row (nil: none).
func readVerdictRow(ctx context.Context, tx *sql.Tx, id PosID) (*verdictRow, error) {
	var r verdictRow
	var status string
	err := tx.QueryRowContext(ctx, "SELECT attacker, status, ord, engine, data, created_at, cert FROM verdict WHERE pos = ?", int64(id)).
		Scan(&r.attacker, &status, &r.ord, &r.engine, &r.data, &r.created, &r.cert)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.status = status
	return &r, nil
}

// writeVerdictRow stores r as position id's verdict (replacing any).
func writeVerdictRow(ctx context.Context, tx *sql.Tx, id PosID, r verdictRow) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO verdict(pos, attacker, status, ord, engine, data, created_at, cert) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(pos) DO UPDATE SET attacker = excluded.attacker, status = excluded.status, ord = excluded.ord,
  engine = excluded.engine, data = excluded.data, created_at = excluded.created_at, cert = excluded.cert`,
		int64(id), r.attacker, r.status, r.ord, r.engine, r.data, r.created, r.cert)
	return err
}

// UndoVerdict takes back what StoreVerdict stored on position id (st, its
// answer): the verdict it replaced is stored again as it was (none: the
// position has no verdict), the replies it added are removed, with the
// positions only they reached (as RemoveMove does), and the statuses are
// propagated; moves stored before (games, other lines, the items of the
// verdict put back) stay. One transaction: when the position's verdict is
// no longer the one StoreVerdict stored (another was stored since), it
// returns c6book.ErrVerdictChanged and nothing changes.
func (bk *Book) UndoVerdict(ctx context.Context, id PosID, st Stored) error {
	if st.row == 0 {
		return errors.New("undo verdict: not a stored verdict")
	}
	return bk.write(ctx, func(tx *sql.Tx) error {
		now, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return err
		}
		if len(now) != 1 || now[0] != st.row {
			return fmt.Errorf("position %d: %w", id, c6book.ErrVerdictChanged)
		}
		if st.prev != nil {
			err = writeVerdictRow(ctx, tx, id, *st.prev)
		} else {
			_, err = tx.ExecContext(ctx, "DELETE FROM verdict WHERE pos = ?", int64(id))
		}
		if err != nil {
			return err
		}
		back, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return err
		}
		if err := bumpDigest(ctx, tx, now, back); err != nil {
			return err
		}
		if _, err := bk.removeEdges(ctx, tx, id, st.Replies); err != nil {
			return err
		}
		return propagate(ctx, bk, tx, []PosID{id})
	})
}

// Verified is what Book.Verify did: the verdict it stored (the position's
// canonical frame) and what storing it added.
type Verified struct {
	Verdict c6book.Verdict
	Stored
}

// StoreError is Book.Verify's error when the verifier answered but the
// book did not store its verdict: refused (its certificate does not check,
// it forgets a defender move…), or the store failed (busy, read-only,
// cancelled). Err says which.
type StoreError struct {
	ID  PosID
	Err error
}

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// Verify is the one "verify a book position" path (the CLI's `book
// verify`, the auto-pilot, the workbench): it runs ver (nil:
// verify.LocalVerifier) on position id in its canonical frame, with the
// defender to move, at the position's defender stone deficit
// (c6book.VerifyBoard; opts.Tolerance is set there), and stores the
// verdict with StoreVerdict, which re-checks its certificate. An error
// from the store is a *StoreError.
func (bk *Book) Verify(ctx context.Context, id PosID, ver verify.Verifier, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (Verified, error) {
	cb, err := bk.Board(ctx, id)
	if err != nil {
		return Verified{}, err
	}
	_, csym := cb.CanonicalKey()
	v, err := c6book.VerifyBoard(ctx, cb, ver, csym, opts, progress)
	if err != nil {
		return Verified{}, err
	}
	st, err := bk.StoreVerdict(ctx, id, v)
	if err != nil {
		return Verified{Verdict: v}, &StoreError{ID: id, Err: err}
	}
	return Verified{Verdict: v, Stored: st}, nil
}
