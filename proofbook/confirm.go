package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// maxConfirmRounds bounds the rounds of confirmProof: each round that does
// not confirm the proof changes the stored proof rows or gives up.
const maxConfirmRounds = 64

// confirmProof re-checks the stored proof of position id for attacker a
// from its certificates with proofcheck, before Prove reports it proved.
// When it does not check (its rows were changed outside the program),
// the proof's rows are derived again: every verdict below it that
// StoreVerdict would refuse is deleted, and the statuses of the positions
// the proof rests on are recomputed from the stored moves and verdicts.
// It returns true when the proof checks, false when the position is no
// longer proved (the auto-pilot then works on it like any open one), and
// an error when it is still claimed proved but does not check.
func (bk *Book) confirmProof(ctx context.Context, id PosID, a game.Color) (bool, error) {
	for round := 0; round < maxConfirmRounds; round++ {
		p, _, err := readProof(ctx, bk.r, bk.rules, id, a)
		if err != nil {
			return false, err
		}
		if p.Status != c6book.StatusProved {
			return false, nil
		}
		_, err = proofcheck.CheckBook(ctx, &checkSource{bk: bk, checked: &bk.checked}, []proofcheck.Root{{ID: int64(id), Attacker: a}}, nil)
		var f *proofcheck.Failure
		switch {
		case err == nil:
			return true, nil
		case !errors.As(err, &f):
			return false, err
		}
		changed, err := bk.rederiveProof(ctx, id, a)
		if err != nil {
			return false, err
		}
		if !changed {
			return false, fmt.Errorf("the stored proof does not check (%v) and deriving it again changes nothing: run check", f)
		}
	}
	return false, fmt.Errorf("position %d: the stored proof still does not check after %d rounds: run check", id, maxConfirmRounds)
}

// rederiveProof derives again, in one transaction, the rows the proof of
// position id for attacker a rests on: the positions reachable from it
// through positions stored as proved for a. A verdict for a among them
// that StoreVerdict would refuse is deleted; then their statuses are
// recomputed and propagated. changed reports whether a proof row changed.
func (bk *Book) rederiveProof(ctx context.Context, id PosID, a game.Color) (changed bool, err error) {
	err = bk.write(ctx, func(tx *sql.Tx) error {
		before, err := storedDigest(ctx, tx)
		if err != nil {
			return err
		}
		seen := map[PosID]bool{id: true}
		queue := []PosID{id}
		for len(queue) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			cur := queue[0]
			queue = queue[1:]
			if err := bk.dropBadVerdict(ctx, tx, cur, a); err != nil {
				return err
			}
			rows, err := tx.QueryContext(ctx, `SELECT e.child FROM edge e JOIN status s ON s.pos = e.child AND s.attacker = ? AND s.status = ?
WHERE e.parent = ?`, int(a), int(c6book.StatusProved), int64(cur))
			if err != nil {
				return err
			}
			for rows.Next() {
				var c int64
				if err := rows.Scan(&c); err != nil {
					rows.Close()
					return err
				}
				if !seen[PosID(c)] {
					seen[PosID(c)] = true
					queue = append(queue, PosID(c))
				}
			}
			if err := rows.Close(); err != nil {
				return err
			}
		}
		start := make([]PosID, 0, len(seen))
		for p := range seen {
			start = append(start, p)
		}
		if err := propagate(ctx, bk, tx, start); err != nil {
			return err
		}
		after, err := storedDigest(ctx, tx)
		changed = !after.equal(before)
		return err
	})
	return changed, err
}

// dropBadVerdict deletes position id's verdict for attacker a when
// StoreVerdict would refuse it (its certificate does not check, or it
// forgets a defender move), keeping the proof digest.
func (bk *Book) dropBadVerdict(ctx context.Context, tx *sql.Tx, id PosID, a game.Color) error {
	var va int
	var hasCert bool
	err := tx.QueryRowContext(ctx, "SELECT attacker, cert IS NOT NULL FROM verdict WHERE pos = ?", int64(id)).Scan(&va, &hasCert)
	if errors.Is(err, sql.ErrNoRows) || err == nil && (game.Color(va) != a || !hasCert) {
		return nil // none, the other attacker's, or one that proves nothing
	}
	if err != nil {
		return err
	}
	list, tm, err := loadPos(ctx, tx, bk.rules, id)
	if err != nil {
		return err
	}
	bad := tm != a.Opp()
	if v, err := loadVerdict(ctx, tx, id); err != nil || v.Attacker != a || v.Cert == nil {
		bad = true // unreadable, or its data disagrees with its columns
	} else if !bad {
		_, err := bk.checkCert(ctx, list, tm, v)
		bad = err != nil
	}
	if bad {
		removed, err := oldVerdictHash(ctx, tx, int64(id))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM verdict WHERE pos = ?", int64(id)); err != nil {
			return err
		}
		return bumpDigest(ctx, tx, removed, nil)
	}
	return nil
}
