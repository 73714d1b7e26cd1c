package board

import (
	"testing"

	"c6book/engine/game"
)

// SetUpLike sets up the same board as SetUp (sharing the geometry of the
// board it is given), and refuses what SetUp refuses.
func TestSetUpLikeMatchesSetUp(t *testing.T) {
	r := game.Connect6()
	like, err := NewBoard(r)
	if err != nil {
		t.Fatal(err)
	}
	b0, err := ReplayText(r, "j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15")
	if err != nil {
		t.Fatal(err)
	}
	black, white := b0.StoneList(game.Black), b0.StoneList(game.White)
	want, err := SetUp(r, black, white, game.White)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SetUpLike(like, black, white, game.White)
	if err != nil {
		t.Fatal(err)
	}
	k1, s1 := want.CanonicalKey()
	k2, s2 := got.CanonicalKey()
	if k1 != k2 || s1 != s2 || got.ToMove() != game.White || got.Winner() != want.Winner() || got.Hash() != want.Hash() {
		t.Fatalf("SetUpLike differs from SetUp: key %x/%x sym %d/%d", k1, k2, s1, s2)
	}
	// It plays on as a set-up board: a full turn of two stones.
	m, _ := game.ParseMove(r, "k5k6")
	if err := got.Play(m); err != nil {
		t.Fatal(err)
	}
	if like.Empties() != r.Squares() {
		t.Fatal("SetUpLike changed the board it was given")
	}
	if _, err := SetUpLike(like, []game.Square{3}, []game.Square{3}, game.Black); err == nil {
		t.Fatal("an occupied square was set up")
	}
	if _, err := SetUpLike(like, nil, nil, game.Empty); err == nil {
		t.Fatal("no side to move was set up")
	}
}
