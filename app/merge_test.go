package main

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/game"
	"c6book/internal/forgedbook"
)

// File → Merge book: the other book's proved position arrives proved, its
// forged certificate is refused, and the summary dialog says so, naming
// the line and the reason.
func TestMergeSummaryShowsRefusedVerdict(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	other := filepath.Join(dir, "other.c6book")
	forged := forgedbook.Write(t, other)
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
	c6turns := func(s string) []game.Move {
		ms, err := game.ParseTurns(game.Connect6(), s)
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
