package autopilot

// Test helpers: proofbook's own test helpers (book_test.go, status_test.go),
// over the book's exported API: the auto-pilot's tests reach the book as
// any caller does. The brute-force λ3 oracle and the moves the λ3 tests
// play are shared with proofbook's tests: internal/lambda3oracle,
// internal/lambda3moves.

import (
	"context"
	"fmt"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/proofbook"
)

func rootOf(t testing.TB, bk *proofbook.Book) PosID {
	t.Helper()
	id, err := bk.Root(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func proofOf(t *testing.T, bk *proofbook.Book, id PosID, a game.Color) c6book.Proof {
	t.Helper()
	p, err := bk.Position(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Proof(a)
}

// autoMoveTo reports whether the stored move from position id to child
// was proposed by the auto-pilot (not made by hand).
func autoMoveTo(ctx context.Context, bk *proofbook.Book, id, child PosID) (bool, error) {
	moves, err := bk.AutoMoves(ctx, id, game.Black)
	if err != nil {
		return false, err
	}
	for _, e := range moves {
		if e.Child == child {
			return e.Auto, nil
		}
	}
	return false, fmt.Errorf("no stored move from %d to %d", id, child)
}
