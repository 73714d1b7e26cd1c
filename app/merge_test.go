package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
	"c6book/proofcheck"
)

// forgedBook writes a Connect6 book at path with a proved position (Black
// has two open fours: the verifier's certified verdict) and a position
// whose certificate was forged in the file after it was stored (a block
// "refuted" by a strategy that does not win). It returns the forged
// position's line.
func forgedBook(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	r := engine.Connect6()
	bk, err := proofbook.Create(ctx, path, r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	store := func(line string, v func(b *engine.Board, sym int) c6book.Verdict) proofbook.PosID {
		ms, err := engine.ParseTurns(r, line)
		if err != nil {
			t.Fatal(err)
		}
		l, err := bk.AddLine(ctx, ms)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := engine.Replay(r, ms)
		_, sym := b.CanonicalKey()
		id := l.IDs[len(l.IDs)-1]
		if _, err := bk.StoreVerdict(ctx, id, v(b, sym)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	store("j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15", func(b *engine.Board, sym int) c6book.Verdict {
		v, err := engine.Verify(ctx, b, engine.VerifyOptions{Lambda: 2, Workers: 1, Limits: engine.Limits{MaxNodes: 1000}}, nil)
		if err != nil || v.Status != engine.StatusProved {
			t.Fatalf("the won position: %v %v", v.Status, err)
		}
		return c6book.FromEngine(r, sym, v, 2)
	})
	// Black's live four on row 10: White's three blocks are left open.
	const forged = "j10 a19c19 c10d10 e19g19 c4d4 i19k19 e4c7 m19o19 d7e7 q19s19 e10f10"
	var unsolved []engine.Move
	id := store(forged, func(b *engine.Board, sym int) c6book.Verdict {
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
	a1b1, _ := engine.ParseMove(r, "a1b1")
	bad := proofcheck.Cert{Attacker: engine.Black, Unsolved: unsolved[1:],
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

// File → Merge book: the other book's proved position arrives proved, its
// forged certificate is refused, and the summary dialog says so, naming
// the line and the reason.
func TestMergeSummaryShowsRefusedVerdict(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	other := filepath.Join(dir, "other.c6book")
	forged := forgedBook(t, other)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	ta.wa.mergeBookFile(other)
	ta.pumpUntil("the merge", func() bool { return ta.wa.busy() == 0 })
	var texts []string
	for _, o := range ta.wa.win.Canvas().Overlays().List() {
		for _, l := range test.LaidOutObjects(o) {
			if w, ok := l.(*widget.Label); ok {
				texts = append(texts, w.Text)
			}
		}
	}
	got := strings.Join(texts, "\n")
	t.Log(got)
	for _, want := range []string{"1 verdict imported", "1 verdict REFUSED", "certificate does not check", "e10f10"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the merge summary does not say %q:\n%s", want, got)
		}
	}
	// The forged position is in the book, not proved; the other is proved.
	wb := ta.wa.wb
	c6turns := func(s string) []engine.Move {
		ms, err := engine.ParseTurns(engine.Connect6(), s)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	wb.Cursor().GoToLine(c6turns(forged))
	if !wb.Cursor().Info().Found || wb.Cursor().Verdict() != nil {
		t.Fatalf("the forged position after the merge: found %v, verdict %+v", wb.Cursor().Info().Found, wb.Cursor().Verdict())
	}
	wb.Cursor().GoToLine(c6turns("j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19"))
	if st := wb.Cursor().Info().Status; st != c6book.StatusProved {
		t.Fatalf("the proved position after the merge: %v", st)
	}
}

// The File menu holds the three items; a read-only book cannot take a
// merge.
func TestTravelMenuItems(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	items := map[string]bool{}
	for _, it := range ta.wa.win.MainMenu().Items[0].Items {
		items[it.Label] = it.Disabled
	}
	for _, l := range []string{"Merge book…", "Save this subtree as a book…", "Export proof as SGF…"} {
		if disabled, ok := items[l]; !ok || disabled {
			t.Fatalf("File menu item %q: present %v, disabled %v", l, ok, disabled)
		}
	}
}
