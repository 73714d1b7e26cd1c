package autopilot

import (
	"c6book/engine/game"
	"c6book/internal/booktest"
	"context"
	"testing"

	"c6book"
)

// p2Line is proofbook's status tests' line (status_test.go): before its
// last turn Black (to move) has three in a row on rows 4 and 7 and two on
// row 10; White's stones on row 19 make no threat.
const p2Line = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19"

// Stuck says why the auto-pilot cannot work at a position: not stuck, a
// dead end (a verdict that leaves every defender move open), held.
func TestStuckReasons(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	B := game.Black
	booktest.Add(t, bk, p2Line)
	A2 := booktest.Add(t, bk, p2Line+" h8h9")
	want := func(what string, w c6book.StuckReason) {
		t.Helper()
		if got, err := Stuck(ctx, bk, A2, B); err != nil || got != w {
			t.Fatalf("%s: stuck %q (%v), want %q", what, got, err, w)
		}
	}
	want("unverified", c6book.NotStuck)
	if _, err := bk.StoreVerdict(ctx, A2, c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Lambda: 2, AllUnsolved: true, Engine: "test"}); err != nil {
		t.Fatal(err)
	}
	booktest.MustCheck(t, bk)
	want("every defender move open", c6book.StuckDeadEnd)
	if got, err := Stuck(ctx, bk, A2, game.White); err != nil || got != c6book.NotStuck {
		t.Fatalf("the other attacker: stuck %q (%v)", got, err)
	}
	if err := bk.SetHold(ctx, A2, B, true); err != nil {
		t.Fatal(err)
	}
	want("held", c6book.StuckHeld)
}
