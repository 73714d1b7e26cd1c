package autopilot

import (
	"bufio"
	"c6book/internal/booktest"
	"c6book/internal/lambda3oracle"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/internal/testenv"
	"c6book/proofbook"
)

// The λ3 fixtures of testdata/lambda3.tsv: the auto-pilot proves each
// position at λ3 through a closed seminull item (a proved position whose
// verdict leaves a seminull move open: the seminull position proved with
// its zone, and every full move inside the zone proved on its own), with
// the order the file gives; the book passes check (proofcheck), and every
// position the book calls proved is played out by brute force against
// every defender reply (internal/lambda3oracle: no zone trusted).
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
		r, err := game.ParseRules(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		a, err := game.ParseColor(fs[2])
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
		bk := booktest.NewBook(t, r)
		id := booktest.Add(t, bk, fs[1])
		opts := smallProve(a, 3, calls)
		opts.Verify.Limits.MaxNodes = nodes
		res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, opts, nil)
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
		rep := booktest.MustCheck(t, bk)
		for _, pos := range lambda3oracle.ProvedPositions(t, bk, a) {
			lambda3oracle.MustWin(ctx, t, bk, a, pos, fmt.Sprintf("%s %q", r, fs[1]))
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

// connect6Lambda3Line is the position of testdata/lambda3-connect6.c6book:
// a Connect6 position (White to move, Black the attacker) found under the
// ladder position 513875 (its first six turns, mirrored into the
// canonical frame) by `c6 book prove --lambda 3 --max-nodes 2000`.
const connect6Lambda3Line = "j10 i8h9 k11j12 g10f11 j7e12 l10l12 l9j11"

// TestLambda3Connect6Fixture: a Connect6 book proof that holds a closed
// seminull item, re-checked from the stored book. The root's λ3 verdict
// leaves seminull moves open (their solver calls ran out of the low
// budget); the book proved each seminull position with its zone and every
// full move inside the zone, so the root is proved with order 3 through
// its verdict. Check re-derives every status from the stored verdicts and
// children and re-checks every certificate with proofcheck. (At 3,000
// nodes a solver call or more the same position proves at order 2: the
// closure is the budget's, not the position's.)
//
// Regenerate (cmd/c6 built as c6):
//
//	c6 book init --book F
//	c6 book prove --book F --turns "j10 i8h9 k11j12 g10f11 j7e12 l10l12 l9j11" --attacker B \
//		--lambda 3 --max-nodes 2000 --workers 1 --jobs 1 --no-queue
//	c6 book backup --book F --to autopilot/testdata/lambda3-connect6.c6book
func TestLambda3Connect6Fixture(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "lambda3-connect6.c6book"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lambda3-connect6.c6book")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bk, err := proofbook.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	r := bk.Rules()
	if r != game.Connect6() {
		t.Fatalf("rules %s, want %s", r, game.Connect6())
	}
	rep := booktest.MustCheck(t, bk)
	if rep.Proofs == 0 {
		t.Fatal("check re-checked no proof")
	}
	b, err := board.NewBoard(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range booktest.Turns(t, r, connect6Lambda3Line) {
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	id, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	pr := p.Proof(game.Black)
	if pr.Status != c6book.StatusProved || pr.Order != 3 || pr.How != c6book.HowVerdict {
		t.Fatalf("%s for B: %s order %d (%s); want proved, order 3, by its verdict", connect6Lambda3Line, pr.Status, pr.Order, pr.How)
	}
	if p.Verdict == nil || p.Verdict.Attacker != game.Black || len(p.Verdict.OpenSeminull) == 0 {
		t.Fatalf("%s: the verdict leaves no seminull move open: %+v", connect6Lambda3Line, p.Verdict)
	}
	closed := closedSeminull(t, bk, game.Black)
	found := false
	for _, c := range closed {
		found = found || c == id
	}
	if !found {
		t.Fatalf("%s (position %d) is not among the proved positions with a closed seminull item %v", connect6Lambda3Line, id, closed)
	}
	var semi []game.Move
	for _, u := range p.Verdict.OpenSeminull {
		semi = append(semi, u.Move)
	}
	t.Logf("%s: proved for B (order 3) through its closed seminull items %s (canonical frame); %d such positions in the book; %d proofs re-checked by proofcheck",
		connect6Lambda3Line, game.FormatTurns(r, semi), len(closed), rep.Proofs)
}
