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

// provedCounter counts the positions a run of the auto-pilot proves: the
// book's proved positions for the attacker now, less those at the start
// (a position proved before the run and still proved is not counted; one
// whose proof was withdrawn during the run takes one off).
type provedCounter struct {
	bk     *Book
	a      game.Color
	before int
}

func (bk *Book) newProvedCounter(ctx context.Context, a game.Color) (*provedCounter, error) {
	n, err := bk.ProvedCount(ctx, a)
	if err != nil {
		return nil, err
	}
	return &provedCounter{bk: bk, a: a, before: n}, nil
}

// since is the number of positions proved since the start (never below
// 0) and the book's count now.
func (c *provedCounter) since(ctx context.Context) (newly, now int, err error) {
	now, err = c.bk.ProvedCount(ctx, c.a)
	if err != nil {
		return 0, 0, err
	}
	return max(0, now-c.before), now, nil
}
