package autopilot

import (
	"c6book/internal/booktest"
	"context"
	"errors"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// reuseSource proves P (Connect6: Black j10 k10 l10 j11 k11, White's six
// stones in the corners, Black to move) with the verifier and returns the
// book, P's id, its zone and the move that proved it (canonical frame).
func reuseSource(t *testing.T) (*proofbook.Book, PosID, []game.Square, game.Move) {
	t.Helper()
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	p := booktest.Add(t, bk, reuseP)
	kid := booktest.Add(t, bk, reuseP+" i10k12")
	vo := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	res, err := bk.Verify(ctx, kid, verify.LocalVerifier{}, vo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict.Status != c6book.StatusProved {
		t.Fatalf("P i10k12: %s; want proved", res.Verdict.Status)
	}
	pr := proofOf(t, bk, p, game.Black)
	if pr.Status != c6book.StatusProved || pr.Zone == nil {
		t.Fatalf("P: %s, zone %v; want proved with a zone", pr.Status, pr.Zone)
	}
	m, ok, err := bestAnswer(ctx, bk, p, game.Black)
	if err != nil || !ok {
		t.Fatalf("P's answer: %v %v", ok, err)
	}
	return bk, p, pr.Zone, m
}

const reuseP = "j10 a1s19 k10l10 a19s1 j11k11 b1b2"

// offerAndVerify adds line, asks reuseOffer for P's move there, and, when
// force is set and no offer came, takes P's move as it is in line's frame
// (i10k12); it verifies the move and reports whether the offer came and
// whether the position after the move is proved in the book (its verdict
// re-checked by proofcheck when stored).
func offerAndVerify(t *testing.T, bk *proofbook.Book, p PosID, z []game.Square, m game.Move, line string) (offered, proved bool) {
	t.Helper()
	ctx := context.Background()
	pb, err := bk.Board(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	id := booktest.Add(t, bk, line)
	nb, err := bk.Board(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	mm, offered := reuseOffer(pb, z, m, nb, game.Black)
	var kid PosID
	if offered {
		_, _, kids, err := bk.AddAutoMoves(ctx, id, []game.Move{mm}, nil) // nb's frame is id's canonical one
		if err != nil {
			t.Fatal(err)
		}
		kid = kids[0]
	} else {
		kid = booktest.Add(t, bk, line+" i10k12")
	}
	if kid == 0 {
		t.Fatalf("%s: the offered move %s is stored already", line, game.MoveName(bk.Rules(), mm))
	}
	vo := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	if _, err := bk.Verify(ctx, kid, verify.LocalVerifier{}, vo, nil); err != nil {
		var se *proofbook.StoreError
		if !errors.As(err, &se) {
			t.Fatal(err)
		}
	}
	return offered, proofOf(t, bk, kid, game.Black).Status == c6book.StatusProved
}

// Zone reuse is a proposal: P's move is offered where the zone says it
// should win, and counts only when the verifier proves it there (stored
// through StoreVerdict, re-checked by proofcheck). Two positions that
// agree with P on its zone: one with a far defender stone that meets no
// window of the fight (offered, and proved), one whose extra defender
// stones outside the zone make a four on the a file, a defender threat P
// lacked that comes first (not offered; P's move played there anyway is
// not proved: White wins first). A third moves P's fight one line
// (translation): offered and proved. The test fails if a wrong reuse is
// offered or proved, or a right one is not offered.
func TestZoneReuseProposal(t *testing.T) {
	bk, p, z, m := reuseSource(t)
	// Far and quiet: one more stone each (White's stays out of every
	// window meeting the zone).
	if off, pr := offerAndVerify(t, bk, p, z, m, reuseP+" s10s12 a10c19"); !off || !pr {
		t.Errorf("quiet extra stones: offered %v, proved %v; want both", off, pr)
	}
	// P's fight one line up and one to the right (the corners stay).
	if off, pr := offerAndVerify(t, bk, p, z, m, "k11 a1s19 l11m11 a19s1 k12l12 b1b2"); !off || !pr {
		t.Errorf("translated: offered %v, proved %v; want both", off, pr)
	}
	// A White four outside the zone on the a file.
	if off, pr := offerAndVerify(t, bk, p, z, m, reuseP+" s10s12 a5a6 q14o16 a7a8"); off || pr {
		t.Errorf("White four outside the zone: offered %v, proved %v; want neither", off, pr)
	}
}
