package proofbook

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

func mv(t *testing.T, r game.Rules, s string) game.Move {
	t.Helper()
	m, err := game.ParseMove(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func proofOf(t *testing.T, bk *Book, id PosID, a game.Color) c6book.Proof {
	t.Helper()
	p, err := bk.Position(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Proof(a)
}

func wantProof(t *testing.T, bk *Book, name string, id PosID, a game.Color, st c6book.Status, pn, dn int64) {
	t.Helper()
	p := proofOf(t, bk, id, a)
	if p.Status != st || pn >= 0 && p.PN != pn || dn >= 0 && p.DN != dn {
		t.Fatalf("%s (%d): %s pn %d dn %d (%s), want %s pn %d dn %d", name, id, p.Status, p.PN, p.DN, p.How, st, pn, dn)
	}
}

// verdict builds a hand-made verdict on position id (canonical frame of a
// position reached by the line: the book's root frame is the identity
// only at the root, so moves are mapped through Locate's symmetry).
func verdict(t *testing.T, bk *Book, line string, status verify.VerdictStatus, order int, unsolved ...string) (PosID, c6book.Verdict) {
	t.Helper()
	r := bk.Rules()
	b, err := board.ReplayText(r, line)
	if err != nil {
		t.Fatal(err)
	}
	id, sym, err := bk.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	var st c6book.Status
	if err := st.UnmarshalText([]byte(status)); err != nil {
		t.Fatal(err)
	}
	v := c6book.Verdict{Attacker: b.ToMove().Opp(), Status: st, Order: order, Lambda: 2, Engine: "test"}
	for _, u := range unsolved {
		v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: ToCanonical(r, sym, mv(t, r, u)), Reason: "budget"})
	}
	return id, v
}

func store(t *testing.T, bk *Book, id PosID, v c6book.Verdict) {
	t.Helper()
	if _, err := bk.StoreVerdict(context.Background(), id, v); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
}

func add(t *testing.T, bk *Book, line string) PosID {
	t.Helper()
	l, err := bk.AddLine(context.Background(), turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	return l.IDs[len(l.IDs)-1]
}

// The lines of the propagation tests (Connect6): before P2, Black (to
// move) has three in a row on rows 4 and 7 and two on row 10; White's
// stones on row 19 make no threat.
const (
	p2Line = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19"
	// After A (e10f10) Black has a live four on row 10: two threats, and
	// White's three blocking moves are the only replies that do not lose
	// at once. After any of them, f4f7 makes four threats: proved at once.
	aMove  = "e10f10"
	winTwo = "f4f7"
)

// realVerdict verifies the position of line (defender to move) with the
// engine and returns the stored form (its certificate included).
func realVerdict(t *testing.T, bk *Book, line string, lambda int, nodes int64) (PosID, c6book.Verdict) {
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

// twoThreatVerdict is a certified open verdict on a position where the
// attacker has p threats: every reply that blocks them all is left unsolved
// (the certificate refutes the others: they leave a threat window open).
func twoThreatVerdict(t *testing.T, bk *Book, line string) (PosID, c6book.Verdict, []game.Move) {
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
		mc := ToCanonical(bk.Rules(), sym, m)
		v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: mc, Reason: "budget"})
		v.Cert.Unsolved = append(v.Cert.Unsolved, mc)
	}
	return id, v, blocks
}

func TestPropagationAndOr(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	B := game.Black
	P2 := add(t, bk, p2Line)
	A := add(t, bk, p2Line+" "+aMove)
	A2 := add(t, bk, p2Line+" h8h9")
	wantProof(t, bk, "P2 before any verdict", P2, B, c6book.StatusUnknown, 1, 1)

	// An open verdict on A leaves White's three blocks; they become children.
	id, v, blocks := twoThreatVerdict(t, bk, p2Line+" "+aMove)
	if id != A || len(blocks) != 3 {
		t.Fatalf("verdict on %d (A %d) with %d blocks", id, A, len(blocks))
	}
	store(t, bk, A, v)
	var C [3]PosID
	for i, m := range blocks {
		C[i], _ = locate(t, bk, p2Line+" "+aMove+" "+game.MoveName(r, m))
	}
	wantProof(t, bk, "A (AND, three open replies)", A, B, c6book.StatusOpen, 3, 1)
	wantProof(t, bk, "P2 (OR: A pn 3 dn 1, A2 unverified 1/1)", P2, B, c6book.StatusOpen, 1, 2)
	// The most-proving position is the unverified A2.
	line, err := bk.Next(ctx, P2, B)
	if err != nil {
		t.Fatal(err)
	}
	if last := line.IDs[len(line.IDs)-1]; last != A2 {
		t.Fatalf("next: %d, want A2 %d", last, A2)
	}
	// A verdict that bounds nothing keeps A2 a leaf that is not proved.
	store(t, bk, A2, c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Lambda: 2, AllUnsolved: true, Engine: "test"})
	wantProof(t, bk, "A2 (all open)", A2, B, c6book.StatusOpen, 1, 1)
	// The expert gives A2 up: next goes through A to one of its replies.
	if err := bk.SetDisproved(ctx, A2, B, true); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "A2 disproved", A2, B, c6book.StatusDisproved, c6book.Infinite, 0)
	wantProof(t, bk, "P2 (only A left)", P2, B, c6book.StatusOpen, 3, 1)
	line, err = bk.Next(ctx, P2, B)
	if err != nil {
		t.Fatal(err)
	}
	if last := line.IDs[len(line.IDs)-1]; last != C[0] && last != C[1] && last != C[2] || len(line.IDs) != 3 {
		t.Fatalf("next: %v, want a reply of A", line.IDs)
	}

	// Each reply: the attacker's f4f7 makes four threats, proved outright
	// by a real verdict (its certificate: the threat windows).
	var D [3]PosID
	for i, m := range blocks {
		l := p2Line + " " + aMove + " " + game.MoveName(r, m) + " " + winTwo
		D[i] = add(t, bk, l)
		_, vd := realVerdict(t, bk, l, 2, 1000)
		if vd.Status != c6book.StatusProved || vd.Cert == nil {
			t.Fatalf("D%d: %+v", i, vd)
		}
		store(t, bk, D[i], vd)
		wantProof(t, bk, fmt.Sprintf("D%d", i), D[i], B, c6book.StatusProved, 0, c6book.Infinite)
		wantProof(t, bk, fmt.Sprintf("C%d", i), C[i], B, c6book.StatusProved, 0, c6book.Infinite)
		if i < 2 {
			wantProof(t, bk, "A (replies left)", A, B, c6book.StatusOpen, int64(2-i), 1)
		}
	}
	for _, c := range []struct {
		name string
		id   PosID
	}{{"A", A}, {"P2", P2}} {
		wantProof(t, bk, c.name+" proved", c.id, B, c6book.StatusProved, 0, c6book.Infinite)
	}
	// True orders: A's verdict is order 1 (exactly p threats, every
	// block answered), and each block is answered by four threats (order
	// 1): the whole is a VCDT, order 1 (not the run's λ 2).
	if o := proofOf(t, bk, A, B).Order; o != 1 {
		t.Fatalf("A proved with order %d, want 1", o)
	}
	if z := proofOf(t, bk, P2, B).Zone; len(z) == 0 {
		t.Fatal("P2 proved without a zone")
	}
	if _, err := bk.Next(ctx, P2, B); err == nil {
		t.Fatal("next on a proved position: no error")
	}
	proved, err := bk.Proved(ctx, B, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	// With a least order, exactly the proofs of that order or more.
	for _, min := range []int{1, 2, 3} {
		got, err := bk.Proved(ctx, B, min, 100)
		if err != nil {
			t.Fatal(err)
		}
		var want []PosID
		for _, p := range proved {
			if p.Proof.Order >= min {
				want = append(want, p.ID)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("proved with order >= %d: %d positions, want %d", min, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i] || got[i].Proof.Order < min {
				t.Fatalf("proved with order >= %d: %+v, want ids %v", min, got, want)
			}
		}
	}
	seen := map[PosID]bool{}
	for _, p := range proved {
		seen[p.ID] = true
	}
	for _, id := range append([]PosID{P2, A}, append(C[:], D[:]...)...) {
		if !seen[id] {
			t.Fatalf("position %d missing from the proved list", id)
		}
	}

	// The expert refutes D1: C1 needs a new move, A and P2 are open again.
	if err := bk.SetDisproved(ctx, D[1], B, true); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "D1 (expert)", D[1], B, c6book.StatusDisproved, -1, -1)
	wantProof(t, bk, "C1 (needs a new move)", C[1], B, c6book.StatusUnknown, 1, 1)
	if p := proofOf(t, bk, A, B); p.Status == c6book.StatusProved {
		t.Fatal("A still proved after its reply lost its proof")
	}
	if p := proofOf(t, bk, P2, B); p.Status == c6book.StatusProved {
		t.Fatal("P2 still proved")
	}
	if err := bk.SetDisproved(ctx, D[1], B, false); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, bk)
	wantProof(t, bk, "P2 proved again", P2, B, c6book.StatusProved, 0, c6book.Infinite)

	// Tampering is found by Check: a forged proved status, and a forged
	// zone (one square short) on a proved position.
	if _, err := bk.w.ExecContext(ctx, "UPDATE status SET status = 2, pn = 0, zone = x'' WHERE pos = ? AND attacker = 1", int64(A2)); err != nil {
		t.Fatal(err)
	}
	if rep, err := bk.Check(ctx); err != nil || rep.OK() {
		t.Fatalf("check accepted a forged proof: %v %v", rep, err)
	}
}

// A verdict whose certificate does not account for every defender move, or
// does not check, or was made at another tolerance, is refused.
func TestStoreVerdictRefusesBadCertificates(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	A := add(t, bk, p2Line+" "+aMove)
	_, v, _ := twoThreatVerdict(t, bk, p2Line+" "+aMove)
	// One block forgotten.
	short := v
	short.Unsolved = v.Unsolved[1:]
	if _, err := bk.StoreVerdict(ctx, A, short); err == nil || !strings.Contains(err.Error(), "neither refuted") {
		t.Fatalf("a verdict that forgets a reply: %v", err)
	}
	// Another tolerance.
	tol := v
	tol.Tolerance = 1
	if _, err := bk.StoreVerdict(ctx, A, tol); err == nil || !strings.Contains(err.Error(), "tolerance") {
		t.Fatalf("a verdict at the wrong tolerance: %v", err)
	}
	// Forged open verdicts: an item twice, an item that loses at once,
	// every move left open where the attacker threatens.
	twice := v
	twice.Unsolved = append(append([]c6book.Unsolved(nil), v.Unsolved...), v.Unsolved[0])
	if _, err := bk.StoreVerdict(ctx, A, twice); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Fatalf("a verdict with an item twice: %v", err)
	}
	losing := v
	losing.Unsolved = append(append([]c6book.Unsolved(nil), v.Unsolved...), c6book.Unsolved{Move: mv(t, bk.Rules(), "a1b1")})
	if _, err := bk.StoreVerdict(ctx, A, losing); err == nil || !strings.Contains(err.Error(), "loses at once") {
		t.Fatalf("a verdict with an item that loses at once: %v", err)
	}
	all := v
	all.Unsolved, all.AllUnsolved = nil, true
	all.Cert = &proofcheck.Cert{Attacker: v.Attacker, AllUnsolved: true}
	if _, err := bk.StoreVerdict(ctx, A, all); err == nil || !strings.Contains(err.Error(), "all-unsolved") {
		t.Fatalf("an all-unsolved verdict where the attacker threatens: %v", err)
	}
	// A covered move whose strategy does not win.
	bad := v
	bad.Cert = &proofcheck.Cert{Attacker: game.Black, Unsolved: v.Cert.Unsolved[1:],
		Covered: []proofcheck.CoveredCert{{Move: v.Cert.Unsolved[0], Tree: &proofcheck.Tree{Move: mv(t, bk.Rules(), "a1b1")}}}}
	if _, err := bk.StoreVerdict(ctx, A, bad); err == nil || !strings.Contains(err.Error(), "certificate does not check") {
		t.Fatalf("a forged certificate: %v", err)
	}
	p, err := bk.Position(ctx, A)
	if err != nil || p.Verdict != nil {
		t.Fatalf("a refused verdict was stored: %+v %v", p.Verdict, err)
	}
	mustCheck(t, bk)
}

func TestPropagationWin(t *testing.T) {
	bk := newBook(t, game.Connect6())
	B, W := game.Black, game.White
	const pre = "j10 a1b1 j11j12 a2b2 j13j14 a3b3"
	T := add(t, bk, pre+" j15j16")
	P := add(t, bk, pre)
	wantProof(t, bk, "terminal", T, B, c6book.StatusProved, 0, c6book.Infinite)
	wantProof(t, bk, "terminal for White", T, W, c6book.StatusDisproved, c6book.Infinite, 0)
	wantProof(t, bk, "winning move stored", P, B, c6book.StatusProved, 0, c6book.Infinite)
	wantProof(t, bk, "White defends nothing", P, W, c6book.StatusDisproved, c6book.Infinite, 0)
	if z := proofOf(t, bk, T, B).Zone; z == nil || len(z) != 0 {
		t.Fatalf("terminal zone %v, want empty", z)
	}
	if z := proofOf(t, bk, P, B).Zone; len(z) < 2 {
		t.Fatalf("zone of the winning move's position %v: want at least the move", z)
	}
	mustCheck(t, bk)
}
