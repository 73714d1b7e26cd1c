package proofbook

import (
	"c6book/engine/game"
	"context"
	"testing"

	"c6book"
)

// The auto-pilot's store reads back what it wrote: its moves with their
// rank and score (a hand-made move is not its), the moves into a
// position with the side that played them, the exhausted count (the
// larger one kept), the hold, and a defender-to-move position's verdict
// (for the attacker whose verdict it is; none for the side to move).
func TestAutoStore(t *testing.T) {
	ctx := context.Background()
	B, W := game.Black, game.White
	bk := newBook(t, game.Connect6())
	hand := add(t, bk, p2Line+" h8h9")
	P := add(t, bk, p2Line)
	ms := []game.Move{canonicalMove(t, bk, p2Line, "e10f10"), canonicalMove(t, bk, p2Line, "a1b1")}
	added, positions, kids, err := bk.AddAutoMoves(ctx, P, ms, []float64{0.5})
	if err != nil || added != 2 || positions != 2 || len(kids) != 2 || kids[0] == 0 || kids[1] == 0 {
		t.Fatalf("AddAutoMoves: %d moves, %d positions, kids %v, %v", added, positions, kids, err)
	}
	if added, _, again, err := bk.AddAutoMoves(ctx, P, ms[:1], nil); err != nil || added != 0 || again[0] != 0 {
		t.Fatalf("AddAutoMoves of a stored move: %d added, kids %v, %v", added, again, err)
	}
	moves, err := bk.AutoMoves(ctx, P, B)
	if err != nil || len(moves) != 3 {
		t.Fatalf("AutoMoves: %d moves, %v; want 3", len(moves), err)
	}
	byChild := map[PosID]AutoEdge{}
	for _, e := range moves {
		byChild[e.Child] = e
		if e.Parent != P {
			t.Fatalf("AutoMoves: parent %d, want %d", e.Parent, P)
		}
	}
	if e := byChild[hand]; e.Auto || e.Scored {
		t.Fatalf("the hand-made move reads as the auto-pilot's: %+v", e)
	}
	if e := byChild[kids[0]]; !e.Auto || e.Rank != 0 || !e.Scored || e.Score != 0.5 {
		t.Fatalf("the first auto move: %+v, want rank 0, score 0.5", e)
	}
	if e := byChild[kids[1]]; !e.Auto || e.Rank != 1 || e.Scored {
		t.Fatalf("the second auto move: %+v, want rank 1 and no score", e)
	}
	up, err := bk.AutoParents(ctx, kids[0])
	if err != nil || len(up) != 1 || up[0].Parent != P || up[0].ParentToMove != B || !up[0].Auto || up[0].Score != 0.5 {
		t.Fatalf("AutoParents: %+v, %v", up, err)
	}

	if err := bk.SetExhausted(ctx, P, 8); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetExhausted(ctx, P, 4); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetHold(ctx, P, B, true); err != nil {
		t.Fatal(err)
	}
	n, err := bk.AutoNode(ctx, P, B)
	if err != nil || n.ToMove != B || n.Winner != game.Empty || !n.Held || n.Exhausted != 8 || n.Verdict != nil {
		t.Fatalf("AutoNode of the attacker's position: %+v, %v", n, err)
	}
	if n, err := bk.AutoNode(ctx, P, W); err != nil || n.Held {
		t.Fatalf("held for White: %+v, %v", n, err)
	}

	store(t, bk, hand, c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Lambda: 2, AllUnsolved: true, Engine: "test"})
	n, err = bk.AutoNode(ctx, hand, B)
	if err != nil || n.ToMove != W || n.Verdict == nil || n.Verdict.Attacker != B || !n.Verdict.AllUnsolved || n.HasCert {
		t.Fatalf("AutoNode of the defender's position: %+v, %v", n, err)
	}
	if n, err := bk.AutoNode(ctx, hand, W); err != nil || n.Verdict != nil {
		t.Fatalf("AutoNode for the side to move reads a verdict: %+v, %v", n, err)
	}
	if _, err := bk.AutoNode(ctx, 1<<40, B); err == nil {
		t.Fatal("AutoNode of a position not in the book: no error")
	}
}
