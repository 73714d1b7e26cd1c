package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A line that fits is shown whole; one too wide keeps its first and last
// turns with "…" between, and fits.
func TestMidEllipsis(t *testing.T) {
	w := func(s string) float32 { return float32(len([]rune(s))) }
	line := "j10 i9k9 i7j9 f2g7 k9k11 k10m11 m13r14 n12o12"
	if got := midEllipsis(line, 100, w); got != line {
		t.Fatalf("a line that fits: %q", got)
	}
	got := midEllipsis(line, 25, w)
	if w(got) > 25 || !strings.HasPrefix(got, "j10 ") || !strings.HasSuffix(got, " n12o12") || !strings.Contains(got, " … ") {
		t.Fatalf("cut to 25: %q", got)
	}
	if got := midEllipsis(line, 3, w); got != "…" {
		t.Fatalf("nothing fits: %q", got)
	}
}

// The Solved list's rows show the whole line from the root when the row is
// wide, cut in the middle when it is narrow.
func TestEntryRowWidths(t *testing.T) {
	test.NewTempApp(t)
	row := newEntryRow()
	line := "j10 i9k9 i7j9 f2g7 k9k11 k10m11 m13r14 n12o12"
	setEntryRow(row, 0, line, "a trap")
	w := test.NewTempWindow(t, row)
	lt := row.(*fyne.Container).Objects[1].(*lineText)
	w.Resize(fyne.NewSize(900, 40))
	if lt.Shown() != line {
		t.Fatalf("wide: %q", lt.Shown())
	}
	w.Resize(fyne.NewSize(260, 40))
	if s := lt.Shown(); s == line || !strings.HasPrefix(s, "j10") || !strings.HasSuffix(s, "n12o12") {
		t.Fatalf("narrow: %q", s)
	}
	if n := row.(*fyne.Container).Objects[2].(*widget.Label); n.Text != "a trap" {
		t.Fatalf("note %q", n.Text)
	}
}
