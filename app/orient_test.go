package main

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book/engine/game"
)

// On a real book: the Solved list shows a proved position as the user's
// own line from the root, in the orientation the user entered it, though
// the book lists it in its stable orientation, which differs.
func TestSolvedRowsInUserOrientationRealBook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "o.c6book")})
	wb := ta.wa.wb
	r := game.Connect6()
	base, err := game.ParseTurns(r, "j10 a1a3 j11j12 a5a7 j13k13")
	if err != nil {
		t.Fatal(err)
	}
	// The user enters the line in each orientation in turn, until one
	// whose book listing is not in the user's orientation.
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		user := make([]game.Move, len(base))
		for i, m := range base {
			user[i] = r.TransformMove(sym, m)
		}
		wb.Cursor().GoToLine(nil)
		for _, m := range user {
			wb.Cursor().PlayMove(m)
		}
		ta.pumpUntil("the position", func() bool { return wb.Cursor().Loaded() && wb.Session().Busy() == 0 })
		if sym == 0 {
			wb.Prover().Verify()
			ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
			if v := wb.Cursor().Verdict(); v == nil || !v.Proved() {
				t.Fatalf("verdict %+v", v)
			}
		}
		stable, err := wb.Session().Store().Proved(t.Context(), game.Black, 1, 100) // (the book as listed)
		if err != nil || len(stable) == 0 {
			t.Fatalf("the book lists %d proved positions (%v)", len(stable), err)
		}
		// The proved positions of the line (the verified one, and those
		// above it the book proves through it), as the book lists them and
		// as the user entered them.
		listed, mine := map[int]string{}, map[int]string{}
		for _, e := range stable {
			listed[len(e.Line)] = game.FormatTurns(r, e.Line)
			mine[len(e.Line)] = game.FormatTurns(r, user[:len(e.Line)])
		}
		if listed[len(user)] == mine[len(user)] {
			continue // the book's own orientation: proves nothing here
		}
		wb.LoadSolved()
		ta.pumpUntil("the Solved list", func() bool { return len(wb.Solved()) == len(stable) })
		for _, e := range wb.Solved() {
			if got, want := game.FormatTurns(r, e.Line), mine[len(e.Line)]; got != want {
				t.Fatalf("Solved row %q, the user's line %q (the book lists %q)", got, want, listed[len(e.Line)])
			}
		}
		t.Logf("orientation %d: the book lists %q, the row shows %q", sym, listed[len(user)], mine[len(user)])
		return
	}
	t.Fatal("every orientation is the book's: the test means nothing")
}
