package bookmerge

import (
	"c6book/internal/booktest"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/idset"
	"c6book/internal/prooffixture"
	"c6book/proofbook"
	"c6book/proofcheck"
)

// proofFixture stores in bk the proof of proofbook's propagation tests
// (internal/prooffixture): the open verdict on A (three blocks) and a
// proved verdict below each block, which prove A and P2 for Black. It
// returns the verdicts by line (the store order) so that a test can store
// them elsewhere.
type fixtureVerdict struct {
	line string
	v    c6book.Verdict
}

func proofFixture(t *testing.T, bk *Book) []fixtureVerdict {
	t.Helper()
	var out []fixtureVerdict
	for _, f := range prooffixture.Store(t, bk) {
		out = append(out, fixtureVerdict{f.Line, f.V})
	}
	return out
}

func reopen(t *testing.T, bk *Book) *Book {
	t.Helper()
	path := bk.Path()
	if err := bk.Close(); err != nil {
		t.Fatal(err)
	}
	nb, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nb.Close() })
	return nb
}

// sameProofs fails unless every position of want's tree (from its root)
// is in got with the same statuses (and the same note).
func sameProofs(t *testing.T, want, got *Book, from PosID) int {
	t.Helper()
	ctx := context.Background()
	var seen idset.Set
	queue := []PosID{from}
	n := 0
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if seen.Has(int64(id)) {
			continue
		}
		seen.Add(int64(id))
		n++
		b, err := want.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		gid, _, err := got.Locate(ctx, b)
		if err != nil {
			t.Fatalf("position %d of the reference is not in the merged book: %v", id, err)
		}
		wp, err := want.Position(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		gp, err := got.Position(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		for i := range wp.Proofs {
			w, g := wp.Proofs[i], gp.Proofs[i]
			if w.Status != g.Status || w.Order != g.Order || w.PN != g.PN || w.DN != g.DN || w.Expert != g.Expert {
				t.Fatalf("position %d (%d): proof %+v, want %+v", gid, id, g, w)
			}
		}
		if wp.Comment != gp.Comment || wp.Label != gp.Label {
			t.Fatalf("position %d: note %q/%q, want %q/%q", gid, gp.Comment, gp.Label, wp.Comment, wp.Label)
		}
		kids, err := want.Edges(ctx, id, game.Empty)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range kids {
			queue = append(queue, k.Child)
		}
	}
	return n
}

// Two books with overlapping trees: the merge adds the other's moves,
// notes, games and verdicts, and the statuses are those that storing the
// same verdicts directly gives. Merging again changes nothing.
func TestMergeOverlappingBooks(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	B := game.Black
	// A: the P2 line, another move (A2) and a note; games 1 and 2.
	a := booktest.NewBook(t, r)
	P2 := booktest.Add(t, a, p2Line)
	booktest.Add(t, a, p2Line+" h8h9")
	if err := a.SetComment(ctx, P2, "mine"); err != nil {
		t.Fatal(err)
	}
	games := map[string][]string{"1": {"j10", "j11k10"}, "2": {"j10", "i9k9", "h8h9"}, "3": {"j10", "k11l12", "i9i8"}}
	if _, err := storeGames(ctx, a, []string{"1", "2"}, games); err != nil {
		t.Fatal(err)
	}
	// B: the proof below A, a note and a label on P2, a disproof flag,
	// games 2 and 3.
	b := booktest.NewBook(t, r)
	fix := proofFixture(t, b)
	bP2, _ := booktest.Locate(t, b, p2Line)
	if err := b.SetComment(ctx, bP2, "theirs"); err != nil {
		t.Fatal(err)
	}
	if err := b.SetLabel(ctx, bP2, "trap"); err != nil {
		t.Fatal(err)
	}
	bX := booktest.Add(t, b, p2Line+" b2b3")
	if err := b.SetDisproved(ctx, bX, B, true); err != nil {
		t.Fatal(err)
	}
	if _, err := storeGames(ctx, b, []string{"2", "3"}, games); err != nil {
		t.Fatal(err)
	}
	booktest.MustCheck(t, b)
	b = reopen(t, b)

	// The reference: A's content with the same verdicts stored directly.
	ref := booktest.NewBook(t, r)
	booktest.Add(t, ref, p2Line+" h8h9")
	booktest.Add(t, ref, p2Line+" b2b3")
	if _, err := storeGames(ctx, ref, []string{"1", "2", "3"}, games); err != nil {
		t.Fatal(err)
	}
	for _, f := range fix {
		id := booktest.Add(t, ref, f.line)
		if _, err := ref.StoreVerdict(ctx, id, f.v); err != nil {
			t.Fatal(err)
		}
	}
	rX, _ := booktest.Locate(t, ref, p2Line+" b2b3")
	if err := ref.SetDisproved(ctx, rX, B, true); err != nil {
		t.Fatal(err)
	}
	rP2, _ := booktest.Locate(t, ref, p2Line)
	if err := ref.SetComment(ctx, rP2, "mine\n\ntheirs\n\nLabel: trap"); err != nil {
		t.Fatal(err)
	}

	var last Progress
	reports := 0
	sum, err := Merge(ctx, a, b.Path(), func(p Progress) { last = p; reports++ })
	if err != nil {
		t.Fatal(err)
	}
	if !last.Final || last.Err != nil || reports == 0 {
		t.Fatalf("last progress report %+v (%d reports)", last, reports)
	}
	t.Logf("summary %+v", sum)
	if sum.Verdicts != len(fix) || sum.RefusedCount != 0 || sum.Uncertified != 0 {
		t.Fatalf("verdicts %d refused %d uncertified %d, want %d, 0, 0", sum.Verdicts, sum.RefusedCount, sum.Uncertified, len(fix))
	}
	if sum.Games != 1 || sum.GamesAlready != 1 || sum.Notes != 1 || sum.Disproofs != 1 || sum.Positions == 0 || sum.Moves == 0 {
		t.Fatalf("summary %+v", sum)
	}
	booktest.MustCheck(t, a)
	if p := proofOf(t, a, P2, B); p.Status != c6book.StatusProved {
		t.Fatalf("P2 after the merge: %+v", p)
	}
	// A keeps its comment and gets B's, and B's label (A had none).
	p, err := a.Position(ctx, P2)
	if err != nil || p.Comment != "mine\n\ntheirs" || p.Label != "trap" {
		t.Fatalf("P2's note %q %q %v", p.Comment, p.Label, err)
	}
	if err := ref.SetComment(ctx, rP2, "mine\n\ntheirs"); err != nil {
		t.Fatal(err)
	}
	if err := ref.SetLabel(ctx, rP2, "trap"); err != nil {
		t.Fatal(err)
	}
	n := sameProofs(t, ref, a, root(ref))
	if n2 := sameProofs(t, a, ref, root(a)); n2 != n {
		t.Fatalf("the merged book has %d positions, the reference %d", n2, n)
	}
	gs, err := a.GameStatsOf(ctx, root(a))
	if err != nil || gs.Games != 3 {
		t.Fatalf("games through the root: %+v %v", gs, err)
	}

	// Again: nothing new.
	again, err := Merge(ctx, a, b.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Positions != 0 || again.Moves != 0 || again.Notes != 0 || again.Verdicts != 0 || again.Games != 0 ||
		again.VerdictsAlready != len(fix) || again.GamesAlready != 2 || again.Disproofs != 0 {
		t.Fatalf("merging again: %+v", again)
	}
	booktest.MustCheck(t, a)
}

// A certificate forged in the other book's file is refused on the way in:
// the summary names its line, the position is not proved, and the rest is
// merged.
func TestMergeRefusesForgedCertificate(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	B := game.Black
	b := booktest.NewBook(t, r)
	fix := proofFixture(t, b)
	// A's certificate claims to refute a block with a strategy that does
	// not win.
	forged := fix[0].line
	fid, _ := booktest.Locate(t, b, forged)
	p, err := b.Position(ctx, fid)
	if err != nil || p.Verdict == nil || p.Verdict.Cert == nil || len(p.Verdict.Cert.Unsolved) < 2 {
		t.Fatalf("no certificate: %v", err)
	}
	c := p.Verdict.Cert
	c.Covered = append(c.Covered, proofcheck.CoveredCert{Move: c.Unsolved[0], Tree: &proofcheck.Tree{Move: mv(t, r, "a1b1")}})
	c.Unsolved = c.Unsolved[1:]
	data, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rawDB(t, b).ExecContext(ctx, "UPDATE verdict SET cert = ? WHERE pos = ?", data, int64(fid)); err != nil {
		t.Fatal(err)
	}
	b = reopen(t, b)

	a := booktest.NewBook(t, r)
	sum, err := Merge(ctx, a, b.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("summary %+v", sum)
	if sum.RefusedCount != 1 || len(sum.Refused) != 1 || sum.Verdicts != len(fix)-1 {
		t.Fatalf("refused %d %+v, stored %d", sum.RefusedCount, sum.Refused, sum.Verdicts)
	}
	ref := sum.Refused[0]
	want := game.FormatTurns(r, booktest.Turns(t, r, forged))
	if ref.Attacker != B || ref.Reason() == "" || ref.Why != RefusedCertificate {
		t.Fatalf("refused %+v", ref)
	}
	// The line names the forged position (in one of its orientations).
	rb, err := board.ReplayText(r, ref.Line())
	if err != nil {
		t.Fatalf("refused line %q: %v", ref.Line(), err)
	}
	wb, _ := board.ReplayText(r, want)
	if k1, _ := rb.CanonicalKey(); k1 != func() uint64 { k, _ := wb.CanonicalKey(); return k }() {
		t.Fatalf("refused line %q, want %q", ref.Line(), want)
	}
	aid, _ := booktest.Locate(t, a, forged)
	ap, err := a.Position(ctx, aid)
	if err != nil || ap.Verdict != nil || ap.Proofs[B-1].Status == c6book.StatusProved {
		t.Fatalf("the forged position in the merged book: %+v %v", ap, err)
	}
	aP2, _ := booktest.Locate(t, a, p2Line)
	if st := proofOf(t, a, aP2, B).Status; st == c6book.StatusProved {
		t.Fatal("P2 proved through a forged certificate")
	}
	for _, f := range fix[1:] {
		id, _ := booktest.Locate(t, a, f.line)
		if st := proofOf(t, a, id, B).Status; st != c6book.StatusProved {
			t.Fatalf("%s: %v, want proved", f.line, st)
		}
	}
	booktest.MustCheck(t, a)
}

// Books of other rules are refused, and nothing changes.
func TestMergeRefusesOtherRules(t *testing.T) {
	ctx := context.Background()
	a := booktest.NewBook(t, game.Connect6())
	booktest.Add(t, a, "j10 i9k9")
	b := booktest.NewBook(t, game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1})
	booktest.Add(t, b, "e5 d4f4")
	b = reopen(t, b)
	before, err := a.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Merge(ctx, a, b.Path(), nil)
	if err == nil || !strings.Contains(err.Error(), "nothing was merged") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("merge of another rule set: %v", err)
	}
	after, err := a.Stats(ctx)
	if err != nil || after != before {
		t.Fatalf("stats %+v, before %+v (%v)", after, before, err)
	}
	if _, err := Merge(ctx, a, a.Path(), nil); err == nil {
		t.Fatal("a book merged into itself")
	}
	if _, err := Merge(ctx, a, filepath.Join(t.TempDir(), "none.c6book"), nil); err == nil {
		t.Fatal("a missing book merged")
	}
}

// A cancelled merge keeps the book sound, and its last progress report
// says how it ended.
func TestMergeCancelled(t *testing.T) {
	r := game.Connect6()
	b := booktest.NewBook(t, r)
	proofFixture(t, b)
	b = reopen(t, b)
	a := booktest.NewBook(t, r)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var last Progress
	_, err := Merge(ctx, a, b.Path(), func(p Progress) { last = p })
	if !errors.Is(err, context.Canceled) || !last.Final || !errors.Is(last.Err, context.Canceled) {
		t.Fatalf("cancelled merge: %v, last report %+v", err, last)
	}
	booktest.MustCheck(t, a)
	// Cancelled once it has begun (the merge may end first: the reports
	// come on their own goroutine).
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err = Merge(ctx, a, b.Path(), func(p Progress) {
		if p.Phase == "positions" && p.Done > 0 {
			cancel()
		}
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	booktest.MustCheck(t, a)
}

// A subtree saved as a book carries its proofs; merged back into an empty
// book it is the same subtree.
func TestSplitThenMergeBack(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	B := game.Black
	src := booktest.NewBook(t, r)
	proofFixture(t, src)
	booktest.Add(t, src, "j10 i9k9 h8h9") // outside the subtree
	A, _ := booktest.Locate(t, src, p2Line+" "+aMove)
	if err := src.SetComment(ctx, A, "the four"); err != nil {
		t.Fatal(err)
	}
	if _, err := storeGames(ctx, src, []string{"g1", "g2"}, map[string][]string{
		"g1": strings.Fields(p2Line + " " + aMove), "g2": {"j10", "i9k9"}}); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "sub.c6book")
	sum, err := Split(ctx, src, A, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("split %+v", sum)
	if sum.RefusedCount != 0 || sum.Verdicts != 4 || sum.Games != 1 {
		t.Fatalf("split summary %+v", sum)
	}
	if _, err := Split(ctx, src, A, to, nil); !errors.Is(err, proofbook.ErrExists) {
		t.Fatalf("split over an existing file: %v", err)
	}
	sub, err := Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	booktest.MustCheck(t, sub)
	sA, _ := booktest.Locate(t, sub, p2Line+" "+aMove)
	if st := proofOf(t, sub, sA, B).Status; st != c6book.StatusProved {
		t.Fatalf("A in the split book: %v", st)
	}
	if _, _, err := sub.Locate(ctx, replayText(t, r, "j10 i9k9")); !errors.Is(err, proofbook.ErrNotFound) {
		t.Fatalf("a position outside the subtree was split off: %v", err)
	}
	n := sameProofs(t, src, sub, A)
	if n != 7 { // A, its three blocks, the winning move after each
		t.Fatalf("subtree of %d positions", n)
	}
	// Merged back into an empty book: the same subtree.
	e := booktest.NewBook(t, r)
	if _, err := Merge(ctx, e, to, nil); err != nil {
		t.Fatal(err)
	}
	eA, _ := booktest.Locate(t, e, p2Line+" "+aMove)
	if got := sameProofs(t, sub, e, sA); got != n {
		t.Fatalf("merged back: %d positions, want %d", got, n)
	}
	_ = eA
	booktest.MustCheck(t, e)
	// A failed split leaves no file.
	bad := filepath.Join(t.TempDir(), "bad.c6book")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Split(cctx, src, A, bad, nil); err == nil {
		t.Fatal("a cancelled split succeeded")
	}
	if _, err := os.Stat(bad); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed split left %s: %v", bad, err)
	}
}

func replayText(t *testing.T, r game.Rules, s string) *board.Board {
	t.Helper()
	b, err := board.ReplayText(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A move the other book's file stores wrongly (illegal on its position) is
// not copied, and the summary says so; the expert's holds travel.
func TestMergeSkipsBadMovesCarriesHolds(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	b := booktest.NewBook(t, r)
	P := booktest.Add(t, b, "j10 i9k9")
	C := booktest.Add(t, b, "j10 i9k9 h8h9")
	if err := b.SetHold(ctx, P, game.White, true); err != nil {
		t.Fatal(err)
	}
	// j10 is taken: "j10k11" cannot be played on P.
	if _, err := rawDB(t, b).ExecContext(ctx, "INSERT INTO edge(parent, move, child) VALUES (?, ?, ?)",
		int64(P), c6book.PackMove(mv(t, r, "j10k11")), int64(C)); err != nil {
		t.Fatal(err)
	}
	b = reopen(t, b)
	a := booktest.NewBook(t, r)
	sum, err := Merge(ctx, a, b.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.BadMoves != 1 || !strings.Contains(sum.FirstBad, "occupied") || sum.Holds != 1 || sum.Moves != 3 {
		t.Fatalf("summary %+v", sum)
	}
	aP, _ := booktest.Locate(t, a, "j10 i9k9")
	if held, err := a.Held(ctx, aP, game.White); err != nil || !held {
		t.Fatalf("the hold was not carried: %v %v", held, err)
	}
	kids, err := a.Children(ctx, aP)
	if err != nil || len(kids) != 1 {
		t.Fatalf("children after the merge: %+v %v", kids, err)
	}
	booktest.MustCheck(t, a)
}

// The auto-pilot's marks on moves travel: a merge and a split carry a
// move the auto-pilot proposed as the auto-pilot's (after the receiving
// book's own, in the source's rank order) and a hand-made one as
// hand-made; a move the receiving book made by hand stays hand-made.
func TestMergeAndSplitCarryAutoMoves(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	src := booktest.NewBook(t, r)
	P := booktest.Add(t, src, "j10 i9k9")
	booktest.Add(t, src, "j10 i9k9 h8h9") // by hand
	if _, _, _, err := src.AddAutoMoves(ctx, P, []game.Move{mv(t, r, "k11l12"), mv(t, r, "j8h10")}, nil); err != nil {
		t.Fatal(err)
	}
	src = reopen(t, src)
	// The auto-pilot's mark (and rank) of the stored move of line's
	// position that reaches line+" "+move.
	autoEdge := func(bk *Book, line, move string) proofbook.AutoEdge {
		t.Helper()
		id, _ := booktest.Locate(t, bk, line)
		b, err := board.ReplayText(r, line+" "+move)
		if err != nil {
			t.Fatal(err)
		}
		child, _, err := bk.Locate(ctx, b)
		if errors.Is(err, proofbook.ErrNotFound) {
			return proofbook.AutoEdge{} // not stored: not the auto-pilot's
		}
		if err != nil {
			t.Fatal(err)
		}
		edges, err := bk.AutoMoves(ctx, id, game.Black)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range edges {
			if e.Child == child {
				return e
			}
		}
		return proofbook.AutoEdge{}
	}
	isAuto := func(bk *Book, line, move string) bool {
		t.Helper()
		return autoEdge(bk, line, move).Auto
	}
	ranks := func(bk *Book, line string) []string {
		t.Helper()
		var out []string
		for _, m := range []string{"k11l12", "j8h10", "m13n14"} {
			if e := autoEdge(bk, line, m); e.Auto {
				out = append(out, fmt.Sprintf("%s:%d", m, e.Rank))
			}
		}
		return out
	}

	// Into a book that has j8h10 by hand and m13n14 as its own
	// auto-pilot's.
	dst := booktest.NewBook(t, r)
	booktest.Add(t, dst, "j10 i9k9 j8h10")
	dP := booktest.Add(t, dst, "j10 i9k9")
	if _, _, _, err := dst.AddAutoMoves(ctx, dP, []game.Move{mv(t, r, "m13n14")}, nil); err != nil {
		t.Fatal(err)
	}
	sum, err := Merge(ctx, dst, src.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AutoMoves != 1 {
		t.Fatalf("%d moves marked as the auto-pilot's, want 1 (k11l12): %+v", sum.AutoMoves, sum)
	}
	if !slices.ContainsFunc(sum.Describe(0), func(l string) bool { return strings.Contains(l, "1 new move marked as the auto-pilot's") }) {
		t.Errorf("the summary does not say so: %q", sum.Describe(0))
	}
	if isAuto(dst, "j10 i9k9", "h8h9") || isAuto(dst, "j10 i9k9", "j8h10") {
		t.Error("a hand-made move became the auto-pilot's")
	}
	if got := strings.Join(ranks(dst, "j10 i9k9"), " "); got != "k11l12:1 m13n14:0" {
		t.Errorf("the auto-pilot's moves by rank %q, want k11l12 after the book's own m13n14", got)
	}
	booktest.MustCheck(t, dst)

	// A split of j10 into a new book.
	J, _ := booktest.Locate(t, src, "j10")
	out := filepath.Join(t.TempDir(), "split.c6book")
	if _, err := Split(ctx, src, J, out, nil); err != nil {
		t.Fatal(err)
	}
	sp, err := Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if got := strings.Join(ranks(sp, "j10 i9k9"), " "); got != "k11l12:0 j8h10:1" {
		t.Errorf("split: the auto-pilot's moves by rank %q, want k11l12 then j8h10", got)
	}
	if isAuto(sp, "j10 i9k9", "h8h9") {
		t.Error("split: the hand-made move became the auto-pilot's")
	}
	booktest.MustCheck(t, sp)
}

// A merge carries a game's record order (moved from proofbook's
// TestGameKeepsRecordOrder with the merge).
func TestMergeKeepsGameRecordOrder(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	line := "j10 h12k11 j11j12"
	if _, err := storeGames(ctx, bk, []string{"1"}, map[string][]string{"1": strings.Fields(line)}); err != nil {
		t.Fatal(err)
	}
	into := booktest.NewBook(t, r)
	if _, err := Merge(ctx, into, bk.Path(), nil); err != nil {
		t.Fatal(err)
	}
	gid, err := into.FindGame(ctx, "littlegolem", "1")
	if err != nil {
		t.Fatal(err)
	}
	if g2, err := into.Game(ctx, gid); err != nil || proofbook.WrittenText(r, g2.Written) != line {
		t.Fatalf("merged game: %q %v", proofbook.WrittenText(r, g2.Written), err)
	}
}
