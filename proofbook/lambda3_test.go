package proofbook

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
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

func countRows(bk *Book, q string) (int, error) {
	var n int
	err := bk.r.QueryRow(q).Scan(&n)
	return n, err
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

// randomLine plays n random turns near the centre without a winner and
// without a threat for the side to move (so that it has to build one).
func randomLine(rng *rand.Rand, r game.Rules, n int) []game.Move {
	for {
		b := board.MustNewBoard(r)
		var line []game.Move
		ok := true
		for t := 0; t < n && ok; t++ {
			k := r.StonesForTurn(t)
			var sq []game.Square
			for len(sq) < k {
				x := r.M/2 - 2 + rng.IntN(5)
				y := r.N/2 - 2 + rng.IntN(5)
				s := r.Sq(x, y)
				if b.At(s) == game.Empty && !game.NewMove(sq...).Contains(s) {
					sq = append(sq, s)
				}
			}
			m := game.NewMove(sq...)
			if err := b.Play(m); err != nil {
				ok = false
				break
			}
			line = append(line, m)
		}
		if ok && b.Winner() == game.Empty && !b.HasThreat(b.ToMove()) && !b.HasThreat(b.ToMove().Opp()) {
			return line
		}
	}
}

func runSession(t *testing.T, rng *rand.Rand, r game.Rules, n int, st *sessionStats) {
	t.Helper()
	ctx := context.Background()
	bk := newBook(t, r)
	line := randomLine(rng, r, n)
	b, err := board.Replay(r, line)
	if err != nil {
		t.Fatal(err)
	}
	a := b.ToMove()
	st.positions++
	// The attacker's move: every other session a quiet move after which a
	// null move loses to VCST (a λ3 candidate whose seminull moves are
	// left to the book), else the engine's win if any.
	m, ok := attackerMove(ctx, b, 0)
	if !ok || rng.IntN(3) > 0 {
		m = quietMove(ctx, rng, b, 0)
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
	verify := func(id PosID) {
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
	queue := []PosID{l.IDs[len(l.IDs)-1]}
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
			m, ok := attackerMove(ctx, cb, tol)
			if ok {
				st.answered++
			} else {
				// No threat-space win: a quiet λ3 candidate, as an expert
				// would propose.
				st.noAnswer++
				m = quietMove(ctx, rng, cb, tol)
			}
			next, err := bk.Play(ctx, it.ID, m)
			if err != nil {
				t.Fatal(err)
			}
			queue = append(queue, next)
		}
	}
	_ = root
	rep := mustCheck(t, bk)
	st.checked += int(rep.Proofs)
	if n, err := countRows(bk, "SELECT count(*) FROM verdict WHERE data LIKE '%open_seminull%'"); err == nil {
		st.openSeminull += n
	}
	if n, err := countRows(bk, "SELECT count(*) FROM status WHERE status = 2 AND ord = 3"); err == nil {
		st.order3 += n
	}
	// Every proved position of the book is a true win.
	for _, pos := range provedPositions(t, bk, a) {
		st.proved++
		cb := mustWin(ctx, t, bk, a, pos, fmt.Sprintf("%v, line %s", r, game.FormatTurns(r, line)))
		if tol, _ := cb.DefenderDeficit(a); tol > 0 {
			st.belowSeminull++
		}
		if p, err := bk.Position(ctx, pos); err == nil && p.Verdict != nil && len(p.Verdict.OpenSeminull) > 0 {
			st.closedSeminull++
		}
		st.checkedProofs++
	}
}

// mustWin fails t, naming the case what, unless the oracle plays book
// position pos, proved for a, out as a win for a. It returns the
// position's board.
func mustWin(ctx context.Context, t testing.TB, bk *Book, a game.Color, pos PosID, what string) *board.Board {
	t.Helper()
	cb, err := bk.Board(ctx, pos)
	if err != nil {
		t.Fatal(err)
	}
	o := &oracle{bk: bk, a: a, memo: map[string]bool{}}
	if err := o.wins(ctx, pos, cb, nil); err != nil {
		t.Fatalf("%s: the book calls position %d proved for %s, but: %v", what, pos, a, err)
	}
	return cb
}

func provedPositions(t *testing.T, bk *Book, a game.Color) []PosID {
	t.Helper()
	rows, err := bk.r.Query("SELECT pos FROM status WHERE attacker = ? AND status = ? ORDER BY pos", int(a), int(c6book.StatusProved))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []PosID
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, PosID(id))
	}
	return out
}

// attackerMove is the engine's best attacker move at tolerance tol: a VCST
// win's first move.
func attackerMove(ctx context.Context, b *board.Board, tol int) (game.Move, bool) {
	res, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCST, Tolerance: tol, Limits: threat.Limits{MaxNodes: 20000}})
	if err != nil || res.Outcome != threat.Win {
		return game.Move{}, false
	}
	return res.Move, true
}

func quietMove(ctx context.Context, rng *rand.Rand, b *board.Board, tol int) game.Move {
	r := b.Rules()
	a := b.ToMove()
	var near []game.Square
	for _, s := range b.StoneList(game.Empty) {
		x, y := r.XY(s)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if r.OnBoard(x+dx, y+dy) && b.At(r.Sq(x+dx, y+dy)) == a {
					near = append(near, s)
					dx, dy = 2, 2
				}
			}
		}
	}
	var m game.Move
	for try := 0; try < 8; try++ {
		rng.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
		m = game.NewMove(near[:r.P]...)
		nb := b.Clone()
		for i := 0; i < m.Len(); i++ {
			nb.Place(m.At(i), a)
		}
		if nb.Winner() != game.Empty || nb.Threats(a) > 0 {
			continue
		}
		nb.SetToMove(a) // the defender passes
		res, err := threat.Solve(ctx, nb, threat.Params{Mode: threat.VCST, Tolerance: r.P + tol, Limits: threat.Limits{MaxNodes: 3000}})
		if err == nil && res.Outcome == threat.Win && res.Mode == threat.VCST {
			break
		}
	}
	return m
}

// oracle plays the book's proof of a position concretely against every
// defender reply: the board is the position's canonical board plus extra
// defender stones (those the proof skipped: the second stone of seminull
// moves), and nothing but stones on a board is trusted.
type oracle struct {
	bk   *Book
	a    game.Color
	memo map[string]bool
	n    int
}

var errOracle = errors.New("not a win")

func boardKey(b *board.Board) string { return string(b.CanonicalStones(0)) }

// wins checks that the attacker wins on board real, which is the canonical
// board of book position id with the defender's extra stones placed.
func (o *oracle) wins(ctx context.Context, id PosID, real *board.Board, extra []game.Square) error {
	key := fmt.Sprint(id, boardKey(real))
	if o.memo[key] {
		return nil
	}
	o.n++
	if o.n > 200000 {
		return fmt.Errorf("oracle budget exhausted")
	}
	d := o.a.Opp()
	r := o.bk.rules
	if w := real.Winner(); w == o.a {
		o.memo[key] = true
		return nil
	} else if w == d {
		return fmt.Errorf("position %d: the defender has won (extra stones %v): %w", id, extra, errOracle)
	}
	book, err := o.bk.Board(ctx, id)
	if err != nil {
		return err
	}
	kids, err := o.bk.Children(ctx, id)
	if err != nil {
		return err
	}
	if real.ToMove() == o.a {
		// The book's proved moves, each tried.
		var last error = fmt.Errorf("position %d: no proved move: %w", id, errOracle)
		for _, c := range kids {
			if c.Proof(o.a).Status != c6book.StatusProved {
				continue
			}
			next, ok := o.play(real, c.Move, o.a)
			if !ok {
				last = fmt.Errorf("position %d: move %s blocked by an extra stone: %w", id, game.MoveName(r, c.Move), errOracle)
				continue
			}
			cb, ex := o.childFrame(book, c.Move, o.a, extra)
			_, csym := cb.CanonicalKey()
			if err := o.wins(ctx, c.ID, next.Transformed(csym), ex); err != nil {
				last = err
				continue
			}
			o.memo[key] = true
			return nil
		}
		return last
	}
	p, err := o.bk.Position(ctx, id)
	if err != nil {
		return err
	}
	var cert *proofcheck.Cert
	if p.Verdict != nil && p.Verdict.Attacker == o.a {
		cert = p.Verdict.Cert
	}
	list, _, err := loadPos(ctx, o.bk.r, r, id)
	if err != nil {
		return err
	}
	stab := stabilizer(r, list)
	byMove := map[int64]Child{}
	for _, c := range kids {
		byMove[packMove(c.Move)] = c
	}
	// Every defender move on the real board.
	empties := real.StoneList(game.Empty)
	var fail error
	n := min(r.P, len(empties))
	forCombos(empties, n, func(sq []game.Square) bool {
		dm := game.NewMove(sq...)
		nb, _ := o.play(real, dm, d)
		if nb.Winner() == d {
			fail = fmt.Errorf("position %d: defender move %s makes %d in a row: %w", id, game.MoveName(r, dm), r.K, errOracle)
			return false
		}
		if nb.HasThreat(o.a) {
			return true // the attacker makes k in a row now
		}
		if err := o.answer(ctx, id, book, nb, dm, extra, cert, stab, byMove); err != nil {
			fail = err
			return false
		}
		return true
	})
	if fail != nil {
		return fail
	}
	o.memo[key] = true
	return nil
}

// answer checks the attacker's answer to defender move dm (real board nb
// after it).
func (o *oracle) answer(ctx context.Context, id PosID, book, nb *board.Board, dm game.Move, extra []game.Square,
	cert *proofcheck.Cert, stab []int, byMove map[int64]Child) error {
	r := o.bk.rules
	d := o.a.Opp()
	// A stored child for the move itself (its symmetry representative).
	{
		rep, g := c6book.RepMove(r, stab, dm)
		if c, ok := byMove[packMove(rep)]; ok && c.Proof(o.a).Status == c6book.StatusProved {
			gb := nb.Transformed(g)
			gx := make([]game.Square, len(extra))
			for i, s := range extra {
				gx[i] = r.Transform(g, s)
			}
			cb, ex := o.childFrame(book, rep, d, gx)
			_, csym := cb.CanonicalKey()
			if err := o.wins(ctx, c.ID, gb.Transformed(csym), ex); err == nil {
				return nil
			}
		}
	}
	// A strategy of the certificate, replayed against every reply.
	if cert != nil {
		for _, tr := range certTrees(cert, dm) {
			if err := threat.CheckStrategy(ctx, nb, enginecert.ToStrategy(tr), 5_000_000); err == nil {
				return nil
			}
		}
	}
	// An open seminull stone s of dm whose seminull position is proved:
	// the other stone is one more extra stone there.
	if cert != nil {
		for _, s := range cert.OpenSeminull {
			if !dm.Contains(s) {
				continue
			}
			x := dm.At(0)
			if x == s {
				x = dm.At(1)
			}
			sm := game.NewMove(s)
			rep, g := c6book.RepMove(r, stab, sm)
			c, ok := byMove[packMove(rep)]
			if !ok || c.Proof(o.a).Status != c6book.StatusProved {
				continue
			}
			gb := nb.Transformed(g)
			gx := []game.Square{r.Transform(g, x)}
			for _, e := range extra {
				gx = append(gx, r.Transform(g, e))
			}
			cb, ex := o.childFrame(book, rep, d, gx)
			_, csym := cb.CanonicalKey()
			real := gb.Transformed(csym)
			real.SetToMove(o.a)
			if err := o.wins(ctx, c.ID, real, ex); err == nil {
				return nil
			}
		}
	}
	return fmt.Errorf("position %d: defender move %s (extra stones %v) is not answered by the book: %w", id, game.MoveName(r, dm), extra, errOracle)
}

// certTrees lists the certificate's strategies that claim to answer dm.
func certTrees(c *proofcheck.Cert, dm game.Move) []*proofcheck.Tree {
	var out []*proofcheck.Tree
	for _, cv := range c.Covered {
		if cv.Move == dm {
			out = append(out, cv.Tree)
		}
	}
	for _, sz := range c.Seminull {
		if dm.Contains(sz.Stone) {
			out = append(out, sz.Tree)
		}
	}
	if c.NullTree != nil {
		out = append(out, c.NullTree)
	}
	return out
}

func (o *oracle) play(b *board.Board, m game.Move, c game.Color) (*board.Board, bool) {
	nb := b.Clone()
	for i := 0; i < m.Len(); i++ {
		if nb.At(m.At(i)) != game.Empty {
			return nil, false
		}
		nb.Place(m.At(i), c)
	}
	nb.SetToMove(c.Opp())
	return nb, true
}

func (o *oracle) childBoard(book *board.Board, m game.Move, c game.Color) *board.Board {
	nb, _ := o.play(book, m, c)
	return nb
}

// childFrame maps the extra stones into the frame of the child reached by
// m from the book board.
func (o *oracle) childFrame(book *board.Board, m game.Move, c game.Color, extra []game.Square) (*board.Board, []game.Square) {
	cb := o.childBoard(book, m, c)
	_, csym := cb.CanonicalKey()
	out := make([]game.Square, len(extra))
	for i, s := range extra {
		out[i] = o.bk.rules.Transform(csym, s)
	}
	return cb, out
}

func forCombos(sq []game.Square, n int, f func([]game.Square) bool) {
	buf := make([]game.Square, n)
	var rec func(start, k int) bool
	rec = func(start, k int) bool {
		if k == n {
			return f(buf)
		}
		for i := start; i < len(sq); i++ {
			buf[k] = sq[i]
			if !rec(i+1, k+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// proveBelow answers position id (attacker to move) with the engine's win
// or, failing that, with quiet λ3 candidates, verifies the result and,
// depth permitting, answers its items in turn; it reports whether id ends
// proved.
func proveBelow(t *testing.T, bk *Book, rng *rand.Rand, id PosID, a game.Color, depth int) bool {
	t.Helper()
	ctx := context.Background()
	cb, err := bk.Board(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tol, ok := cb.DefenderDeficit(a)
	if !ok {
		t.Fatal("no deficit")
	}
	var cands []game.Move
	if m, ok := attackerMove(ctx, cb, tol); ok {
		cands = append(cands, m)
	}
	for i := 0; i < 2; i++ {
		cands = append(cands, quietMove(ctx, rng, cb, tol))
	}
	for _, m := range cands {
		next, err := bk.Play(ctx, id, m)
		if err != nil {
			t.Fatal(err)
		}
		if p := proofOf(t, bk, next, a); p.Status == c6book.StatusDisproved {
			continue
		}
		nb, err := bk.Board(ctx, next)
		if err != nil {
			t.Fatal(err)
		}
		v, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 3, Tolerance: tol, Workers: 1, Limits: threat.Limits{MaxNodes: 5000}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bk.StoreVerdict(ctx, next, c6book.FromEngine(bk.rules, 0, v, 3)); err != nil {
			t.Fatal(err)
		}
		for round := 0; depth > 0 && round < 4; round++ {
			items, err := bk.Items(ctx, next, a)
			if err != nil {
				t.Fatal(err)
			}
			if len(items) == 0 || len(items) > 12 {
				break
			}
			for _, it := range items {
				if !proveBelow(t, bk, rng, it.ID, a, depth-1) {
					break
				}
			}
		}
		if proofOf(t, bk, id, a).Status == c6book.StatusProved {
			return true
		}
	}
	return false
}

// The seminull closure of RZOP, on Connect6. In D Black has one threat (a
// four on row 10 that White blocks at g10 or h10) and three in a row on
// rows 4 and 7; a λ3 verdict leaves the seminull moves g10 and h10 open. The
// seminull position D+g10 is proved (f4f7 makes four threats); that does
// not prove D: the full moves (g10, x) with x in its zone become items, and
// D is proved only once every one of them is, after which the independent
// checker accepts the book.
func TestSeminullClosure(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	r := bk.Rules()
	B := game.Black
	const dLine = "j10 a19e19 c10d10 b10i19 c4d4 m19q19 e4c7 a16e16 d7e7 i16m16 e10f10"
	D := add(t, bk, dLine)
	b, err := board.ReplayText(r, dLine)
	if err != nil {
		t.Fatal(err)
	}
	if th := b.Threats(B); th != 1 {
		t.Fatalf("D: Black has %d threats, want 1", th)
	}
	_, sym, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	// The λ3 verdict: every move that blocks the four holds g10 or h10.
	v := c6book.Verdict{Attacker: B, Status: c6book.StatusOpen, Order: 3, Lambda: 3, Engine: "test", Cert: &proofcheck.Cert{Attacker: B}}
	for _, s := range []string{"g10", "h10"} {
		sq := ToCanonical(r, sym, mv(t, r, s))
		v.OpenSeminull = append(v.OpenSeminull, c6book.Unsolved{Move: sq, Reason: "budget"})
		v.Cert.OpenSeminull = append(v.Cert.OpenSeminull, sq.At(0))
	}
	store(t, bk, D, v)
	wantProof(t, bk, "D (two open seminull items)", D, B, c6book.StatusOpen, 2, 1)

	// answer plays f4f7 (or the engine's win when f4/f7 is taken) in
	// position id and verifies the result.
	answer := func(it Item) {
		t.Helper()
		id := it.ID
		cb, err := bk.Board(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tol, _ := cb.DefenderDeficit(B)
		// f4f7 in the frame of the line, mapped into the item's frame.
		ub := b.Clone()
		dm := FromCanonical(r, sym, it.Move)
		for i := 0; i < dm.Len(); i++ {
			ub.Place(dm.At(i), game.White)
		}
		_, isym := ub.CanonicalKey()
		cands := []game.Move{ToCanonical(r, isym, mv(t, r, "f4f7"))}
		if m, ok := attackerMove(ctx, cb, tol); ok {
			cands = append(cands, m)
		}
		for _, m := range cands {
			if cb.At(m.At(0)) != game.Empty || cb.At(m.At(1)) != game.Empty {
				continue
			}
			next, err := bk.Play(ctx, id, m)
			if err != nil {
				t.Fatal(err)
			}
			nb, err := bk.Board(ctx, next)
			if err != nil {
				t.Fatal(err)
			}
			vd, err := verify.Verify(ctx, nb, verify.VerifyOptions{Lambda: 2, Tolerance: tol, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bk.StoreVerdict(ctx, next, c6book.FromEngine(r, 0, vd, 2)); err != nil {
				t.Fatal(err)
			}
			if proofOf(t, bk, id, B).Status == c6book.StatusProved {
				return
			}
		}
	}
	items, err := bk.Items(ctx, D, B)
	if err != nil || len(items) != 2 {
		t.Fatalf("items: %v %v", items, err)
	}
	g10 := items[0]
	answer(g10)
	sp := proofOf(t, bk, g10.ID, B)
	if sp.Status != c6book.StatusProved || len(sp.Zone) == 0 {
		t.Fatalf("the seminull position is not proved with a zone: %+v", sp)
	}
	// The seminull position alone proves nothing: its zone's full moves
	// are items now, stored as children.
	if st := proofOf(t, bk, D, B).Status; st == c6book.StatusProved {
		t.Fatal("D proved by a seminull position without the full moves inside its zone")
	}
	items, err = bk.Items(ctx, D, B)
	if err != nil {
		t.Fatal(err)
	}
	s := g10.Move.At(0)
	full := 0
	for _, it := range items {
		if it.Move.Len() == 2 {
			if !it.Move.Contains(s) || it.ID == 0 {
				t.Fatalf("item %s: want a stored full move through %s", game.MoveName(r, it.Move), game.SquareName(r, s))
			}
			full++
		}
	}
	if full == 0 {
		t.Fatal("no full move of the seminull zone became an item")
	}
	mustCheck(t, bk)
	// Answer everything; D is proved only at the end.
	for round := 0; round < 4; round++ {
		items, err := bk.Items(ctx, D, B)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) == 0 {
			break
		}
		if proofOf(t, bk, D, B).Status == c6book.StatusProved {
			t.Fatalf("D proved with %d items open", len(items))
		}
		for _, it := range items {
			answer(it)
		}
	}
	if p := proofOf(t, bk, D, B); p.Status != c6book.StatusProved || p.Order != 3 || len(p.Zone) == 0 {
		left, _ := bk.Items(ctx, D, B)
		var names []string
		for _, it := range left {
			names = append(names, game.MoveName(r, FromCanonical(r, sym, it.Move)))
		}
		t.Fatalf("D after every item: %+v; items left %d: %v", p, len(left), names)
	}
	rep := mustCheck(t, bk)
	t.Logf("seminull items closed: %d full moves inside the zones were proved; %d proofs re-checked", full, rep.Proofs)
	// Dropping one (g10, x) child's proof breaks the check with its line.
	for _, it := range items {
		if it.Move.Len() == 2 {
			if _, err := bk.w.ExecContext(ctx, "UPDATE status SET status = 1, zone = NULL WHERE pos = ? AND attacker = 1", int64(it.ID)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if rep, err := bk.Check(ctx); err != nil || rep.OK() {
		t.Fatalf("check accepted a closure with an item unproved: %v %v", rep.Problems, err)
	}
}
