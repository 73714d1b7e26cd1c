package proofbook

import (
	"context"

	"c6book"
	"c6book/engine/game"
)

// ProvedCount is the number of positions the book holds proved for
// attacker a (every status row, checked or not: the count a run's "proved
// during the run" is the difference of). It reads the status_rank index.
func (bk *Book) ProvedCount(ctx context.Context, a game.Color) (int, error) {
	var n int
	err := bk.r.QueryRowContext(ctx, "SELECT count(*) FROM status WHERE attacker = ? AND status = ?",
		int(a), int(c6book.StatusProved)).Scan(&n)
	return n, err
}
