package proofbook

import (
	"encoding/json"
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

// A mark's stored form (position.marks is its JSON) keeps its bytes: the
// shape is written by name.
func TestMarkJSON(t *testing.T) {
	ms := []Mark{{Square: 10, Text: "A"}, {Square: 11, Shape: c6book.MarkCircle}, {Square: 12, Shape: c6book.MarkSelect, Text: "x"}}
	data, err := json.Marshal(ms)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"sq":10,"text":"A"},{"sq":11,"shape":"circle"},{"sq":12,"shape":"select","text":"x"}]`
	if string(data) != want {
		t.Fatalf("marks JSON %s, want %s", data, want)
	}
	var back []Mark
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for i := range ms {
		if back[i] != ms[i] {
			t.Fatalf("mark %d read back as %+v, want %+v", i, back[i], ms[i])
		}
	}
}
