package autopilot

import (
	"testing"

	"c6book"
	"c6book/engine"
)

// The job search's outcome becomes the auto-pilot's: a "disproved" search
// is the auto-pilot's dead end ("failed"), the others keep their bytes.
func TestProveStatus(t *testing.T) {
	for _, tc := range []struct {
		in   engine.SearchStatus
		want c6book.ProveStatus
	}{
		{engine.SearchProved, c6book.ProveProved},
		{engine.SearchDisproved, c6book.ProveFailed},
		{engine.SearchBudget, c6book.ProveBudget},
		{engine.SearchStuck, c6book.ProveStuck},
		{engine.SearchStopped, c6book.ProveStopped},
		{engine.SearchError, c6book.ProveError},
		{"", ""},
	} {
		if got := proveStatus(tc.in); got != tc.want {
			t.Errorf("proveStatus(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
