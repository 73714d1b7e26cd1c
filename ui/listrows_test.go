package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestListKeepsItsRows: a keyList makes its rows once. fyne's list asks
// for a new row at each Refresh (to measure it) and drops the rows it no
// longer shows; each row made anew is put in the compact theme, which
// clears fyne's text measures for the whole window. Fails if a Refresh,
// ScrollTo or UnselectAll makes rows again, or if a row given again is
// shown twice (two visible rows with one text) or not updated.
func TestListKeepsItsRows(t *testing.T) {
	test.NewTempApp(t)
	n, made := 30, 0
	l := (&Workbench{}).newList(
		func() int { return n },
		func() fyne.CanvasObject { made++; return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(fmt.Sprintf("row %d", i)) })
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(200, 300))
	l.Refresh()
	first := made
	// The Replies list between two positions: a short list, a long one
	// scrolled to one row and another. The first round makes the rows a
	// jump of the scroll needs at once; the second makes none.
	round := func() {
		for k := 0; k < 40; k++ {
			n = 3 + (k%2)*27
			l.Refresh()
			l.ScrollTo(k % n)
			l.UnselectAll()
		}
	}
	round()
	warm := made
	round()
	if made != warm || warm > 3*first {
		t.Errorf("rows made: %d for the first refresh, %d after a round of 40, %d after a second", first, warm, made)
	}
	// Scrolled to the top: every row shown has its own text, and no text twice.
	l.ScrollToTop()
	seen := map[string]bool{}
	shown := 0
	for _, o := range test.LaidOutObjects(w.Content()) {
		lab, ok := o.(*widget.Label)
		if !ok || !lab.Visible() || lab.Position().Y < 0 {
			continue
		}
		if lab.Text == "" || seen[lab.Text] {
			t.Errorf("a row shows %q (seen before: %v)", lab.Text, seen[lab.Text])
		}
		seen[lab.Text] = true
		shown++
	}
	if shown < 5 || !seen["row 0"] {
		t.Errorf("%d rows shown (%v), want row 0 and more than 5", shown, seen)
	}
}
