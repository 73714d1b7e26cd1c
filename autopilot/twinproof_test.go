package autopilot

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"c6book"
	"c6book/bookmerge"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/booktest"
	"c6book/internal/lambda3oracle"
	"c6book/proofbook"
)

// The twin rule against brute force (c6book.HowTwin; proofcheck's
// checkTwin). On 8×8, five in a row, random lines (fixed seed) end with
// White's seminull move s: N, Black to move, one White stone short. The
// auto-pilot proves N (at tolerance 1, as below every seminull move).
// Then for White stones x off N's zone (and one in it), the full move
// (s, x) reaches N', linked to its twin N: N' must be proved by the twin
// exactly when x misses the zone (also for one N' linked before N was
// proved), and each such N' is played out by brute force against every
// defender reply (N's proof with x as one more stone). Below N' the
// replies a verdict leaves are linked to their twins as the verdict is
// stored (mustReplyTwins). The first book is merged into a new one, which
// keeps the twins' proofs, and every book passes check (proofcheck checks
// the rule on its own).
func TestTwinRuleBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(33, 11))
	confirmed, inZone, replyTwins, merged := 0, 0, 0, false
	for trial := 0; trial < 200 && (confirmed < 40 || replyTwins < 3); trial++ {
		bk := booktest.NewBook(t, r)
		// Black d4/e5-ish first stone, then two full turns each, then
		// White's single stone.
		taken := map[game.Square]bool{}
		pick := func(lo, hi int) game.Square {
			for {
				s := r.Sq(lo+rng.IntN(hi-lo), lo+rng.IntN(hi-lo))
				if !taken[s] {
					taken[s] = true
					return s
				}
			}
		}
		turns := []game.Move{game.NewMove(pick(3, 5))}
		for i := 0; i < 4; i++ {
			turns = append(turns, game.NewMove(pick(1, 7), pick(1, 7)))
		}
		s := pick(0, 8)
		line := game.FormatTurns(r, append(turns, game.NewMove(s)))
		n, nb := playPartial(t, bk, line)
		if nb.Winner() != game.Empty || nb.HasThreat(game.White) {
			continue
		}
		// One twin linked before N is proved: its status follows N's.
		empties := nb.StoneList(game.Empty)
		x0 := empties[rng.IntN(len(empties))]
		full0 := game.FormatTurns(r, append(turns, game.NewMove(s, x0)))
		early, _ := playPartial(t, bk, full0)
		if _, err := bk.LinkTwins(ctx, []PosID{early}); err != nil {
			t.Fatal(err)
		}
		if pr := proofOf(t, bk, early, game.Black); pr.Status == c6book.StatusProved {
			t.Fatalf("%s: proved before its twin was", full0)
		}
		res, err := Prove(ctx, bk, n, verify.LocalVerifier{}, smallProve(game.Black, 2, 6), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != "proved" {
			continue
		}
		zn := proofOf(t, bk, n, game.Black).Zone
		// N's zone in the line's frame.
		_, sym, err := bk.Locate(ctx, nb)
		if err != nil {
			t.Fatal(err)
		}
		zone := map[game.Square]bool{}
		for _, z := range zn {
			zone[proofbook.FromCanonical(r, sym, game.NewMove(z)).At(0)] = true
		}
		if pr := proofOf(t, bk, early, game.Black); (pr.Status == c6book.StatusProved && pr.How == c6book.HowTwin) == zone[x0] {
			t.Fatalf("%s, linked before its twin was proved: x = %s (in N's zone: %v): status %s (%s)", full0, game.SquareName(r, x0), zone[x0], pr.Status, pr.How)
		}
		var out, in []game.Square
		for _, x := range nb.StoneList(game.Empty) {
			if zone[x] {
				in = append(in, x)
			} else {
				out = append(out, x)
			}
		}
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		xs := out[:min(3, len(out))]
		if len(in) > 0 {
			xs = append(xs, in[rng.IntN(len(in))])
		}
		for _, x := range xs {
			full := game.FormatTurns(r, append(turns, game.NewMove(s, x)))
			np, _ := playPartial(t, bk, full)
			if _, err := bk.LinkTwins(ctx, []PosID{np}); err != nil {
				t.Fatal(err)
			}
			pr := proofOf(t, bk, np, game.Black)
			byTwin := pr.Status == c6book.StatusProved && pr.How == c6book.HowTwin
			if byTwin == zone[x] {
				t.Fatalf("%s: x = %s (in N's zone: %v): status %s (%s)", full, game.SquareName(r, x), zone[x], pr.Status, pr.How)
			}
			replyTwins += mustReplyTwins(t, bk, turns, s, np, x)
			if zone[x] {
				inZone++
				continue
			}
			lambda3oracle.MustWin(ctx, t, bk, game.Black, np, full)
			confirmed++
		}
		booktest.MustCheck(t, bk)
		if !merged {
			merged = true
			mustMergeTwins(t, bk)
		}
	}
	if confirmed == 0 || inZone == 0 || replyTwins == 0 {
		t.Fatalf("%d positions proved by a twin and confirmed by brute force, %d twins with the stone in the zone, %d replies proved by a twin: want some of each", confirmed, inZone, replyTwins)
	}
	t.Logf("%d positions proved by a twin, each confirmed by brute force; %d with the stone in the twin's zone, not proved by it; below those, %d replies proved by a twin when their verdict was stored, each confirmed by brute force", confirmed, inZone, replyTwins)
}

// mustMergeTwins merges bk into a new book: the positions proved by a twin
// there must be proved by a twin in the copy, which passes check.
func mustMergeTwins(t *testing.T, bk *proofbook.Book) {
	t.Helper()
	ctx := context.Background()
	count := func(b *proofbook.Book) int {
		n := 0
		for _, pos := range lambda3oracle.ProvedPositions(t, b, game.Black) {
			an, err := b.AutoNode(ctx, pos, game.Black)
			if err != nil {
				t.Fatal(err)
			}
			if an.Proof.How == c6book.HowTwin {
				n++
			}
		}
		return n
	}
	want := count(bk)
	to := booktest.NewBook(t, bk.Rules())
	if _, err := bookmerge.Merge(ctx, to, bk.Path(), nil); err != nil {
		t.Fatal(err)
	}
	if got := count(to); got != want || want == 0 {
		t.Fatalf("merged: %d positions proved by a twin, the source %d", got, want)
	}
	booktest.MustCheck(t, to)
}

// mustReplyTwins is the twin rule below a move: at N' = N plus White's x
// (np; x in N's zone, so N' is not proved by its twin N), Black plays the
// move a that proved N. Before the verdict of N'+a is stored, the twins of
// the replies it leaves (N+a plus each reply: N's own positions one move
// further down, as below a closed seminull item) are stored and proved;
// storing the verdict links each reply to its twin, and every reply proved
// by a twin (its zone missing x) is played out by brute force. It returns
// how many there are.
func mustReplyTwins(t *testing.T, bk *proofbook.Book, turns []game.Move, s game.Square, np PosID, x game.Square) int {
	t.Helper()
	ctx := context.Background()
	r := bk.Rules()
	nTurns := append(slices.Clone(turns), game.NewMove(s))
	nb, err := board.ReplayPartial(r, nTurns)
	if err != nil {
		t.Fatal(err)
	}
	n, sym, err := bk.Locate(ctx, nb)
	if err != nil {
		t.Fatal(err)
	}
	a, ok, err := bestAnswer(ctx, bk, n, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return 0 // N is won by a move of one stone (k in a row)
	}
	inLine := proofbook.FromCanonical(r, sym, a)
	pb := nb.Clone()
	pb.Place(x, game.White)
	if pb.Check(inLine, false) != nil {
		return 0
	}
	if err := pb.Play(inLine); err != nil {
		t.Fatal(err)
	}
	if pb.Winner() != game.Empty {
		return 0
	}
	// N'+a is verified at a small budget (as the family job verifies at the
	// schedule's first): it leaves replies that N's positions, proved at
	// the full budget, answer.
	vo := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20}}
	v, err := verify.Verify(ctx, pb, vo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.AllUnsolved || len(v.Unsolved) == 0 {
		return 0
	}
	for i, u := range v.Unsolved {
		if i == 6 {
			break
		}
		tturns := append(slices.Clone(nTurns), inLine, u.Move)
		tid, tb := playPartial(t, bk, game.FormatTurns(r, tturns))
		if tb.Winner() != game.Empty {
			continue
		}
		if _, err := Prove(ctx, bk, tid, verify.LocalVerifier{}, smallProve(game.Black, 2, 6), nil); err != nil {
			t.Fatal(err)
		}
	}
	nb2 := nb.Clone()
	nb2.Place(x, game.White)
	_, nsym, err := bk.Locate(ctx, nb2)
	if err != nil {
		t.Fatal(err)
	}
	_, _, kids, err := bk.AddAutoMoves(ctx, np, []game.Move{proofbook.ToCanonical(r, nsym, inLine)}, nil)
	if err != nil || len(kids) != 1 || kids[0] == 0 {
		t.Fatalf("N's move at N': %v %v", kids, err)
	}
	if _, err := bk.Verify(ctx, kids[0], verify.LocalVerifier{}, vo, nil); err != nil {
		var se *proofbook.StoreError
		if !errors.As(err, &se) {
			t.Fatal(err)
		}
	}
	replies, err := bk.Children(ctx, kids[0])
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range replies {
		if pr := c.Proofs[game.Black-1]; pr.Status == c6book.StatusProved && pr.How == c6book.HowTwin {
			lambda3oracle.MustWin(ctx, t, bk, game.Black, c.ID, "a reply below N'")
			found++
		}
	}
	return found
}
