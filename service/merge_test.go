package service

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/forgedbook"
)

// A merge stores the other book's proved verdict and refuses the one whose
// certificate was forged in the file, with a typed reason (the checker's
// error kept), naming its line; nothing is read from the English summary.
func TestMergeRefusesTamperedCertificate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	other := filepath.Join(dir, "other.c6book")
	forged := forgedbook.Write(t, other)
	bk, err := Create(ctx, filepath.Join(dir, "b.c6book"), game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	res, err := bk.Merge(ctx, other, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdicts != 1 || res.RefusedCount != 1 || len(res.Refused) != 1 {
		t.Fatalf("merge: %d verdicts stored, %d refused (%+v); want 1 and 1", res.Verdicts, res.RefusedCount, res.Refused)
	}
	rf := res.Refused[0]
	if rf.Why != RefusedCertificate || rf.Attacker != game.Black {
		t.Fatalf("refused %+v: want the certificate, for Black", rf)
	}
	if !strings.HasSuffix(rf.Line(), " e10f10") || len(strings.Fields(rf.Line())) != len(strings.Fields(forged)) {
		t.Fatalf("refused line %q, want the forged line %q", rf.Line(), forged)
	}
	var ce *c6book.CertError
	if !errors.As(res.Summary.Refused[0].Err, &ce) {
		t.Fatalf("the store's error %v is not a certificate error", res.Summary.Refused[0].Err)
	}
	// The forged position arrived without its verdict.
	b, err := board.ReplayText(game.Connect6(), forged)
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bk.Proofbook().Position(ctx, id)
	if err != nil || p.Verdict != nil {
		t.Fatalf("the forged position after the merge: verdict %+v, %v", p.Verdict, err)
	}
}
