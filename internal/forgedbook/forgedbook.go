// Package forgedbook writes, for tests, a Connect6 book whose file holds
// a proved position and a position whose certificate was forged after it
// was stored: what a merge (or a check) must refuse.
package forgedbook

import (
	"context"
	"database/sql"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
	"c6book/proofcheck"
)

// Write writes a Connect6 book at path with a proved position (Black
// has two open fours: the verifier's certified verdict) and a position
// whose certificate was forged in the file after it was stored (a block
// "refuted" by a strategy that does not win). It returns the forged
// position's line.
func Write(t testing.TB, path string) string {
	t.Helper()
	ctx := context.Background()
	r := game.Connect6()
	bk, err := proofbook.Create(ctx, path, r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	store := func(line string, v func(b *board.Board, sym int) c6book.Verdict) proofbook.PosID {
		ms, err := game.ParseTurns(r, line)
		if err != nil {
			t.Fatal(err)
		}
		l, err := bk.AddLine(ctx, ms)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := board.Replay(r, ms)
		_, sym := b.CanonicalKey()
		id := l.IDs[len(l.IDs)-1]
		if _, err := bk.StoreVerdict(ctx, id, v(b, sym)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	store("j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15", func(b *board.Board, sym int) c6book.Verdict {
		v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 1000}}, nil)
		if err != nil || v.Status != verify.StatusProved {
			t.Fatalf("the won position: %v %v", v.Status, err)
		}
		return c6book.FromEngine(r, sym, v, 2)
	})
	// Black's live four on row 10: White's three blocks are left open.
	const forged = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19 e10f10"
	var unsolved []game.Move
	id := store(forged, func(b *board.Board, sym int) c6book.Verdict {
		a := b.ToMove().Opp()
		normal, relaxed := b.CriticalDefences(a)
		v := c6book.Verdict{Attacker: a, Status: c6book.StatusOpen, Order: 1, Lambda: 2, Engine: "test", Cert: &proofcheck.Cert{Attacker: a}}
		for _, m := range append(normal, relaxed...) {
			mc := proofbook.ToCanonical(r, sym, m)
			v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: mc, Reason: "budget"})
			v.Cert.Unsolved = append(v.Cert.Unsolved, mc)
		}
		unsolved = v.Cert.Unsolved
		return v
	})
	a1b1, _ := game.ParseMove(r, "a1b1")
	bad := proofcheck.Cert{Attacker: game.Black, Unsolved: unsolved[1:],
		Covered: []proofcheck.CoveredCert{{Move: unsolved[0], Tree: &proofcheck.Tree{Move: a1b1}}}}
	data, err := bad.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE verdict SET cert = ? WHERE pos = ?", data, int64(id)); err != nil {
		t.Fatal(err)
	}
	return forged
}

// A merge stores the other book's proved verdict and refuses the one whose
// certificate was forged in the file, with a typed reason (the checker's
