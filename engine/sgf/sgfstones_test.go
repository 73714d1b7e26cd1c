package sgf

import (
	"strings"
	"testing"

	"c6book/engine/game"
)

// A game written one stone per node, in SGF points (GameToSGF's) or the
// Connect6 editors' upper-case points (row A at the bottom), reads as the
// same turns as its LittleGolem transcription; a turn left short at the
// end is refused by GameFromSGF and a seminull move for LineFromSGF.
func TestSGFOneStonePerNode(t *testing.T) {
	r := game.Connect6()
	want, err := game.ParseTurns(r, "j10 k11i11 j12l11 i12i10")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		GameToSGF(r, want),
		"(;GM[511]SZ[19];B[JJ];W[KK];W[IK];B[JL];B[LK];W[IL];W[IJ])",
		"(;FF[4]SZ[19];B[jj];W[ki];W[ii];B[jh];B[li];W[ih];W[ij])",
		"(;FF[4]SZ[19];B[j10];W[k11i11];B[j12l11];W[i12i10])",
	} {
		roots, err := ParseSGF(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		_, got, err := GameFromSGF(roots[0], r)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if game.FormatTurns(r, got) != game.FormatTurns(r, want) {
			t.Fatalf("%s: %s, want %s", in, game.FormatTurns(r, got), game.FormatTurns(r, want))
		}
	}
	short := "(;FF[4]SZ[19];B[jj];W[ki];W[ii];B[jh])"
	roots, err := ParseSGF(short)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := GameFromSGF(roots[0], r); err == nil || !strings.Contains(err.Error(), "node 4") {
		t.Fatalf("a game ending in half a turn: %v", err)
	}
	_, line, err := LineFromSGF(roots[0], r)
	if err != nil || len(line) != 3 || line[2].Len() != 1 {
		t.Fatalf("a proof line ending in a seminull move: %s %v", game.FormatTurns(r, line), err)
	}
	for in, msg := range map[string]string{
		"(;SZ[19];B[jj];W[ki];W[ki])":       "twice",
		"(;SZ[19];B[jj];W[ki];W[iiaa])":     "stones",
		"(;SZ[19];B[jj];W[ki];B[aa];W[bb])": "node 2: k11: turn 2: wrong number of stones",
	} {
		roots, err := ParseSGF(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := GameFromSGF(roots[0], r); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error with %q", in, err, msg)
		}
	}
}
