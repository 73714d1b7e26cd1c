package bookfile

import (
	"c6book/internal/booktest"
	"context"
	"errors"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/prooffixture"
	"c6book/proofbook"
)

// (Moved from proofbook's merge tests with ExportProof; the proof is
// internal/prooffixture's.)

// A proof exported as SGF replays: the SGF reader takes it back with
// every move legal, and it holds the proving move, every reply and the
// winning move after each.
func TestExportProofSGF(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	fix := prooffixture.Store(t, bk)
	booktest.Add(t, bk, prooffixture.P2Line+" h8h9") // a move that proves nothing
	P2, _ := booktest.Locate(t, bk, prooffixture.P2Line)
	var out strings.Builder
	st, err := ExportProof(ctx, bk, P2, game.Empty, &out, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sgf := out.String()
	t.Logf("%+v\n%s", st, sgf)
	if st.Attacker != game.Black || st.Nodes != 7 || st.Leaves != 3 || st.Truncated {
		t.Fatalf("stats %+v, want Black, 7 moves, 3 leaves", st)
	}
	if !strings.Contains(sgf, "certificate (checked by proofcheck)") || !strings.Contains(sgf, "proving move") {
		t.Fatalf("no certificate summary or proving move in the comments")
	}
	back := booktest.NewBook(t, r)
	if _, err := ImportSGFReader(ctx, back, strings.NewReader(sgf), SGFImportOptions{Partial: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range fix {
		booktest.Locate(t, back, f.Line)
	}
	if _, _, err := back.Locate(ctx, mustReplay(t, r, prooffixture.P2Line+" h8h9")); !errors.Is(err, proofbook.ErrNotFound) {
		t.Fatalf("the move that proves nothing was exported: %v", err)
	}
	// Not proved: refused.
	h, _ := booktest.Locate(t, bk, prooffixture.P2Line+" h8h9")
	if _, err := ExportProof(ctx, bk, h, game.Black, &out, ExportOptions{}); err == nil || !strings.Contains(err.Error(), "not proved") {
		t.Fatalf("export of a position not proved: %v", err)
	}
	// Cut short.
	out.Reset()
	st, err = ExportProof(ctx, bk, P2, game.Black, &out, ExportOptions{MaxNodes: 2})
	if err != nil || !st.Truncated || st.Nodes != 2 {
		t.Fatalf("cut export: %+v %v", st, err)
	}
}

func mustReplay(t *testing.T, r game.Rules, s string) *board.Board {
	t.Helper()
	b, err := board.ReplayText(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
