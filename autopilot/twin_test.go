package autopilot

import (
	"context"
	"errors"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/booktest"
	"c6book/proofbook"
)

// playPartial stores the turns of line (null and seminull moves allowed)
// from the empty board and returns the last position and its board in
// line's frame.
func playPartial(t *testing.T, bk *proofbook.Book, line string) (PosID, *board.Board) {
	t.Helper()
	turns, err := game.ParseTurns(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddProofLine(context.Background(), turns)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	b, err := board.ReplayPartial(bk.Rules(), turns)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return l.IDs[len(l.IDs)-1], b
}

// canonical is move m of board b (any frame) in the canonical frame of
// b's stored position.
func canonical(t *testing.T, bk *proofbook.Book, b *board.Board, m game.Move) game.Move {
	t.Helper()
	_, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return proofbook.ToCanonical(bk.Rules(), sym, m)
}

// A twin is the position less one defender stone. Q, two turns below
// White's seminull move b1 (Black j10 k10 l10 j11 k11 to move), is proved
// in the book by i10k12, verified at tolerance 1; P is Q with White's b2
// as well (the full move b1b2), reached by its own line, whose parent has
// no other reply: neither a sibling nor a zone-mate offers anything there.
// The twin move must be offered at P (in P's canonical frame, whatever the
// frames of the two lines), first among the first moves, proved there by
// the verifier (proofcheck re-checking the certificate), and not offered
// with NoTwins. Two positions must get nothing: one whose twin's move
// lands on its extra stone, one whose twins are stored but not proved.
func TestTwinMoves(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	r := bk.Rules()
	vo := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	m := booktest.Turns(t, r, "i10k12")[0]

	q, qb := playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 b1 q3q4 b19s18")
	_, _, kids, err := bk.AddAutoMoves(ctx, q, []game.Move{canonical(t, bk, qb, m)}, nil)
	if err != nil || len(kids) != 1 || kids[0] == 0 {
		t.Fatalf("Q i10k12: %v %v", kids, err)
	}
	if _, err := bk.Verify(ctx, kids[0], verify.LocalVerifier{}, vo, nil); err != nil {
		t.Fatal(err)
	}
	if pr := proofOf(t, bk, q, game.Black); pr.Status != c6book.StatusProved {
		t.Fatalf("Q: %s; want proved", pr.Status)
	}

	p, pb := playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 b1b2 q3q4 b19s18")
	cb, err := bk.Board(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	want := canonical(t, bk, pb, m)
	got, err := twinMoves(ctx, bk, cb, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, want) {
		t.Fatalf("twin moves at P: %v; want %s among them", got, game.MoveName(r, want))
	}
	tree := newBookTree(bk, verify.LocalVerifier{}, ProveOptions{Attacker: game.Black}.withDefaults())
	first, err := tree.firstMoves(ctx, p, cb)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || first[0] != want {
		t.Errorf("first moves at P: %v; want %s first", first, game.MoveName(r, want))
	}
	tree = newBookTree(bk, verify.LocalVerifier{}, ProveOptions{Attacker: game.Black, NoTwins: true}.withDefaults())
	if first, err := tree.firstMoves(ctx, p, cb); err != nil || slices.Contains(first, want) {
		t.Errorf("first moves at P with NoTwins: %v %v; want no %s", first, err, game.MoveName(r, want))
	}
	_, _, kids, err = bk.AddAutoMoves(ctx, p, []game.Move{want}, nil)
	if err != nil || len(kids) != 1 || kids[0] == 0 {
		t.Fatalf("P's twin move: %v %v", kids, err)
	}
	if _, err := bk.Verify(ctx, kids[0], verify.LocalVerifier{}, vo, nil); err != nil {
		var se *proofbook.StoreError
		if !errors.As(err, &se) {
			t.Fatal(err)
		}
	}
	if pr := proofOf(t, bk, p, game.Black); pr.Status != c6book.StatusProved {
		t.Errorf("P after its twin move: %s; want proved", pr.Status)
	}

	// White's extra stone on the twin's move: nothing legal to offer.
	_, xb := playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 b1i10 q3q4 b19s18")
	if got, err := twinMoves(ctx, bk, xb, game.Black); err != nil || len(got) != 0 {
		t.Errorf("twin moves with White on i10: %v %v; want none", got, err)
	}
	// Twins stored but not proved (c3 and d4 are seminull positions no
	// verifier has seen).
	playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 c3 q3q4 b19s18")
	playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 d4 q3q4 b19s18")
	_, ub := playPartial(t, bk, "j10 a1s19 k10l10 a19s1 j11k11 c3d4 q3q4 b19s18")
	if got, err := twinMoves(ctx, bk, ub, game.Black); err != nil || len(got) != 0 {
		t.Errorf("twin moves with unproved twins: %v %v; want none", got, err)
	}
}
