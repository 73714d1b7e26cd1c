package session_test

import (
	"context"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/session"
	"c6book/session/sessiontest"
)

// Suggest with no candidate says why, from the engine's answer: a player
// that answers at once (a six) gives its move as the one candidate with how
// it found it; one that gives no move says so; Stop says it stopped; the
// candidate search that finds nothing says it found no threat.
func TestSuggestNoCandidateReasons(t *testing.T) {
	r := game.Connect6()
	six, _ := game.ParseMove(r, "a1a2")
	pl := &sessiontest.Player{Answer: &session.PlayAnswer{Move: six, Score: player.WinScore - 1, Reason: "six"}}
	f := newFixture(t, pl, true)
	f.play("j10", "k1k2")
	f.settle()
	f.s.Prover().Suggest()
	f.pumpUntil("the answer", func() bool { return !f.s.Prover().Suggesting() })
	cs, ok := f.s.Prover().Candidates()
	if !ok || len(cs) != 1 || cs[0].Move != six || !strings.HasPrefix(cs[0].Note, "makes six") {
		t.Fatalf("candidates %+v (ok %v)", cs, ok)
	}
	if why, ok := f.s.Prover().NoCandidates(); ok {
		t.Fatalf("a reason %q with a candidate", why)
	}
	pl.Answer = &session.PlayAnswer{}
	f.s.Prover().Suggest()
	f.pumpUntil("the answer", func() bool { return !f.s.Prover().Suggesting() })
	if why, ok := f.s.Prover().NoCandidates(); !ok || why != "no-move" {
		t.Fatalf("no move: %q %v", why, ok)
	}
	pl.Release = make(chan struct{})
	f.s.Prover().Suggest()
	f.s.Prover().Stop()
	f.pumpUntil("the stop", func() bool { return !f.s.Prover().Suggesting() })
	if why, ok := f.s.Prover().NoCandidates(); !ok || why != "cancelled" || why.Text() == "" {
		t.Fatalf("stopped: %q %v", why, ok)
	}
	f.noErrors()
}

// emptySuggester is a candidate search that finds nothing.
type emptySuggester struct{ sessiontest.Verifier }

func (emptySuggester) Candidates(context.Context, *board.Board, int) ([]session.Candidate, error) {
	return nil, nil
}

func TestSuggestNoThreat(t *testing.T) {
	f := newFixture(t, &emptySuggester{}, true)
	f.play("j10", "k1k2")
	f.settle()
	f.s.Prover().Suggest()
	f.pumpUntil("the answer", func() bool { return !f.s.Prover().Suggesting() })
	if why, ok := f.s.Prover().NoCandidates(); !ok || why != "no-threat" {
		t.Fatalf("%q %v", why, ok)
	}
	f.noErrors()
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 stored replies"}, {1, "1 stored reply"}, {2, "2 stored replies"}, {-1, "-1 stored reply"}} {
		if got := session.Plural(c.n, "stored reply", "stored replies"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
