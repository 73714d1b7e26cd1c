package proofbook_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/booktest"
	"c6book/internal/lambda3moves"
	"c6book/internal/lambda3oracle"
	"c6book/proofbook"
)

// Scripted λ3 sessions through the book on random small-board positions:
// the attacker's move (the engine's winning move when it has one, a quiet
// move next to its stones otherwise) is verified at λ3, every open item is
// answered with the engine's best attacker move and verified in turn, to a
// budget. Then every position the book calls proved is played out against
// every defender reply, all of them, on the real board (extra stones
// included), with the book's moves and the certificates' strategies
// replayed by threat.CheckStrategy: a concrete, exhaustive win, no zone
// trusted. And the independent checker accepts the book.

type sessionStats struct {
	positions, verifies, proved, checkedProofs int
	checked, openSeminull, order3              int
	answered, noAnswer                         int
	belowSeminull, closedSeminull              int
}

func TestLambda3SessionsAgainstBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cases := []struct {
		rules  game.Rules
		stones int // turns played before the attacker's move
		n      int
	}{
		{game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, 3, 50},
		{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, 4, 50},
	}
	for ci, c := range cases {
		var st sessionStats
		rng := rand.New(rand.NewPCG(uint64(ci)+71, 3))
		for i := 0; i < c.n; i++ {
			runSession(t, rng, c.rules, c.stones, &st)
		}
		t.Logf("%v: %d positions, %d verifier calls, %d verdicts with open seminull items, %d proved positions (%d of order 3), %d checked by brute force, %d by proofcheck; items answered by a threat-space win %d, by a quiet move %d",
			c.rules, st.positions, st.verifies, st.openSeminull, st.proved, st.order3, st.checkedProofs, st.checked, st.answered, st.noAnswer)
		t.Logf("%v: %d proofs below a seminull move (tolerance >= 1), %d defender positions proved through a closed open seminull item", c.rules, st.belowSeminull, st.closedSeminull)
		if st.proved == 0 || st.checkedProofs == 0 {
			t.Errorf("%v: nothing proved: the sessions do not exercise proofs", c.rules)
		}
	}
}

func runSession(t *testing.T, rng *rand.Rand, r game.Rules, n int, st *sessionStats) {
	t.Helper()
	ctx := context.Background()
	bk := booktest.NewBook(t, r)
	line := lambda3moves.RandomLine(rng, r, n)
	b, err := board.Replay(r, line)
	if err != nil {
		t.Fatal(err)
	}
	a := b.ToMove()
	st.positions++
	// The attacker's move: every other session a quiet move after which a
	// null move loses to VCST (a λ3 candidate whose seminull moves are
	// left to the book), else the engine's win if any.
	m, ok := lambda3moves.AttackerMove(ctx, b, 0)
	if !ok || rng.IntN(3) > 0 {
		m = lambda3moves.QuietMove(ctx, rng, b, 0)
	}
	line = append(line, m)
	l, err := bk.AddLine(ctx, line)
	if err != nil {
		t.Fatal(err)
	}
	root := l.IDs[len(l.IDs)-2]
	// Work through the open items breadth first: verify a position with
	// the defender to move, answer an item (attacker to move) with the
	// engine's move, to a budget of verifier calls.
	verify := func(id proofbook.PosID) {
		cb, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tol, _ := cb.DefenderDeficit(a)
		v, err := verify.Verify(ctx, cb, verify.VerifyOptions{Lambda: 3, Tolerance: tol, Workers: 1,
			Limits: threat.Limits{MaxNodes: 3000}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.verifies++
		if _, err := bk.StoreVerdict(ctx, id, c6book.FromEngine(r, 0, v, 3)); err != nil {
			t.Fatalf("store verdict: %v\nverdict %s tol %d all-unsolved %v threats %d null zone %v note %q unsolved %d open seminull %v\n%s",
				err, v.Status, v.Tolerance, v.AllUnsolved, v.Threats, v.NullZone, v.Note, len(v.Unsolved), v.OpenSeminull, game.FormatTurns(r, cb.History()))
		}
	}
	queue := []proofbook.PosID{l.IDs[len(l.IDs)-1]}
	calls := 0
	for len(queue) > 0 && calls < 6 {
		d := queue[0]
		queue = queue[1:]
		p, err := bk.Position(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		if p.Verdict == nil {
			verify(d)
			calls++
		}
		items, err := bk.Items(ctx, d, a)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			if it.ID == 0 {
				t.Fatalf("item %s of position %d not stored", game.MoveName(r, it.Move), d)
			}
			kids, err := bk.Children(ctx, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(kids) > 0 {
				for _, k := range kids {
					if k.Proof(a).Status != c6book.StatusProved && k.Proof(a).Status != c6book.StatusDisproved {
						queue = append(queue, k.ID)
					}
				}
				continue
			}
			cb, err := bk.Board(ctx, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			tol, ok := cb.DefenderDeficit(a)
			if !ok {
				t.Fatalf("no deficit for a book position")
			}
			m, ok := lambda3moves.AttackerMove(ctx, cb, tol)
			if ok {
				st.answered++
			} else {
				// No threat-space win: a quiet λ3 candidate, as an expert
				// would propose.
				st.noAnswer++
				m = lambda3moves.QuietMove(ctx, rng, cb, tol)
			}
			next, err := bk.Play(ctx, it.ID, m)
			if err != nil {
				t.Fatal(err)
			}
			queue = append(queue, next)
		}
	}
	_ = root
	rep := booktest.MustCheck(t, bk)
	st.checked += int(rep.Proofs)
	if n, err := proofbook.CountRows(bk, "SELECT count(*) FROM verdict WHERE data LIKE '%open_seminull%'"); err == nil {
		st.openSeminull += n
	}
	if n, err := proofbook.CountRows(bk, "SELECT count(*) FROM status WHERE status = 2 AND ord = 3"); err == nil {
		st.order3 += n
	}
	// Every proved position of the book is a true win.
	for _, pos := range lambda3oracle.ProvedPositions(t, bk, a) {
		st.proved++
		cb := lambda3oracle.MustWin(ctx, t, bk, a, pos, fmt.Sprintf("%v, line %s", r, game.FormatTurns(r, line)))
		if tol, _ := cb.DefenderDeficit(a); tol > 0 {
			st.belowSeminull++
		}
		if p, err := bk.Position(ctx, pos); err == nil && p.Verdict != nil && len(p.Verdict.OpenSeminull) > 0 {
			st.closedSeminull++
		}
		st.checkedProofs++
	}
}
