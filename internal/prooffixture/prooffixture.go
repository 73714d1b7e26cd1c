// Package prooffixture stores, for tests, a small proof in a Connect6
// book: the position P2 (Black to move, threes on rows 4 and 7, two on
// row 10), A (after e10f10 Black has a live four: White must block) with
// its certified open verdict leaving White's three blocks, and below each
// block the verifier's proved verdict (f4f7 makes four threats). Storing
// them proves A and P2 for Black. The tests of bookfile (the proof's SGF)
// and bookmerge (merge and split carry it) share it.
package prooffixture

import (
	"context"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
	"c6book/proofcheck"
)

// The lines of the fixture (Connect6).
const (
	P2Line = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19"
	AMove  = "e10f10"
	WinTwo = "f4f7"
)

// Verdict is a stored verdict of the fixture and the line to its
// position (in the store order).
type Verdict struct {
	Line string
	V    c6book.Verdict
}

// Store stores the fixture's proof in bk and returns its verdicts, so
// that a test can store them elsewhere.
func Store(t testing.TB, bk *proofbook.Book) []Verdict {
	t.Helper()
	ctx := context.Background()
	r := bk.Rules()
	add(t, bk, P2Line+" "+AMove)
	_, v, blocks := TwoThreatVerdict(t, bk, P2Line+" "+AMove)
	out := []Verdict{{P2Line + " " + AMove, v}}
	for _, m := range blocks {
		out = append(out, Verdict{Line: P2Line + " " + AMove + " " + game.MoveName(r, m) + " " + WinTwo})
	}
	for i := range out {
		id := add(t, bk, out[i].Line)
		if i > 0 {
			_, out[i].V = RealVerdict(t, bk, out[i].Line, 2, 1000)
		}
		if _, err := bk.StoreVerdict(ctx, id, out[i].V); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func add(t testing.TB, bk *proofbook.Book, line string) proofbook.PosID {
	t.Helper()
	ms, err := game.ParseTurns(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddLine(context.Background(), ms)
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}

// RealVerdict runs the verifier on the position of line (within nodes)
// and returns its position and the verdict in the book's form.
func RealVerdict(t testing.TB, bk *proofbook.Book, line string, lambda int, nodes int64) (proofbook.PosID, c6book.Verdict) {
	t.Helper()
	ctx := context.Background()
	b, err := board.ReplayText(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	tol, _ := b.DefenderDeficit(b.ToMove().Opp())
	v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: lambda, Tolerance: tol, Workers: 1, Limits: threat.Limits{MaxNodes: nodes}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return id, c6book.FromEngine(bk.Rules(), sym, v, lambda)
}

// TwoThreatVerdict is a certified open verdict on a position where the
// attacker has p threats: every reply that blocks them all is left
// unsolved (the certificate refutes the others: they leave a threat window
// open). It returns the position, the verdict and the blocks (the board's
// frame).
func TwoThreatVerdict(t testing.TB, bk *proofbook.Book, line string) (proofbook.PosID, c6book.Verdict, []game.Move) {
	t.Helper()
	b, err := board.ReplayText(bk.Rules(), line)
	if err != nil {
		t.Fatal(err)
	}
	a := b.ToMove().Opp()
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	normal, relaxed := b.CriticalDefences(a)
	blocks := append(normal, relaxed...)
	v := c6book.Verdict{Attacker: a, Status: c6book.StatusOpen, Order: 1, Lambda: 2, Engine: "test", Cert: &proofcheck.Cert{Attacker: a}}
	for _, m := range blocks {
		mc := proofbook.ToCanonical(bk.Rules(), sym, m)
		v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: mc, Reason: "budget"})
		v.Cert.Unsolved = append(v.Cert.Unsolved, mc)
	}
	return id, v, blocks
}
