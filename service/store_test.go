package service

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"c6book"
	"c6book/autopilot"
	"c6book/bookfile"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// A shape mark imported from SGF is drawn as a glyph; labelling another
// square stores the board's marks back, and the shape must stay a shape
// (exported as CR/TR, not as an LB label with the glyph).
func TestMarkShapeSurvivesLabelToggle(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk, err := proofbook.Create(ctx, filepath.Join(t.TempDir(), "b.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if _, err := bookfile.ImportSGF(ctx, bk, "(;FF[4]SZ[19];B[jj]CR[aa]TR[bb]LB[cc:x])"); err != nil {
		t.Fatal(err)
	}
	s := Wrap(bk).Store(StoreOptions{})
	turns, err := game.ParseTurns(r, "j10")
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.Replay(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Position(ctx, b, game.Black)
	if err != nil || len(p.Marks) != 3 {
		t.Fatalf("position marks %v, %v", p.Marks, err)
	}
	// What the workbench's label toggle stores: the shown marks and one more.
	marks := map[game.Square]string{}
	for k, v := range p.Marks {
		marks[k] = v
	}
	marks[r.Sq(5, 5)] = "A"
	if err := s.SetMarks(ctx, b, marks); err != nil {
		t.Fatal(err)
	}
	id, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := bookfile.ExportSGF(ctx, bk, id, &out, bookfile.ExportOptions{Line: turns}); err != nil {
		t.Fatal(err)
	}
	sgf := out.String()
	for _, want := range []string{"CR[aa]", "TR[bb]", ":x]", ":A]"} {
		if !strings.Contains(sgf, want) {
			t.Errorf("export lacks %s: %s", want, sgf)
		}
	}
	for _, glyph := range []string{"○", "△"} {
		if strings.Contains(sgf, glyph) {
			t.Errorf("export writes the shape glyph %s as a label: %s", glyph, sgf)
		}
	}
}

// A move the workbench stores reaches a position linked to its twins; one
// proved by its twin tells the workbench which stone its twin lacks, in
// the orientation of the board asked about.
func TestStorePositionByTwin(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	bk, err := proofbook.Create(ctx, filepath.Join(t.TempDir(), "t.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	line := func(s string) []game.Move {
		turns, err := game.ParseTurns(r, s)
		if err != nil {
			t.Fatal(err)
		}
		return turns
	}
	// N: White's seminull a3 (Black to move, one stone short), proved.
	ln, err := bk.AddProofLine(ctx, line("e5 a1a2 e4d4 a3"))
	if err != nil {
		t.Fatal(err)
	}
	opts := autopilot.ProveOptions{Attacker: game.Black, MaxCalls: 10, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}}
	if res, err := autopilot.Prove(ctx, bk, ln.IDs[len(ln.IDs)-1], verify.LocalVerifier{}, opts, nil); err != nil || res.Status != "proved" {
		t.Fatalf("N: %+v %v", res, err)
	}
	// N+i9 as the workbench stores it: a move played on the board (here
	// turned by a symmetry), linked to its twin as it is stored.
	const sym = 3
	pb, err := board.Replay(r, line("e5 a1a2 e4d4"))
	if err != nil {
		t.Fatal(err)
	}
	st := Wrap(bk).Store(StoreOptions{})
	if _, err := st.AddMove(ctx, pb.Transformed(sym), r.TransformMove(sym, line("a3i9")[0])); err != nil {
		t.Fatal(err)
	}
	b, err := board.ReplayPartial(r, line("e5 a1a2 e4d4 a3i9"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Position(ctx, b.Transformed(sym), game.Black)
	if err != nil {
		t.Fatal(err)
	}
	if want := r.Transform(sym, r.Sq(8, 8)); p.Status != c6book.StatusProved || !p.ByTwin || p.TwinStone != want {
		t.Fatalf("status %s, by twin %v, stone %s; want proved by its twin without %s", p.Status, p.ByTwin,
			game.SquareName(r, p.TwinStone), game.SquareName(r, want))
	}
}
