package proofbook

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// A schema-8 book stored the run's λ as a proof's order and 0 as an open
// verdict's; the upgrade to schema 9 raises each certified verdict's order
// to what its certificate supports and derives every proof's order again,
// keeping the proof digest (the book stays checked), and Check agrees.
func TestMigrationToTrueOrders(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	path := filepath.Join(t.TempDir(), "o.c6book")
	bk, err := Create(ctx, path, r)
	if err != nil {
		t.Fatal(err)
	}
	const line = "e5 a1a2 e4d4" // a quiet move: the null move is refuted by a VCDT (order 2)
	ms := turns(t, r, line)
	b, err := board.Replay(r, ms)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddLine(ctx, ms)
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := b.Canonical()
	v, err := verify.Verify(ctx, cb, verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}, nil)
	if err != nil || v.Status != verify.StatusProved || v.Order != 2 {
		t.Fatalf("verify: %s order %d %v", v.Status, v.Order, err)
	}
	id := l.IDs[len(l.IDs)-1]
	if _, err := bk.StoreVerdict(ctx, id, c6book.FromEngine(r, 0, v, 3)); err != nil {
		t.Fatal(err)
	}
	parent := l.IDs[len(l.IDs)-2]
	for _, p := range []PosID{id, parent} {
		if pr := proofOf(t, bk, p, game.Black); pr.Status != c6book.StatusProved || pr.Order != 2 {
			t.Fatalf("position %d: %+v, want proved at order 2", p, pr)
		}
	}
	// A verdict claiming less than its certificate supports is refused.
	low := c6book.FromEngine(r, 0, v, 3)
	low.Order = 1
	if _, err := bk.StoreVerdict(ctx, id, low); err == nil || !strings.Contains(err.Error(), "claimed order 1") {
		t.Fatalf("a verdict claiming order 1 was stored: %v", err)
	}
	bk.Close()

	// Back to schema 8, as that build wrote it: the verdict's order 0
	// (an older engine), the proofs' orders the run's λ (3).
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var data string
	if err := tx.QueryRowContext(ctx, "SELECT data FROM verdict WHERE pos = ?", int64(id)).Scan(&data); err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(data, `"order":2`, `"order":0`, 1)
	if old == data {
		t.Fatalf("no order in the stored verdict: %s", data)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"UPDATE verdict SET ord = 0, data = ? WHERE pos = ?", []any{old, int64(id)}},
		{"UPDATE status SET ord = 3 WHERE status = ? AND how <> 'win'", []any{int(c6book.StatusProved)}},
		{"DROP INDEX verdict_order", nil},
		// Version 10's tables, which the upgrade adds again.
		{"ALTER TABLE autopilot_move DROP COLUMN score", nil},
		{"DROP TABLE autopilot_exhausted", nil},
		// Version 11's.
		{"DROP TABLE twin", nil},
		{"PRAGMA user_version = 8", nil},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if err := recordDigest(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	db.Close()

	bk, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if !strings.Contains(bk.UpgradeNote(), "1 verdicts' orders raised") {
		t.Fatalf("upgrade note: %q", bk.UpgradeNote())
	}
	p, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Verdict == nil || p.Verdict.Order != 2 {
		t.Fatalf("upgraded verdict: %+v", p.Verdict)
	}
	for _, q := range []PosID{id, parent} {
		if pr := proofOf(t, bk, q, game.Black); pr.Status != c6book.StatusProved || pr.Order != 2 {
			t.Fatalf("position %d after the upgrade: %+v, want proved at order 2", q, pr)
		}
	}
	if ok, err := bk.ProofsChecked(ctx); err != nil || !ok {
		t.Fatalf("proofs checked after the upgrade: %v %v", ok, err)
	}
	mustCheck(t, bk)
}
