package proofbook

import (
	"encoding/json"
	"fmt"

	"c6book"
	"c6book/engine"
)

// The stored verdict is c6book's domain type; these aliases keep the book's
// names.
type (
	// Verdict is the stored form of a verifier verdict (canonical frame).
	Verdict = c6book.Verdict
	// Unsolved is a defender move the verifier could not refute.
	Unsolved = c6book.Unsolved
	// Zone is the zone of a refuted seminull reply.
	Zone = c6book.Zone
)

// FromEngine converts an engine verdict for a board whose CanonicalKey
// symmetry is sym into the stored form (canonical frame): c6book.FromEngine.
func FromEngine(r engine.Rules, sym int, v engine.Verdict, lambda int) Verdict {
	return c6book.FromEngine(r, sym, v, lambda)
}

func marshalVerdict(v Verdict) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func unmarshalVerdict(data string) (Verdict, error) {
	var v Verdict
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return Verdict{}, fmt.Errorf("stored verdict: %w", err)
	}
	return v, nil
}
