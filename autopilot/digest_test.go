package autopilot

import (
	"c6book/internal/booktest"
	"context"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// unconfirmedStore is a book whose target looks proved (a status flipped
// by hand) until ConfirmProof re-checks it, which finds it does not check
// and derives it again (no longer proved): what proofbook's
// TestConfirmProofRechecksStoredProof shows ConfirmProof does.
type unconfirmedStore struct {
	*proofbook.Book
	target    PosID
	confirmed int
}

func (s *unconfirmedStore) AutoNode(ctx context.Context, id PosID, a game.Color) (proofbook.AutoNode, error) {
	n, err := s.Book.AutoNode(ctx, id, a)
	if id == s.target && s.confirmed == 0 {
		n.Proof.Status = c6book.StatusProved
	}
	return n, err
}

func (s *unconfirmedStore) ConfirmProof(ctx context.Context, id PosID, a game.Color) (bool, error) {
	if id == s.target && s.confirmed == 0 {
		s.confirmed++
		return false, nil
	}
	return s.Book.ConfirmProof(ctx, id, a)
}

// prove re-checks a stored proof before it reports it: a position whose
// stored proof does not confirm is not reported proved at once; the
// auto-pilot works on it.
func TestProveWorksOnAnUnconfirmedProof(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1})
	id := booktest.Add(t, bk, "e5 d4f6")
	st := &unconfirmedStore{Book: bk, target: id}
	res, err := Prove(ctx, st, id, verify.LocalVerifier{}, smallProve(game.Black, 2, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.confirmed == 0 || res.Calls == 0 {
		t.Fatalf("prove reported %q with %d verifier calls (%d confirmations) on a proof that does not confirm", res.Status, res.Calls, st.confirmed)
	}
}

// A prove run's writes keep the digest of the proof rows: the book's
// proofs stay checked (no false alarm) and check passes.
func TestProveKeepsDigest(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1})
	id := booktest.Add(t, bk, "e5 d4f6")
	res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, smallProve(game.Black, 3, 30), nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := bk.CountStatus(ctx, game.Black, c6book.StatusProved, 0)
	if err != nil || n == 0 {
		t.Fatalf("prove (%s, %d calls) stored no proof: %d %v", res.Status, res.Calls, n, err)
	}
	if ok, err := bk.ProofsChecked(ctx); err != nil || !ok {
		t.Fatalf("after prove the book's proofs read as changed outside the program: %v %v", ok, err)
	}
	booktest.MustCheck(t, bk)
}

// prove's "added" counts the positions this run stored, not those another
// writer stored meanwhile.
func TestProveAddedIsItsOwn(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	id := booktest.Add(t, bk, "e5 d4f6")
	other, err := proofbook.Open(ctx, bk.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	countAll := func() int {
		st, err := bk.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(st.Positions)
	}
	// Another writer adds a line during every verifier call.
	theirs := 0
	hook := verifierFunc(func(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
		before := countAll()
		line := []game.Move{game.NewMove(game.Square(theirs%9), game.Square(9+theirs%9)), game.NewMove(game.Square(72+theirs%9), game.Square(63+theirs%9))}
		if theirs%9 == 0 {
			line = []game.Move{game.NewMove(game.Square(80 - theirs/9))}
		}
		if _, err := other.AddLine(ctx, line); err != nil {
			return verify.Verdict{}, err
		}
		theirs += countAll() - before
		return verify.Verify(ctx, b, opts, progress)
	})
	before := countAll()
	res, err := Prove(ctx, bk, id, hook, smallProve(game.Black, 2, 6), nil)
	if err != nil {
		t.Fatal(err)
	}
	if theirs == 0 || res.Calls == 0 {
		t.Fatalf("the other writer added %d positions over %d calls", theirs, res.Calls)
	}
	if mine := countAll() - before - theirs; res.Added != mine {
		t.Fatalf("prove says %d positions added; it added %d (the other writer %d)", res.Added, mine, theirs)
	}
}

type verifierFunc func(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error)

func (f verifierFunc) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	return f(ctx, b, opts, progress)
}
