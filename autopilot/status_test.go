package autopilot

import (
	"testing"

	"c6book"
	"c6book/engine/jobsearch"
)

// The job search's outcome becomes the auto-pilot's: a "disproved" search
// is the auto-pilot's dead end ("failed"), the others keep their bytes.
func TestProveStatus(t *testing.T) {
	for _, tc := range []struct {
		in   jobsearch.SearchStatus
		want c6book.ProveStatus
	}{
		{jobsearch.SearchProved, c6book.ProveProved},
		{jobsearch.SearchDisproved, c6book.ProveFailed},
		{jobsearch.SearchBudget, c6book.ProveBudget},
		{jobsearch.SearchStuck, c6book.ProveStuck},
		{jobsearch.SearchStopped, c6book.ProveStopped},
		{jobsearch.SearchError, c6book.ProveError},
		{"", ""},
	} {
		if got := proveStatus(tc.in); got != tc.want {
			t.Errorf("proveStatus(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
