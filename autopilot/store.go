package autopilot

import (
	"context"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// Store is the book as the auto-pilot reads and writes it:
// *proofbook.Book implements it. Each method persists or reads, and
// decides nothing; the auto-pilot's policy is all in this package.
type Store interface {
	// CheckWritable fails when the book cannot be written (read-only,
	// damaged): Prove asks before any verifier call.
	CheckWritable(ctx context.Context) error
	// Board is a stored position's board in its canonical frame.
	Board(ctx context.Context, id PosID) (*board.Board, error)
	// AutoNode is what the book stores about a position for attacker a:
	// side to move, winner, stored status, held, exhausted candidates,
	// and the verdict (without its certificate) of a defender-to-move one.
	AutoNode(ctx context.Context, id PosID, a game.Color) (proofbook.AutoNode, error)
	// AutoMoves are a position's stored moves (stored move order), with
	// the auto-pilot's rank and score, the games and a's status of each
	// child; AutoParents the stored moves into a position.
	AutoMoves(ctx context.Context, id PosID, a game.Color) ([]proofbook.AutoEdge, error)
	AutoParents(ctx context.Context, id PosID) ([]proofbook.AutoEdge, error)
	// Locate finds the stored position of board b (any frame; sym maps b's
	// moves into its canonical frame), or proofbook.ErrNotFound.
	Locate(ctx context.Context, b *board.Board) (id PosID, sym int, err error)
	// OpenItems are the items of a verdict that counts that are not
	// proved.
	OpenItems(ctx context.Context, id PosID, a game.Color, b *board.Board, v *c6book.Verdict) ([]proofbook.Item, error)
	// CountStatus counts the positions with status st for a (proved: of
	// order minOrder or more); ConfirmProof re-checks a stored proof from
	// its certificates (proofcheck), deriving its rows again when they do
	// not check.
	CountStatus(ctx context.Context, a game.Color, st c6book.Status, minOrder int) (int64, error)
	ConfirmProof(ctx context.Context, id PosID, a game.Color) (bool, error)
	// AddAutoMoves stores attacker moves as the auto-pilot's (with the
	// player's scores), SetExhausted that a position has no further
	// candidates among the first cands.
	AddAutoMoves(ctx context.Context, id PosID, moves []game.Move, scores []float64) (added, positions int, kids []PosID, err error)
	SetExhausted(ctx context.Context, id PosID, cands int) error
	// Verify runs the verifier on a position and stores its verdict
	// through StoreVerdict (re-checked by proofcheck); a store's refusal
	// or failure is a *proofbook.StoreError.
	Verify(ctx context.Context, id PosID, ver verify.Verifier, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (proofbook.Verified, error)
}

var _ Store = (*proofbook.Book)(nil)

// Stuck says why the auto-pilot cannot work at position id for attacker
// a: c6book.StuckHeld (left to the expert), c6book.StuckDeadEnd (its
// verdict leaves every defender move open: no zone bounds the defence),
// or c6book.NotStuck (it can).
func Stuck(ctx context.Context, bk Store, id PosID, a game.Color) (c6book.StuckReason, error) {
	n, err := bk.AutoNode(ctx, id, a)
	switch {
	case err != nil:
		return c6book.NotStuck, err
	case n.Held:
		return c6book.StuckHeld, nil
	}
	if v := n.Verdict; v != nil && v.Attacker == a && v.AllUnsolved && v.Status != c6book.StatusProved {
		return c6book.StuckDeadEnd, nil
	}
	return c6book.NotStuck, nil
}

// provedCounter counts the positions a run of the auto-pilot proves: the
// book's proved positions for the attacker now, less those at the start
// (a position proved before the run and still proved is not counted; one
// whose proof was withdrawn during the run takes one off).
type provedCounter struct {
	bk     Store
	a      game.Color
	before int
}

func newProvedCounter(ctx context.Context, bk Store, a game.Color) (*provedCounter, error) {
	c := &provedCounter{bk: bk, a: a}
	var err error
	c.before, err = c.count(ctx)
	return c, err
}

// count is the book's positions proved for the attacker (every status
// row, checked or not, game ends too).
func (c *provedCounter) count(ctx context.Context) (int, error) {
	n, err := c.bk.CountStatus(ctx, c.a, c6book.StatusProved, 0)
	return int(n), err
}

// since is the number of positions proved since the start (never below
// 0) and the book's count now.
func (c *provedCounter) since(ctx context.Context) (newly, now int, err error) {
	now, err = c.count(ctx)
	if err != nil {
		return 0, 0, err
	}
	return max(0, now-c.before), now, nil
}
