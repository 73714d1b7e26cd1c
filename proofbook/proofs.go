package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"c6book/engine"
)

// ProofTarget is a named proof of the book: a position and the attacker
// who should win it. A book holds any number of them; their statuses are
// the statuses of their root positions.
type ProofTarget struct {
	ID       int64
	Name     string
	Root     PosID
	Attacker engine.Color
	Created  time.Time
	Proof    Proof // the root's current status for the attacker
}

// AddProof names a proof to work on: attacker wins position root. A
// position holds one proof per attacker.
func (bk *Book) AddProof(ctx context.Context, name string, root PosID, attacker engine.Color) (int64, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return 0, errors.New("a proof needs a name")
	}
	if attacker != engine.Black && attacker != engine.White {
		return 0, errors.New("attacker must be Black or White")
	}
	var id int64
	err := bk.write(ctx, func(tx *sql.Tx) error {
		if _, err := readInfo(ctx, tx, root); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "INSERT INTO proof(name, root, attacker, created_at) VALUES (?, ?, ?, ?)",
			name, int64(root), int(attacker), time.Now().Unix())
		if err != nil {
			return fmt.Errorf("proof %q: %w", name, err)
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// DeleteProof forgets a named proof (its positions stay).
func (bk *Book) DeleteProof(ctx context.Context, id int64) error {
	return bk.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM proof WHERE id = ?", id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("proof %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// Proofs lists the named proofs with their current statuses.
func (bk *Book) Proofs(ctx context.Context) ([]ProofTarget, error) {
	rows, err := bk.r.QueryContext(ctx, `
SELECT p.id, p.name, p.root, p.attacker, p.created_at, s.status, s.ord, s.how, s.expert, s.pn, s.dn, s.updated_at
FROM proof p LEFT JOIN status s ON s.pos = p.root AND s.attacker = p.attacker ORDER BY p.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProofTarget
	for rows.Next() {
		var pt ProofTarget
		var root, created int64
		var a int
		var np nullProof
		if err := rows.Scan(&pt.ID, &pt.Name, &root, &a, &created, &np.status, &np.ord, &np.how, &np.expert, &np.pn, &np.dn, &np.updated); err != nil {
			return nil, err
		}
		pt.Root, pt.Attacker, pt.Created = PosID(root), engine.Color(a), time.Unix(created, 0)
		pt.Proof = np.proof(pt.Attacker)
		out = append(out, pt)
	}
	return out, rows.Err()
}
