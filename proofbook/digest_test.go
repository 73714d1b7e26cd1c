package proofbook

import (
	"context"
	"database/sql"
	"strconv"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
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
	t.Run("prove rechecks a certificate", func(t *testing.T) { testProveRechecksCert(t, &found) })
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
// auto-pilot), marking disproved and back, moves added and removed, an
// import of games that marks game ends proved, λ3 items. No false alarm.
func TestDigestKeptByWrites(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk := newBook(t, r)
	id := add(t, bk, "e5 d4f6")
	res, err := prove(ctx, t, bk, id, verify.LocalVerifier{}, game.Black, 3, 30)
	if err != nil {
		t.Fatal(err)
	}
	n, err := bk.CountStatus(ctx, game.Black, c6book.StatusProved, 0)
	if err != nil || n == 0 {
		t.Fatalf("prove (%s, %d calls) stored no proof: %d %v", res.Status, res.Calls, n, err)
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

// prove re-checks a stored proof before it reports it: a status flipped
// to proved by hand, or a certificate changed by hand, is not reported as
// proved at once; the rows are derived again and the auto-pilot works.
func TestProveRechecksStoredProof(t *testing.T) {
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
		res, err := prove(ctx, t, bk, id, verify.LocalVerifier{}, game.Black, 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		if res.Calls == 0 {
			t.Fatalf("prove reported %q with no verifier call on a status flipped by hand", res.Status)
		}
	})
}

// testProveRechecksCert: prove re-checks a certificate changed by hand.
func testProveRechecksCert(t *testing.T, found *provedLine) {
	ctx := context.Background()
	bk, parent, d, a := provedBook(t, found)
	outsideCert(t, bk, d, func(c *proofcheck.Cert) {
		tr := c.Covered[0].Tree
		tr.Move = game.NewMove(tr.Move.At(0))
	})
	res, err := prove(ctx, t, bk, parent, verify.LocalVerifier{}, a, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls == 0 {
		t.Fatalf("prove reported %q with no verifier call on a broken certificate", res.Status)
	}
	if res.Status == "proved" {
		if _, err := proofcheck.CheckBook(ctx, &checkSource{bk: bk}, []proofcheck.Root{{ID: int64(parent), Attacker: a}}, nil); err != nil {
			t.Fatalf("prove says proved, proofcheck: %v", err)
		}
	}
}

// prove's "added" counts the positions this run stored, not those another
// writer stored meanwhile.
func TestProveAddedIsItsOwn(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk := newBook(t, r)
	id := add(t, bk, "e5 d4f6")
	other, err := Open(ctx, bk.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	countAll := func() int {
		var n int
		if err := bk.r.QueryRow("SELECT count(*) FROM position").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Another writer adds a line during every verifier call.
	theirs := 0
	hook := verifierFunc(func(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
		before := countAll()
		line := []game.Move{game.NewMove(game.Square(theirs%9), game.Square(9+theirs%9)), game.NewMove(game.Square(72+theirs%9), game.Square(63+theirs%9))}
		if theirs%9 == 0 {
			line = []game.Move{game.NewMove(game.Square(80 - theirs/9))}
		}
		if _, err := other.AddLine(ctx, line); err != nil {
			return verify.Verdict{}, err
		}
		theirs += countAll() - before
		return verify.Verify(ctx, b, opts, progress)
	})
	before := countAll()
	res, err := prove(ctx, t, bk, id, hook, game.Black, 2, 6)
	if err != nil {
		t.Fatal(err)
	}
	if theirs == 0 || res.Calls == 0 {
		t.Fatalf("the other writer added %d positions over %d calls", theirs, res.Calls)
	}
	if mine := countAll() - before - theirs; res.Added != mine {
		t.Fatalf("prove says %d positions added; it added %d (the other writer %d)", res.Added, mine, theirs)
	}
}

type verifierFunc func(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error)

func (f verifierFunc) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	return f(ctx, b, opts, progress)
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
