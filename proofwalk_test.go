package c6book

import (
	"context"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

// provedVerdict verifies a small-board position the verifier proves, in
// the board's own frame.
func provedVerdict(t *testing.T) (*board.Board, Verdict) {
	t.Helper()
	r, err := game.ParseRules("9,9,5,2,1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.ReplayText(r, "e5 a1a2 e4d4")
	if err != nil {
		t.Fatal(err)
	}
	opts := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	v, err := VerifyBoard(context.Background(), b, nil, 0, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Proved() || v.Cert == nil {
		t.Fatalf("the test needs a proved verdict: %s, %d unsolved", v.Status, len(v.Unsolved))
	}
	return b, v
}

// The proof line read off a proved verdict's certificate: every step's move
// is legal on the step before it, the attacker moves on the attacker's
// steps, each line ends in k in a row for the attacker, whichever
// defender reply is chosen; the critical reply (longest) comes first.
func TestProofWalkFromCertificate(t *testing.T) {
	ctx := context.Background()
	b, v := provedVerdict(t)
	w, err := NewProofWalk(ctx, b, &v)
	if err != nil {
		t.Fatal(err)
	}
	start := w.Steps()[0]
	if start.Kind != StepStart || len(start.Alts) == 0 {
		t.Fatalf("start: %+v", start)
	}
	for i := 1; i < len(start.Alts); i++ {
		if start.Alts[i].Kind != StepBook && start.Alts[i].Depth > start.Alts[0].Depth {
			t.Fatalf("reply %d is longer (%d) than the first (%d)", i, start.Alts[i].Depth, start.Alts[0].Depth)
		}
	}
	lines := 0
	var follow func(depth int)
	follow = func(depth int) {
		// Check the line from the step shown to its end.
		steps := w.Steps()
		for i := 1; i < len(steps); i++ {
			prev, st := steps[i-1], steps[i]
			if st.By != prev.Board.ToMove() {
				t.Fatalf("step %d: %v moves, %v to move", i, st.By, prev.Board.ToMove())
			}
			if err := prev.Board.Check(st.Move, true); err != nil {
				t.Fatalf("step %d: %s illegal: %v", i, game.MoveName(b.Rules(), st.Move), err)
			}
			if (st.Kind == StepAttack || st.Kind == StepWin) != (st.By == v.Attacker) {
				t.Fatalf("step %d: kind %d played by %v", i, st.Kind, st.By)
			}
		}
		last := steps[len(steps)-1]
		switch last.Kind {
		case StepWin:
			if last.Board.Winner() != v.Attacker {
				t.Fatalf("the line ends in a win for %v", last.Board.Winner())
			}
		case StepBook:
		case StepAttack:
			// More threats than the defender can block (the engine's own
			// count: p+1 means "more than p").
			if !last.Wins || last.Board.Threats(v.Attacker) <= b.Rules().P {
				t.Fatalf("the line ends with %d threats: %s", last.Board.Threats(v.Attacker), strings.Join(w.Line(), "\n"))
			}
		default:
			t.Fatalf("the line ends in a step of kind %d: %s", last.Kind, strings.Join(w.Line(), "\n"))
		}
		lines++
		if depth > 3 || lines > 200 {
			return
		}
		// Every other reply at every defender step of this line.
		for i := len(steps) - 1; i >= 0; i-- {
			n := len(w.Steps()[i].Alts)
			for j := 1; j < n && lines < 200; j++ {
				w.Seek(i)
				if err := w.Choose(ctx, j); err != nil {
					t.Fatal(err)
				}
				follow(depth + 1)
				w.Seek(i)
				if err := w.Choose(ctx, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	follow(0)
	t.Logf("%d lines; the first:\n%s", lines, strings.Join(w.Line(), "\n"))
	// Stepping.
	w.Seek(0)
	n := 0
	for w.Next() {
		n++
	}
	if n != len(w.Steps())-1 || w.Prev() == false || w.At() != n-1 {
		t.Fatalf("stepping: %d nexts, %d steps, at %d", n, len(w.Steps()), w.At())
	}
}

// A tampered certificate is refused: nothing is shown.
func TestProofWalkRefusesTamperedCertificate(t *testing.T) {
	ctx := context.Background()
	b, v := provedVerdict(t)
	tamper := func(name string, f func(c *proofcheck.Cert) bool) {
		c := cloneCert(t, v.Cert)
		if !f(c) {
			t.Fatalf("%s: nothing to tamper with", name)
		}
		bad := v
		bad.Cert = c
		if w, err := NewProofWalk(ctx, b, &bad); err == nil {
			t.Errorf("%s: accepted, %d steps", name, len(w.Steps()))
		}
	}
	// The first attacker move of the first strategy moved to another
	// empty square.
	tamper("attacker move", func(c *proofcheck.Cert) bool {
		tr := firstTree(c)
		if tr == nil {
			return false
		}
		for s := game.Square(0); int(s) < b.Rules().Squares(); s++ {
			if b.At(s) == game.Empty && !tr.Move.Contains(s) && s != tr.Move.At(0) {
				sq := tr.Move.Squares()
				sq[0] = s
				m, err := game.MakeMove(sq...)
				if err == nil && m != tr.Move {
					tr.Move = m
					return true
				}
			}
		}
		return false
	})
	tamper("a strategy cut", func(c *proofcheck.Cert) bool {
		var trees []*proofcheck.Tree
		if c.NullTree != nil {
			trees = append(trees, c.NullTree)
		}
		for _, cv := range c.Covered {
			trees = append(trees, cv.Tree)
		}
		for _, tr := range trees {
			if tr != nil && len(tr.Replies) > 0 {
				tr.Replies = tr.Replies[1:]
				return true
			}
		}
		return false
	})
	tamper("a covered move dropped", func(c *proofcheck.Cert) bool {
		if len(c.Covered) < 2 {
			return false
		}
		c.Covered = c.Covered[1:]
		return true
	})
	tamper("no certificate", func(c *proofcheck.Cert) bool { *c = proofcheck.Cert{}; return true })
	if _, err := NewProofWalk(ctx, b, &Verdict{Attacker: v.Attacker}); err == nil {
		t.Error("a verdict without a certificate is shown")
	}
}

func firstTree(c *proofcheck.Cert) *proofcheck.Tree {
	if c.NullTree != nil {
		return c.NullTree
	}
	if len(c.Covered) > 0 {
		return c.Covered[0].Tree
	}
	if len(c.Seminull) > 0 {
		return c.Seminull[0].Tree
	}
	return nil
}

func cloneCert(t *testing.T, c *proofcheck.Cert) *proofcheck.Cert {
	data, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	out := new(proofcheck.Cert)
	if err := out.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	return out
}
