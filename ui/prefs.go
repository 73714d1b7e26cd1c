package ui

import (
	"strconv"
	"strings"
)

// SetAutoJobs sets the auto-pilot's verifier jobs at once (the Prove
// tab's jobs entry; the Preferences' "Verifier jobs").
func (wb *Workbench) SetAutoJobs(n int) {
	if t := strconv.Itoa(max(1, n)); wb.ui.auto.jobsE.Text != t {
		wb.ui.auto.jobsE.SetText(t)
	}
}

// AutoJobs is the auto-pilot's jobs as the Prove tab's entry holds them
// (0 when it holds no number).
func (wb *Workbench) AutoJobs() int {
	n, _ := strconv.Atoi(strings.TrimSpace(wb.ui.auto.jobsE.Text))
	return n
}

// Lambda is the λ chosen for Verify, as the workbench shows it (0 when
// none is).
func (wb *Workbench) Lambda() int {
	n, _ := strconv.Atoi(strings.TrimPrefix(wb.ui.lambda.Selected, "λ"))
	return n
}
