package main

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The splits are where the user left them at the next start (kept at
// quit); a malformed or unknown entry is ignored.
func TestSplitsRemembered(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	o := options{book: filepath.Join(dir, "b.c6book"), flagSet: map[string]bool{}}
	ta := startApp(t, a, o)
	want := map[string]float64{}
	for i, n := range ta.wa.wb.SplitNames() {
		want[n] = 0.3 + 0.05*float64(i)
	}
	if len(want) < 5 {
		t.Fatalf("splits %v", ta.wa.wb.SplitNames())
	}
	ta.wa.wb.SetSplitOffsets(want)
	ta.wa.beginQuit()
	ta.wa.close()

	a.Preferences().SetString(prefSplits, a.Preferences().String(prefSplits)+",bogus=0.5,board=x,panes")
	ta2 := startApp(t, a, o)
	defer ta2.wa.close()
	got := ta2.wa.wb.SplitOffsets()
	for n, w := range want {
		if d := got[n] - w; d > 1e-3 || d < -1e-3 {
			t.Errorf("split %s at %v at the next start, left at %v", n, got[n], w)
		}
	}
	if parseSplits("a=0.5,b=,c")["a"] != 0.5 || len(parseSplits("a=0.5,b=,c")) != 1 {
		t.Fatalf("parseSplits %v", parseSplits("a=0.5,b=,c"))
	}
}
