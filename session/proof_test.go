package session_test

import (
	"context"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
	"c6book/session"
	"c6book/session/sessiontest"
)

// realVerifier is the engine's verifier at a node budget (deterministic).
type realVerifier struct{}

func (realVerifier) Verify(ctx context.Context, b *board.Board, lambda int, _ func(session.Progress)) (c6book.Verdict, error) {
	opts := verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	return c6book.VerifyBoard(ctx, b, nil, 0, opts, nil)
}

func smallFixture(t *testing.T) *fixture {
	t.Helper()
	r, err := game.ParseRules("9,9,5,2,1")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, store: sessiontest.NewStore(r), queue: make(chan func(), 10000)}
	s, err := session.New(f.store, realVerifier{}, session.Config{Do: func(fn func()) { f.queue <- fn }, Inline: true})
	if err != nil {
		t.Fatal(err)
	}
	s.OnError = func(err error) { f.errs = append(f.errs, err) }
	f.s = s
	t.Cleanup(s.Close)
	return f
}

// Show proof on a proved position steps through the stored certificate:
// from the defender's position itself and from the attacker's position
// above it (the proved move first); each step is the last one's board
// plus a legal move; ← and → stay inside the line; moving the cursor
// closes it; a tampered stored certificate shows nothing and says why.
func TestShowProof(t *testing.T) {
	f := smallFixture(t)
	f.play("e5", "a1a2", "e4d4")
	f.settle()
	f.s.Prover().Verify()
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	f.settle()
	if !f.s.CanShowProof() {
		t.Fatalf("not proved: %+v", f.s.Cursor().Info().Status)
	}
	f.s.ShowProof()
	f.settle()
	p := f.s.ProofShown()
	if p == nil {
		t.Fatalf("no proof shown: %v", f.errs)
	}
	steps := p.Walk.Steps()
	if len(steps) < 3 {
		t.Fatalf("%d steps", len(steps))
	}
	b0, _, _ := f.s.ProofBoard()
	if b0.Hash() != f.s.Cursor().Position().Hash() {
		t.Fatal("step 0 is not the shown position")
	}
	prev := b0
	for i := 1; i < len(steps); i++ {
		if !f.s.ProofStep(+1) {
			t.Fatal("no proof to step")
		}
		b, _, _ := f.s.ProofBoard()
		m := steps[i].Move
		if err := prev.Check(m, true); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		want := prev.Clone()
		if err := want.PlayPartial(m); err != nil || want.Hash() != b.Hash() {
			t.Fatalf("step %d: the board is not the last one plus %s", i, game.MoveName(f.s.Rules(), m))
		}
		prev = b
	}
	f.s.ProofStep(+1) // past the end: stays
	if p.Walk.At() != len(steps)-1 || !strings.Contains(f.s.ProofText(), "wins") {
		t.Fatalf("end: at %d, %q", p.Walk.At(), f.s.ProofText())
	}
	// From the attacker's position above: the proved move first.
	f.s.Cursor().Back()
	f.settle()
	if f.s.ProofShown() != nil {
		t.Fatal("the proof is still shown after the cursor moved")
	}
	f.s.ShowProof()
	f.settle()
	if p := f.s.ProofShown(); p == nil || game.MoveName(f.s.Rules(), p.Lead) != "d4e4" ||
		!strings.Contains(f.s.ProofText(), "proved move") {
		t.Fatalf("from above: %+v, %q, %v", p, f.s.ProofText(), f.errs)
	}
	f.noErrors()
	// A stored certificate tampered with: refused.
	f.s.Cursor().Forward()
	f.settle()
	b := f.s.Cursor().Position()
	v := f.store.Node(b, false).Verdict[game.Black]
	cert := *v.Cert
	cert.Covered = append([]proofcheck.CoveredCert(nil), cert.Covered[1:]...)
	v.Cert = &cert
	f.s.Reload()
	f.settle()
	f.s.ShowProof()
	f.settle()
	if f.s.ProofShown() != nil || len(f.errs) != 1 || !strings.Contains(f.errs[0].Error(), "certificate") {
		t.Fatalf("a tampered certificate: shown %v, errors %v", f.s.ProofShown() != nil, f.errs)
	}
}

// Show proof on a position proved by its twin (the position without one
// White stone, proved with a zone that misses it) shows the twin's proof:
// its proved move first, then its certificate, on boards that keep the
// stone; every move avoids it.
func TestShowProofByTwin(t *testing.T) {
	f := smallFixture(t)
	// The twin: White's seminull a3 (Black to move one White stone
	// short), proved by Black's a4e6 as the verifier finds it.
	f.play("e5", "a1a2", "e4d4", "a3", "a4e6")
	f.settle()
	f.noErrors()
	f.s.Prover().Verify()
	f.pumpUntil("the verdict", func() bool { return !f.s.Prover().Running() })
	f.settle()
	if f.s.Cursor().Info().Status != c6book.StatusProved {
		t.Fatalf("the twin's move is not proved: %v", f.errs)
	}
	// The position with White's i9 too, given as proved by that twin.
	f.s.Cursor().Back()
	f.s.Cursor().Back()
	f.play("a3i9")
	f.settle()
	f.noErrors()
	pos := f.s.Cursor().Position()
	wrap := sessiontest.TwinProved{Store: f.store, Pos: pos.Hash(), Stone: f.sq("i9")}
	if err := f.s.SetStore(wrap); err != nil {
		t.Fatal(err)
	}
	f.s.Cursor().GoToLine([]game.Move{f.mv("e5"), f.mv("a1a2"), f.mv("e4d4"), f.mv("a3i9")})
	f.settle()
	if !f.s.CanShowProof() {
		t.Fatal("no proof to show")
	}
	f.s.ShowProof()
	f.settle()
	p := f.s.ProofShown()
	if p == nil {
		t.Fatalf("no proof shown: %v", f.errs)
	}
	if !p.ByTwin || game.MoveName(f.s.Rules(), p.Lead) != "a4e6" || !strings.Contains(f.s.ProofText(), "The proof of its twin, this position without White's stone on i9") {
		t.Fatalf("shown: twin %v, lead %s, %q", p.ByTwin, game.MoveName(f.s.Rules(), p.Lead), f.s.ProofText())
	}
	want := pos.Clone()
	if err := want.Play(p.Lead); err != nil {
		t.Fatal(err)
	}
	for i := range p.Walk.Steps() {
		b, _, _ := f.s.ProofBoard()
		if i == 0 && b.Hash() != want.Hash() {
			t.Fatal("step 0 is not the shown position after the twin's move")
		}
		if b.At(f.sq("i9")) != game.White {
			t.Fatalf("step %d: the board lost White's i9", i)
		}
		if i > 0 && p.Walk.Steps()[i].Move.Contains(f.sq("i9")) {
			t.Fatalf("step %d plays on i9", i)
		}
		f.s.ProofStep(+1)
	}
	f.noErrors()
}
