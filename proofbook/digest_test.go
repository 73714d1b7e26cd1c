package proofbook

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strconv"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
	"c6book/proofcheck"
)

// outside opens the book's file as another program would (the sqlite3
// command line): a plain connection that knows nothing of the digest.
func outside(t *testing.T, bk *Book, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+bk.Path()+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// outsideCert changes position id's stored certificate outside the program.
func outsideCert(t *testing.T, bk *Book, id PosID, f func(c *proofcheck.Cert)) {
	t.Helper()
	p, err := bk.Position(context.Background(), id)
	if err != nil || p.Verdict == nil || p.Verdict.Cert == nil {
		t.Fatalf("no certificate: %v", err)
	}
	f(p.Verdict.Cert)
	data, err := p.Verdict.Cert.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+bk.Path()+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE verdict SET cert = ? WHERE pos = ?", data, int64(id)); err != nil {
		t.Fatal(err)
	}
}

// storedProof is the status row as stored (the book's read methods mask
// unchecked proofs).
func storedProof(t *testing.T, bk *Book, id PosID, a game.Color) c6book.Proof {
	t.Helper()
	p, _, err := readProof(context.Background(), bk.r, bk.rules, id, a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func wantChecked(t *testing.T, bk *Book, want bool) {
	t.Helper()
	ok, err := bk.ProofsChecked(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ok != want {
		t.Fatalf("ProofsChecked = %v, want %v", ok, want)
	}
	// The stored digest is the rows' exactly when the proofs are checked.
	stored, rows, err := bk.digests(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stored.equal(rows) != want {
		t.Fatalf("stored digest %v, rows %v", stored, rows)
	}
}

// A proof row changed outside the program (a status flipped to proved, a
// verdict deleted, a certificate byte changed, a proved row deleted) is
// seen: the book shows its proofs as unchecked everywhere it lists them,
// and check does not trust them again while they do not check.
func TestOutsideChangeShowsUnchecked(t *testing.T) {
	testenv.Heavy(t)
	var found provedLine // found once, shared by the subtests
	t.Run("shown unchecked", func(t *testing.T) { testShownUnchecked(t, &found) })
	t.Run("check records", func(t *testing.T) { testCheckRecordsDigest(t, &found) })
	t.Run("confirm rechecks a certificate", func(t *testing.T) { testConfirmRechecksCert(t, &found) })
}

func testShownUnchecked(t *testing.T, found *provedLine) {
	ctx := context.Background()
	cases := []struct {
		name string
		edit func(t *testing.T, bk *Book, parent, d PosID, a game.Color)
	}{
		{"a status flipped to proved", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) {
			// The position before the parent: not proved for a.
			var pos int64
			if err := bk.r.QueryRow("SELECT parent FROM edge WHERE child = ?", int64(parent)).Scan(&pos); err != nil {
				t.Fatal(err)
			}
			if storedProof(t, bk, PosID(pos), a).Status == c6book.StatusProved {
				t.Fatal("the grandparent is proved already")
			}
			outside(t, bk, "INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at, zone) VALUES ("+
				itoa(pos)+", "+itoa(int64(a))+", 2, 2, 'move', 0, 0, 1099511627776, 0, X'') "+
				"ON CONFLICT(pos, attacker) DO UPDATE SET status = 2, ord = 2, how = 'move', pn = 0, dn = 1099511627776, zone = X''")
		}},
		{"a verdict deleted", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) {
			outside(t, bk, "DELETE FROM verdict WHERE pos = "+itoa(int64(d)))
		}},
		{"a certificate changed", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) {
			outsideCert(t, bk, d, func(c *proofcheck.Cert) {
				tr := c.Covered[0].Tree
				tr.Move = game.NewMove(tr.Move.At(0))
			})
		}},
		{"a proved row deleted", func(t *testing.T, bk *Book, parent, d PosID, a game.Color) {
			outside(t, bk, "DELETE FROM status WHERE pos = "+itoa(int64(d))+" AND attacker = "+itoa(int64(a)))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bk, parent, d, a := provedBook(t, found)
			wantChecked(t, bk, true)
			c.edit(t, bk, parent, d, a)
			wantChecked(t, bk, false)
			// Nothing shows proved: the position, its parent's replies, the
			// proved list, the statistics.
			p, err := bk.Position(ctx, parent)
			if err != nil {
				t.Fatal(err)
			}
			if st := p.Proof(a).Status; st == c6book.StatusProved {
				t.Fatalf("the parent shows %s", st)
			}
			kids, err := bk.Children(ctx, parent)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range kids {
				if k.Proof(a).Status == c6book.StatusProved {
					t.Fatalf("a reply shows proved: %+v", k)
				}
			}
			pd, err := bk.Position(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			if pd.Proof(a).Status == c6book.StatusProved || pd.Verdict != nil && pd.Verdict.Status == c6book.StatusProved {
				t.Fatalf("the verified position shows proved: %+v", pd.Proof(a))
			}
			list, err := bk.Proved(ctx, a, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) == 0 {
				t.Fatal("the proved list lost the unchecked proofs")
			}
			for _, r := range list {
				if r.Proof.Status != c6book.StatusUnchecked {
					t.Fatalf("proved list entry %d: %s, want unchecked", r.ID, r.Proof.Status)
				}
			}
			s, err := bk.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if s.Proved != [2]int64{} || s.Unchecked[a-1] == 0 {
				t.Fatalf("stats: proved %v, unchecked %v", s.Proved, s.Unchecked)
			}
			// check finds the broken proof and does not trust the rows.
			rep, err := bk.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() || !rep.Outside || rep.Recorded {
				t.Fatalf("check after %s: ok %v, outside %v, recorded %v: %v", c.name, rep.OK(), rep.Outside, rep.Recorded, rep.Problems)
			}
			wantChecked(t, bk, false)
		})
	}
}

// check re-checks every proof after an outside change and, when they all
// check, records the digest: the book trusts its proofs again. Undoing the
// change by hand restores the digest too.
func testCheckRecordsDigest(t *testing.T, found *provedLine) {
	ctx := context.Background()
	bk, parent, d, a := provedBook(t, found)
	outside(t, bk, "UPDATE verdict SET engine = engine || ' (copied)' WHERE pos = "+itoa(int64(d)))
	wantChecked(t, bk, false)
	if st := storedProof(t, bk, parent, a).Status; st != c6book.StatusProved {
		t.Fatalf("the stored status changed: %s", st)
	}
	if p, _ := bk.Position(ctx, parent); p.Proof(a).Status != c6book.StatusUnchecked {
		t.Fatalf("shown as %s, want unchecked", p.Proof(a).Status)
	}
	rep := mustCheck(t, bk)
	if !rep.Outside || !rep.Recorded {
		t.Fatalf("check: outside %v, recorded %v", rep.Outside, rep.Recorded)
	}
	wantChecked(t, bk, true)
	if p, _ := bk.Position(ctx, parent); p.Proof(a).Status != c6book.StatusProved {
		t.Fatalf("after check: %s, want proved", p.Proof(a).Status)
	}
	// A check with nothing changed records nothing.
	if rep := mustCheck(t, bk); rep.Outside || rep.Recorded {
		t.Fatalf("second check: outside %v, recorded %v", rep.Outside, rep.Recorded)
	}
	// A hand edit undone by hand leaves the digest as it was.
	outside(t, bk, "DELETE FROM verdict WHERE pos = 999999")
	outside(t, bk, "UPDATE status SET status = 1 WHERE pos = "+itoa(int64(d))+" AND attacker = "+itoa(int64(a)))
	wantChecked(t, bk, false)
	outside(t, bk, "UPDATE status SET status = 2 WHERE pos = "+itoa(int64(d))+" AND attacker = "+itoa(int64(a)))
	wantChecked(t, bk, true)
}

// The program's own writes keep the digest: verdicts (StoreVerdict, the
// auto-pilot's writes through its store), marking disproved and back,
// moves added and removed, an import of games that marks game ends
// proved, λ3 items. No false alarm. (A whole prove run keeps it too:
// autopilot's TestProveKeepsDigest.)
func TestDigestKeptByWrites(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk := newBook(t, r)
	line := "e5 d4f6"
	id := add(t, bk, line)
	// The auto-pilot's writes: its candidate moves with their scores, the
	// verdicts of the positions they reach (Verify: its jobs), an
	// exhausted position, a hold set and cleared.
	cands := []game.Move{canonicalMove(t, bk, line, "e4e6"), canonicalMove(t, bk, line, "d5f5"), canonicalMove(t, bk, line, "c3g7")}
	_, _, kids, err := bk.AddAutoMoves(ctx, id, cands, []float64{0.5, -0.25})
	if err != nil {
		t.Fatal(err)
	}
	wantChecked(t, bk, true)
	for _, k := range kids {
		if k == 0 {
			continue // the image of an earlier candidate under the position's symmetry
		}
		if _, err := bk.Verify(ctx, k, verify.LocalVerifier{}, verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}, nil); err != nil {
			t.Fatal(err)
		}
		wantChecked(t, bk, true)
	}
	if err := bk.SetExhausted(ctx, id, 32); err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		if err := bk.SetHold(ctx, id, game.Black, on); err != nil {
			t.Fatal(err)
		}
	}
	wantChecked(t, bk, true)
	// Proofs below the line (verdicts stored and their items answered).
	rng := rand.New(rand.NewPCG(9, 9))
	for try := 0; try < 3 && !proveBelow(t, bk, rng, id, game.Black, 2); try++ {
	}
	n, err := bk.CountStatus(ctx, game.Black, c6book.StatusProved, 0)
	if err != nil || n == 0 {
		t.Fatalf("the writes stored no proof: %d %v", n, err)
	}
	wantChecked(t, bk, true)
	rows, err := bk.r.Query("SELECT pos FROM status WHERE attacker = 1 AND status = 2 AND how <> 'win' ORDER BY pos")
	if err != nil {
		t.Fatal(err)
	}
	var proved []PosID
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		proved = append(proved, PosID(p))
	}
	rows.Close()
	for _, p := range proved[:min(len(proved), 3)] {
		if err := bk.SetDisproved(ctx, p, game.Black, true); err != nil {
			t.Fatal(err)
		}
		wantChecked(t, bk, true)
		if err := bk.SetDisproved(ctx, p, game.Black, false); err != nil {
			t.Fatal(err)
		}
		wantChecked(t, bk, true)
	}
	// Moves that end the game (proved at order 0) added and removed.
	win := add(t, bk, "e5 d4f6 a1a2 e4e6 a3a4 e3e7 a5a6")
	if proofOf(t, bk, win, game.Black).Status != c6book.StatusProved {
		t.Fatal("a five is not proved")
	}
	wantChecked(t, bk, true)
	par := add(t, bk, "e5 d4f6 a1a2 e4e6 a3a4 e3e7")
	if err := bk.RemoveMove(ctx, par, canonicalMove(t, bk, "e5 d4f6 a1a2 e4e6 a3a4 e3e7", "a5a6")); err != nil {
		t.Fatal(err)
	}
	wantChecked(t, bk, true)
	// Games whose ends are proved.
	_, games := synthGames(7, 40, 30)
	games["won"] = []string{"j10", "a1b1", "k10l10", "c1d1", "m10n10", "e1f1"} // White's six
	c6 := newBook(t, game.Connect6())
	if _, err := c6.importMap(ctx, games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if n, err := c6.CountStatus(ctx, game.White, c6book.StatusProved, 0); err != nil || n == 0 {
		t.Fatalf("the import proved no game end: %d %v", n, err)
	}
	wantChecked(t, c6, true)
	mustCheck(t, bk)
	wantChecked(t, bk, true)
}

// canonicalMove is move m after line in the canonical frame of line's
// position.
func canonicalMove(t *testing.T, bk *Book, line, m string) game.Move {
	t.Helper()
	b, err := board.Replay(bk.Rules(), turns(t, bk.Rules(), line))
	if err != nil {
		t.Fatal(err)
	}
	_, sym := b.CanonicalKey()
	return ToCanonical(bk.Rules(), sym, turns(t, bk.Rules(), m)[0])
}

// ConfirmProof (what prove calls before it reports a stored proof)
// re-checks it: a status flipped to proved by hand, or a certificate
// changed by hand, does not confirm; the rows are derived again and the
// position is no longer proved, so the auto-pilot works on it (autopilot's
// TestProveWorksOnAnUnconfirmedProof).
func TestConfirmProofRechecksStoredProof(t *testing.T) {
	ctx := context.Background()
	t.Run("status flipped", func(t *testing.T) {
		r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
		bk := newBook(t, r)
		id := add(t, bk, "e5 d4f6")
		outside(t, bk, "INSERT INTO status(pos, attacker, status, ord, how, expert, pn, dn, updated_at, zone) VALUES ("+
			itoa(int64(id))+", 1, 2, 2, 'verdict', 0, 0, 1099511627776, 0, X'')")
		if st := storedProof(t, bk, id, game.Black).Status; st != c6book.StatusProved {
			t.Fatalf("stored %s", st)
		}
		ok, err := bk.ConfirmProof(ctx, id, game.Black)
		if err != nil || ok {
			t.Fatalf("ConfirmProof of a status flipped by hand: %v, %v; want false", ok, err)
		}
		if st := storedProof(t, bk, id, game.Black).Status; st == c6book.StatusProved {
			t.Fatal("still stored proved after ConfirmProof")
		}
	})
}

// testConfirmRechecksCert: ConfirmProof re-checks a certificate changed by
// hand.
func testConfirmRechecksCert(t *testing.T, found *provedLine) {
	ctx := context.Background()
	bk, parent, d, a := provedBook(t, found)
	outsideCert(t, bk, d, func(c *proofcheck.Cert) {
		tr := c.Covered[0].Tree
		tr.Move = game.NewMove(tr.Move.At(0))
	})
	ok, err := bk.ConfirmProof(ctx, parent, a)
	if err != nil || ok {
		t.Fatalf("ConfirmProof on a broken certificate: %v, %v; want false", ok, err)
	}
	if st := storedProof(t, bk, parent, a).Status; st == c6book.StatusProved {
		t.Fatal("still stored proved after ConfirmProof")
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// The digest's own row deleted by hand: the proofs show unchecked, the
// program's writes go on, and check stores the row again.
func TestDigestRowDeleted(t *testing.T) {
	bk := newBook(t, game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1})
	add(t, bk, "e5 d4f6 a1a2 e4e6 a3a4 e3e7 a5a6") // Black's five: proved
	wantChecked(t, bk, true)
	outside(t, bk, "DELETE FROM proof_digest")
	wantChecked(t, bk, false)
	add(t, bk, "e5 d4f6 a1a2 e4e6 a9a8")
	wantChecked(t, bk, false)
	if rep := mustCheck(t, bk); !rep.Recorded {
		t.Fatal("check did not record the digest")
	}
	wantChecked(t, bk, true)
}

// The result of StoreVerdict's check reaches Prove's closing check
// (checkSource with the book's checked certificates) while the verdict row
// holds the bytes it checked, and only then: not after the row changed
// outside the program, and never for Book.Check's source.
func TestClosingCheckReusesStoreCheck(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	var found provedLine
	bk, _, d, _ := provedBook(t, &found)
	node := func(src *checkSource) *proofcheck.Node {
		t.Helper()
		n, err := src.Node(ctx, int64(d))
		if err != nil {
			t.Fatal(err)
		}
		if n.Cert == nil {
			t.Fatal("no certificate")
		}
		return n
	}
	if node(&checkSource{bk: bk, checked: &bk.checked}).Checked == nil {
		t.Fatal("the closing check does not get StoreVerdict's result")
	}
	if node(&checkSource{bk: bk}).Checked != nil {
		t.Fatal("Book.Check's source hands over a result")
	}
	outsideCert(t, bk, d, func(c *proofcheck.Cert) {
		tr := c.Covered[0].Tree
		tr.Move = game.NewMove(tr.Move.At(0))
	})
	if node(&checkSource{bk: bk, checked: &bk.checked}).Checked != nil {
		t.Fatal("a certificate changed outside the program comes with the result of the check of the old one")
	}
}
