// Package lambda3oracle is the brute-force check of the λ3 tests: a
// position the book calls proved is played out on the real board against
// every defender reply, with the book's moves and the certificates'
// strategies, to a win. It reads the book through proofbook's exported API
// only, so it serves the tests of every package over the book and
// proofbook's external tests (package proofbook_test); it imports
// proofbook, so proofbook's internal tests cannot use it.
package lambda3oracle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/proofbook"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

// ProvedPositions lists the positions the book holds proved for a (game
// ends too), by id.
func ProvedPositions(t testing.TB, bk *proofbook.Book, a game.Color) []proofbook.PosID {
	t.Helper()
	ctx := context.Background()
	n, err := bk.CountStatus(ctx, a, c6book.StatusProved, 0)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := bk.Proved(ctx, a, 0, int(n)+1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]proofbook.PosID, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	slices.Sort(out)
	return out
}

// MustWin fails t, naming the case what, unless the oracle plays book
// position pos, proved for a, out as a win for a. It returns the
// position's board.
func MustWin(ctx context.Context, t testing.TB, bk *proofbook.Book, a game.Color, pos proofbook.PosID, what string) *board.Board {
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

// oracle plays the book's proof of a position concretely against every
// defender reply: the board is the position's canonical board plus extra
// defender stones (those the proof skipped: the second stone of seminull
// moves), and nothing but stones on a board is trusted.
type oracle struct {
	bk   *proofbook.Book
	a    game.Color
	memo map[string]bool
	n    int
}

var errOracle = errors.New("not a win")

func boardKey(b *board.Board) string { return string(b.CanonicalStones(0)) }

// wins checks that the attacker wins on board real, which is the canonical
// board of book position id with the defender's extra stones placed.
func (o *oracle) wins(ctx context.Context, id proofbook.PosID, real *board.Board, extra []game.Square) error {
	key := fmt.Sprint(id, boardKey(real))
	if o.memo[key] {
		return nil
	}
	o.n++
	if o.n > 200000 {
		return fmt.Errorf("oracle budget exhausted")
	}
	d := o.a.Opp()
	r := o.bk.Rules()
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
		// A twin: the position less one defender stone x, proved; x is
		// one more extra stone there.
		twins, err := o.bk.Twins(ctx, id)
		if err != nil {
			return err
		}
		for _, tw := range twins {
			tb := book.Clone()
			tb.Remove(tw.Stone)
			_, csym := tb.CanonicalKey()
			ex := []game.Square{r.Transform(csym, tw.Stone)}
			for _, e := range extra {
				ex = append(ex, r.Transform(csym, e))
			}
			if err := o.wins(ctx, tw.ID, real.Transformed(csym), ex); err != nil {
				last = fmt.Errorf("position %d, twin %d without %s: %w", id, tw.ID, game.SquareName(r, tw.Stone), err)
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
	stab := book.Stabilizer()
	byMove := map[game.Move]proofbook.Child{}
	for _, c := range kids {
		byMove[c.Move] = c
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
func (o *oracle) answer(ctx context.Context, id proofbook.PosID, book, nb *board.Board, dm game.Move, extra []game.Square,
	cert *proofcheck.Cert, stab []int, byMove map[game.Move]proofbook.Child) error {
	r := o.bk.Rules()
	d := o.a.Opp()
	// A stored child for the move itself (its symmetry representative).
	{
		rep, g := c6book.RepMove(r, stab, dm)
		if c, ok := byMove[rep]; ok && c.Proof(o.a).Status == c6book.StatusProved {
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
			c, ok := byMove[rep]
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

// play places move m for c on a copy of b (c's opponent to move next); it
// reports false when a stone of m is taken.
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

// childBoard is the book board after move m of c.
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
		out[i] = o.bk.Rules().Transform(csym, s)
	}
	return cb, out
}

// forCombos calls f with every n-subset of sq until f returns false.
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
