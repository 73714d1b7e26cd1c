package main

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
)

// runScript (on its own goroutine, never the UI's) does what --show-proof
// and --tab ask once the shown position is loaded and no work runs: Show
// proof, N steps into it; the tab named. It gives up after a minute.
func (wa *workbenchApp) runScript(o options) {
	if o.showProof < 0 && o.tab == "" {
		return
	}
	wait := func(cond func() bool) bool {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			ok := false
			fyne.DoAndWait(func() { ok = cond() })
			if ok {
				return true
			}
		}
		return false
	}
	s := wa.wb.Session()
	idle := func() bool {
		return s.Cursor().Loaded() && s.Busy() == 0 && !wa.wb.Prover().Running()
	}
	if !wait(idle) {
		return
	}
	if o.showProof >= 0 {
		fyne.DoAndWait(wa.wb.ShowProof)
		if !wait(func() bool { return s.ProofShown() != nil || !s.ProofBusy() && s.Busy() == 0 }) {
			return
		}
		fyne.DoAndWait(func() { s.ProofStep(o.showProof) })
	}
	if o.tab != "" {
		fyne.DoAndWait(func() { wa.wb.SelectTab(strings.TrimSpace(o.tab)) })
	}
}

// parseWindowSize reads --window's "WxH" (false when empty or not a size).
func parseWindowSize(s string) (fyne.Size, bool) {
	var w, h int
	if _, err := fmt.Sscanf(s, "%dx%d", &w, &h); err != nil || w < 200 || h < 200 {
		return fyne.Size{}, false
	}
	return fyne.NewSize(float32(w), float32(h)), true
}
