package jobqueue

import (
	"encoding/json"
	"reflect"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// The options that decide a verdict reach the worker unchanged: a job is
// encoded, sent as JSON and set up again with the same λ, tolerance, free
// policy, seminull options and solver limits (Workers, Gate and Priority
// are the worker's own and do not travel).
func TestJobCarriesVerifyOptions(t *testing.T) {
	r := game.Connect6()
	b, err := board.SetUp(r, []game.Square{game.Square(r.M*(r.N/2) + r.M/2)}, nil, game.White)
	if err != nil {
		t.Fatal(err)
	}
	want := verify.VerifyOptions{Lambda: 3, Tolerance: 1, Free: board.FreePolicy(1), ExpandSeminull: true, SeminullItemFrom: 5,
		Limits: threat.Limits{MaxNodes: 12345, MaxDepth: 7}}
	j, _ := newJob(b, want)
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	var back jobSpec
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	_, got, err := back.board()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("options after the queue %+v, want %+v", got, want)
	}
}
