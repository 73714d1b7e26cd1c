package c6book

import (
	"encoding/json"
	"reflect"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

func TestStatusJSON(t *testing.T) {
	for st := StatusUnknown; st <= StatusDisproved; st++ {
		data, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		var back Status
		if err := json.Unmarshal(data, &back); err != nil || back != st || string(data) != `"`+st.String()+`"` {
			t.Fatalf("%v: %s -> %v (%v)", st, data, back, err)
		}
	}
	var st Status
	if err := json.Unmarshal([]byte(`"won"`), &st); err == nil {
		t.Fatal("an unknown status name was read")
	}
}

// A verdict from the verifier maps into any frame and back unchanged, and
// its JSON (the stored form) reads back the same.
func TestVerdictTransformAndJSON(t *testing.T) {
	r, _ := game.ParseRules("9,9,5,2,1")
	b, err := board.ReplayText(r, "e5 e4e6 d5d4")
	if err != nil {
		t.Fatal(err)
	}
	tol, _ := b.DefenderDeficit(b.ToMove().Opp())
	ev, err := verify.Verify(t.Context(), b, verify.VerifyOptions{Lambda: 2, Workers: 1, Tolerance: tol, Limits: threat.Limits{MaxNodes: 20000}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := FromEngine(r, 0, ev, 2)
	if v.Status != StatusOpen || len(v.Unsolved) == 0 || v.Cert == nil || len(v.Covered) != len(ev.Covered) {
		t.Fatalf("converted verdict: %+v", v)
	}
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		w := FromEngine(r, sym, ev, 2)
		back := w.Transform(r, game.InverseSymmetry(sym))
		v2 := v
		back.Cert, v2.Cert = nil, nil
		if !reflect.DeepEqual(back, v2) {
			t.Fatalf("symmetry %d and back:\n%+v\n%+v", sym, back, v2)
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var read Verdict
	if err := json.Unmarshal(data, &read); err != nil {
		t.Fatal(err)
	}
	v.Cert = nil
	if !reflect.DeepEqual(read, v) {
		t.Fatalf("JSON round trip:\n%+v\n%+v", read, v)
	}
}
