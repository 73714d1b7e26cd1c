package lambda3oracle

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/internal/booktest"
	"c6book/proofbook"
)

// The oracle is what the λ3 tests trust, so it must refuse a proof the book
// claims without a strategy behind it. A position whose status row is
// forged to "proved" (an SQL write past the store, which accepts no proof
// without a certificate proofcheck re-checked) is played out by the oracle
// and found not won: the position itself, one stone for the attacker on 7x7
// (k = 4), where no defender reply is answered; and the empty board above
// it, whose one move the book no longer reports proved (the proof digest
// sees the forged row and Children reads it unchecked), so the oracle
// finds no proved move there.
func TestOracleRefusesForgedProof(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1})
	forged := booktest.Add(t, bk, "d4")
	root, err := bk.Root(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := bk.Path()
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT OR REPLACE INTO status(pos, attacker, status, ord, pn, dn, updated_at)
		VALUES (?, ?, ?, 1, 0, ?, 0)`, forged, int(game.Black), int(c6book.StatusProved), int64(1)<<40); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bk, err = proofbook.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if got := ProvedPositions(t, bk, game.Black); !slices.Contains(got, forged) {
		t.Fatalf("the forged row is not read: proved %v, want %d among them", got, forged)
	}
	for _, id := range []proofbook.PosID{forged, root} {
		b, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		o := &oracle{bk: bk, a: game.Black, memo: map[string]bool{}}
		if err := o.wins(ctx, id, b, nil); !errors.Is(err, errOracle) {
			t.Errorf("position %d (forged proof below or at it): the oracle says %v, want %v", id, err, errOracle)
		} else {
			t.Logf("position %d: %v", id, err)
		}
	}
}
