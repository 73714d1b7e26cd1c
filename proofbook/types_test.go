package proofbook

import (
	"encoding/json"
	"testing"

	"c6book"
)

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
