package c6book

import (
	"strings"
	"testing"
)

// Each auto-pilot outcome and stuck reason says itself once, distinctly:
// the workbench and the CLI print these words (a status without a case
// would print its bare bytes, and two alike would be indistinguishable).
func TestDescribe(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range []ProveStatus{ProveProved, ProveFailed, ProveBudget, ProveStuck, ProveStopped, ProveError} {
		d := s.Describe()
		if d == "" || seen[d] {
			t.Fatalf("%q: description %q empty or repeated", s, d)
		}
		seen[d] = true
	}
	if d := ProveStuck.Describe(); !strings.HasPrefix(d, "stuck: ") {
		t.Fatalf("ProveStuck says %q", d)
	}
	for _, r := range []StuckReason{StuckHeld, StuckDeadEnd} {
		d := r.Describe()
		if d == string(r) || seen[d] {
			t.Fatalf("%q: description %q not its own", r, d)
		}
		seen[d] = true
	}
}
