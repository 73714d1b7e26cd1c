package proofbook

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"c6book"
	"c6book/engine"
	"c6book/internal/testenv"
)

// The λ3 fixtures of testdata/lambda3.tsv: the auto-pilot proves each
// position at λ3 through a closed seminull item (a proved position whose
// verdict leaves a seminull move open: the seminull position proved with
// its zone, and every full move inside the zone proved on its own), with
// the order the file gives; the book passes check (proofcheck), and every
// position the book calls proved is played out by brute force against
// every defender reply (the oracle of lambda3_test.go: no zone trusted).
func TestLambda3Fixtures(t *testing.T) {
	testenv.Heavy(t)
	f, err := os.Open("testdata/lambda3.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 6 {
			t.Fatalf("testdata/lambda3.tsv: %q: want 6 fields or more", line)
		}
		r, err := engine.ParseRules(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		a, err := engine.ParseColor(fs[2])
		if err != nil {
			t.Fatal(err)
		}
		nodes, err1 := strconv.ParseInt(fs[3], 10, 64)
		calls, err2 := strconv.Atoi(fs[4])
		order, err3 := strconv.Atoi(fs[5])
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("testdata/lambda3.tsv: %q: bad numbers", line)
		}
		n++
		bk := newBook(t, r)
		id := add(t, bk, fs[1])
		opts := smallProve(a, 3, calls)
		opts.Verify.Limits.MaxNodes = nodes
		res, err := bk.Prove(ctx, id, engine.LocalVerifier{}, opts, nil)
		if err != nil {
			t.Fatalf("%s %q: %v", r, fs[1], err)
		}
		if res.Status != "proved" || res.Proof.Status != c6book.StatusProved || res.Proof.Order != order {
			t.Fatalf("%s %q for %s: %s, book status %s order %d; want proved, order %d", r, fs[1], a, res.Status, res.Proof.Status, res.Proof.Order, order)
		}
		closed := closedSeminull(t, bk, a)
		if len(closed) == 0 {
			t.Fatalf("%s %q: proved without a closed seminull item", r, fs[1])
		}
		rep := mustCheck(t, bk)
		for _, pos := range provedPositions(t, bk, a) {
			cb, err := bk.Board(ctx, pos)
			if err != nil {
				t.Fatal(err)
			}
			o := &oracle{bk: bk, a: a, memo: map[string]bool{}}
			if err := o.wins(ctx, pos, cb, nil); err != nil {
				t.Fatalf("%s %q: the book calls position %d proved for %s, but: %v", r, fs[1], pos, a, err)
			}
		}
		t.Logf("%s %q for %s: proved (order %d) in %d calls, %d closed seminull items, %d proofs re-checked by proofcheck and played out",
			r, fs[1], a, res.Proof.Order, res.Calls, len(closed), rep.Proofs)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("testdata/lambda3.tsv: no fixture")
	}
}
