package proofbook

import (
	"context"
	"math"
	"slices"
	"testing"

	"c6book/engine"
)

// The Wilson lower bound: known values, and 0 without games.
func TestWilsonLower(t *testing.T) {
	for _, c := range []struct {
		wins, n int64
		z, want float64
	}{
		{50, 100, 1.96, 0.4038},
		{9, 10, 1.96, 0.5958},
		{0, 0, 1.96, 0},
		{1, 1, 1.645, 0.2698},
	} {
		if got := WilsonLower(c.wins, c.n, c.z); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("WilsonLower(%d, %d, %v) = %.4f, want %.4f", c.wins, c.n, c.z, got, c.want)
		}
	}
}

// setGames gives position id game counts as an import would.
func setGames(t *testing.T, bk *Book, id PosID, bwins, wwins int64) {
	t.Helper()
	if _, err := bk.w.ExecContext(context.Background(), "UPDATE position SET games = ?, bwins = ?, wwins = ? WHERE id = ?",
		bwins+wwins, bwins, wwins, int64(id)); err != nil {
		t.Fatal(err)
	}
}

// Imported moves come before the engine's candidates only when the lower
// confidence bound of the attacker's win rate in their games reaches
// GameLCB: the order of an attacker-to-move position's moves is hand-made,
// imported and vouched for, the auto-pilot's by rank, the other imported;
// and the first position the auto-pilot verifies follows it.
func TestProveImportedMovesByLCB(t *testing.T) {
	ctx := context.Background()
	r := engine.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := newBook(t, r)
	root := add(t, bk, "")
	hand := add(t, bk, "b2")
	good := add(t, bk, "c3")
	poor := add(t, bk, "d4")
	setGames(t, bk, good, 30, 5)  // Black's bound ~0.73
	setGames(t, bk, poor, 10, 12) // ~0.28: played often, but not good for Black
	_, _, kids, err := bk.addAutoMoves(ctx, root, turns(t, r, "b4"))
	if err != nil || len(kids) != 1 || kids[0] == 0 {
		t.Fatalf("auto move: %v %v", kids, err)
	}
	auto := kids[0]
	opts := smallProve(engine.Black, 2, 1)
	opts.GameLCB, opts.GameZ = 0.5, 1.645
	tr := newBookTree(bk, &recordingVerifier{}, opts)
	got, err := tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []PosID{hand, good, auto, poor}; !slices.Equal(got, want) {
		t.Fatalf("children %v, want hand %d, good %d, auto %d, poor %d", got, hand, good, auto, poor)
	}
	// For White the same games vouch for neither: both after the
	// auto-pilot's move, the better bound (d4: 12 of 22) first.
	opts.Attacker = engine.White
	tr = newBookTree(bk, &recordingVerifier{}, opts)
	got, err = tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []PosID{hand, auto, poor, good}; !slices.Equal(got, want) {
		t.Fatalf("children for White %v, want hand %d, auto %d, then the imported %d, %d", got, hand, auto, poor, good)
	}

	// Without a hand-made move the first verified position is the
	// imported move the games vouch for, not the one played more often.
	bk = newBook(t, r)
	root = add(t, bk, "")
	poor = add(t, bk, "b2")
	good = add(t, bk, "c3")
	setGames(t, bk, poor, 40, 60)
	setGames(t, bk, good, 20, 2)
	rv := &recordingVerifier{}
	if _, err := bk.Prove(ctx, root, rv, smallProve(engine.Black, 2, 1), nil); err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 1 || rv.keys[0] != posKeyOf(t, bk, good) {
		t.Fatalf("first verified: %v, want the vouched-for import (%d)", rv.keys, good)
	}

	// When the games vouch for neither, the player's moves come first.
	bk = newBook(t, r)
	root = add(t, bk, "")
	p1 := add(t, bk, "b2")
	p2 := add(t, bk, "c3")
	setGames(t, bk, p1, 40, 60)
	setGames(t, bk, p2, 3, 3)
	rv = &recordingVerifier{}
	if _, err := bk.Prove(ctx, root, rv, smallProve(engine.Black, 2, 1), nil); err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 1 || rv.keys[0] == posKeyOf(t, bk, p1) || rv.keys[0] == posKeyOf(t, bk, p2) {
		t.Fatalf("first verified: %v, want one of the player's moves, not the imports %d, %d", rv.keys, p1, p2)
	}
}

// New positions start from the numbers the player's scores expect: the
// auto-pilot's moves at a position (the player's, in its order) lead to
// positions whose Look reports ExpectedNumbers of the move's score.
func TestProveEvalInit(t *testing.T) {
	ctx := context.Background()
	r := engine.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := newBook(t, r)
	root := add(t, bk, "b2 d4e6") // Black to move, no symmetry
	tr := newBookTree(bk, &recordingVerifier{}, ProveOptions{Attacker: engine.Black, Candidates: 6, MaxCandidates: 6,
		Verify: engine.VerifyOptions{Lambda: 2}})
	if n, err := tr.Expand(ctx, root); err != nil || n == 0 {
		t.Fatalf("expand: %d %v", n, err)
	}
	cands := tr.cands[root]
	kids, err := tr.orChildren(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(kids) != len(cands) || len(kids) < 2 {
		t.Fatalf("%d children for %d candidates", len(kids), len(cands))
	}
	for i, k := range kids {
		n, err := tr.Look(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if n.Work != engine.JobRun {
			t.Fatalf("child %d: work %v, want a verifier run", k, n.Work)
		}
		wpn, wdn := engine.ExpectedNumbers(cands[i].Score)
		if n.PN != wpn || n.DN != wdn {
			t.Fatalf("child %d (score %.2f): expects %d/%d, want %d/%d", k, cands[i].Score, n.PN, n.DN, wpn, wdn)
		}
	}
}
