package proofbook

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/lambda3moves"
	"c6book/internal/testenv"
	"c6book/proofcheck"
)

// provedBook builds a small-board book with one proved line: a random
// position, the engine's winning move, and a proved verdict whose
// certificate holds strategies (a null or seminull tree and covered moves).
// provedLine finds the line and the verdict provedBook stores.
type provedLine struct {
	line []game.Move
	v    verify.Verdict
}

func provedBook(t *testing.T, found *provedLine) (*Book, PosID, PosID, game.Color) {
	t.Helper()
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	if found.line != nil {
		bk := newBook(t, r)
		l, err := bk.AddLine(ctx, found.line)
		if err != nil {
			t.Fatal(err)
		}
		d := l.IDs[len(l.IDs)-1]
		nb, _ := board.Replay(r, found.line)
		_, sym := nb.CanonicalKey()
		if _, err := bk.StoreVerdict(ctx, d, c6book.FromEngine(r, sym, found.v, 2)); err != nil {
			t.Fatal(err)
		}
		return bk, l.IDs[len(l.IDs)-2], d, nb.ToMove().Opp()
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for try := 0; try < 3000; try++ {
		line := lambda3moves.RandomLine(rng, r, 4)
		b, err := board.Replay(r, line)
		if err != nil {
			t.Fatal(err)
		}
		a := b.ToMove()
		m, ok := lambda3moves.AttackerMove(ctx, b, 0)
		if !ok || try%2 == 1 {
			m = lambda3moves.QuietMove(ctx, rng, b, 0)
		}
		nb := b.Clone()
		if err := nb.Play(m); err != nil {
			t.Fatal(err)
		}
		v, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 5000}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != verify.StatusProved || len(v.Covered) == 0 || (v.NullTree == nil && len(v.SeminullZones) == 0) {
			continue
		}
		bk := newBook(t, r)
		l, err := bk.AddLine(ctx, append(line, m))
		if err != nil {
			t.Fatal(err)
		}
		d := l.IDs[len(l.IDs)-1]
		_, sym := nb.CanonicalKey()
		if _, err := bk.StoreVerdict(ctx, d, c6book.FromEngine(r, sym, v, 2)); err != nil {
			t.Fatal(err)
		}
		if proofOf(t, bk, d, a).Status != c6book.StatusProved {
			t.Fatal("a proved verdict did not prove its position")
		}
		mustCheck(t, bk)
		found.line, found.v = append(line, m), v
		return bk, l.IDs[len(l.IDs)-2], d, a
	}
	t.Fatal("no proved position found")
	return nil, 0, 0, 0
}

// Tampering with a stored proof is found by check, which names the line.
func TestCheckFindsTamperedProofs(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	setCert := func(t *testing.T, bk *Book, id PosID, f func(c *proofcheck.Cert)) {
		t.Helper()
		p, err := bk.Position(ctx, id)
		if err != nil || p.Verdict == nil || p.Verdict.Cert == nil {
			t.Fatalf("no certificate: %v", err)
		}
		f(p.Verdict.Cert)
		data, err := p.Verdict.Cert.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bk.w.ExecContext(ctx, "UPDATE verdict SET cert = ? WHERE pos = ?", data, int64(id)); err != nil {
			t.Fatal(err)
		}
	}
	firstReplies := func(c *proofcheck.Cert) *proofcheck.Tree {
		for _, cv := range c.Covered {
			if cv.Tree != nil && len(cv.Tree.Replies) > 0 {
				return cv.Tree
			}
		}
		if c.NullTree != nil && len(c.NullTree.Replies) > 0 {
			return c.NullTree
		}
		for _, s := range c.Seminull {
			if s.Tree != nil && len(s.Tree.Replies) > 0 {
				return s.Tree
			}
		}
		return nil
	}
	cases := []struct {
		name   string
		tamper func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool
	}{
		{"drop a reply from a stored strategy", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			ok := false
			setCert(t, bk, d, func(c *proofcheck.Cert) {
				if tr := firstReplies(c); tr != nil {
					tr.Replies = tr.Replies[1:]
					ok = true
				}
			})
			return ok
		}},
		{"move an attacker stone of a strategy", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			ok := false
			setCert(t, bk, d, func(c *proofcheck.Cert) {
				tr := c.Covered[0].Tree
				sq := tr.Move.Squares()
				b, _ := bk.Board(ctx, d)
				for s := game.Square(0); int(s) < bk.rules.Squares(); s++ {
					if b.At(s) == game.Empty && !tr.Move.Contains(s) {
						sq[0] = s
						break
					}
				}
				tr.Move = game.NewMove(sq...)
				ok = true
			})
			return ok
		}},
		{"shrink a proved position's zone by one square", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			z := proofOf(t, bk, parent, a).Zone
			if len(z) == 0 {
				return false
			}
			_, err := bk.w.ExecContext(ctx, "UPDATE status SET zone = ? WHERE pos = ? AND attacker = ?", packSquares(z[1:]), int64(parent), int(a))
			return err == nil
		}},
		{"shrink a claimed null or seminull zone", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			ok := false
			setCert(t, bk, d, func(c *proofcheck.Cert) {
				if c.NullTree != nil && len(c.NullZone) > 0 {
					c.NullZone = c.NullZone[1:]
					ok = true
				} else if len(c.Seminull) > 0 && len(c.Seminull[0].Zone) > 0 {
					c.Seminull[0].Zone = c.Seminull[0].Zone[1:]
					ok = true
				}
			})
			return ok
		}},
		{"drop a covered move (an item without a child)", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			setCert(t, bk, d, func(c *proofcheck.Cert) { c.Covered = c.Covered[1:] })
			return true
		}},
		{"drop the certificate", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			_, err := bk.w.ExecContext(ctx, "UPDATE verdict SET cert = NULL WHERE pos = ?", int64(d))
			return err == nil
		}},
		{"mark a child proved without a certificate", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) bool {
			// A new attacker move with no verdict, claimed proved.
			b, _ := bk.Board(ctx, parent)
			var m game.Move
			for s := game.Square(0); int(s) < bk.rules.Squares(); s++ {
				if b.At(s) == game.Empty && b.At(s+1) == game.Empty && int(s+1) < bk.rules.Squares() {
					m = game.NewMove(s, s+1)
					break
				}
			}
			child, err := bk.Play(ctx, parent, m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = bk.w.ExecContext(ctx, "INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at, zone) VALUES (?, ?, 2, 1, 'verdict', 0, 0, ?, 0, x'') ON CONFLICT(pos, attacker) DO UPDATE SET status = 2, zone = x''", int64(child), int(a), c6book.Infinite)
			return err == nil
		}},
	}
	var found provedLine
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bk, parent, d, a := provedBook(t, &found)
			if !c.tamper(t, bk, parent, d, a) {
				t.Fatal("the fixture has nothing to tamper with")
			}
			rep, err := bk.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() {
				t.Fatal("check accepted the tampered book")
			}
			found := false
			for _, p := range rep.Problems {
				if strings.Contains(p, "is broken at \"") || strings.Contains(p, "re-derived") {
					found = true
				}
			}
			if !found {
				t.Fatalf("no problem names a line: %v", rep.Problems)
			}
			t.Logf("%s: %s", c.name, rep.Problems[len(rep.Problems)-1])
		})
	}
}

// Black's first turn places q stones: a proof of the empty board through a
// q-stone first move checks (q = 3 here).
func TestFirstTurnOfQStonesChecks(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 4, P: 2, Q: 3}
	bk := newBook(t, r)
	l, err := bk.AddLine(ctx, turns(t, r, "d5e5f5"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.ReplayText(r, "d5e5f5")
	if err != nil {
		t.Fatal(err)
	}
	v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Workers: 1}, nil)
	if err != nil || v.Status != verify.StatusProved {
		t.Fatalf("verdict %s %v", v.Status, err)
	}
	_, sym := b.CanonicalKey()
	if _, err := bk.StoreVerdict(ctx, l.IDs[1], c6book.FromEngine(r, sym, v, 2)); err != nil {
		t.Fatal(err)
	}
	if proofOf(t, bk, l.IDs[0], game.Black).Status != c6book.StatusProved {
		t.Fatal("the empty board is not proved through its first move")
	}
	if rep := mustCheck(t, bk); rep.Proofs < 2 {
		t.Fatalf("%d proofs re-checked, want the root and its move", rep.Proofs)
	}
}
