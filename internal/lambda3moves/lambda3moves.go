// Package lambda3moves holds the moves the brute-force λ3 tests play on
// small boards: a random opening line, the engine's winning move, a quiet
// λ3 candidate. It uses the engine only (not the book), so that proofbook's
// own internal tests can import it as well as the tests over the book
// (autopilot). Every function is deterministic given its *rand.Rand.
package lambda3moves

import (
	"context"
	"math/rand/v2"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// RandomLine plays n random turns near the centre without a winner and
// without a threat for either side (so that the side to move has to build
// one).
func RandomLine(rng *rand.Rand, r game.Rules, n int) []game.Move {
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

// AttackerMove is the engine's best attacker move at tolerance tol: a VCST
// win's first move (20000 nodes at most). It reports false when the
// engine finds no win.
func AttackerMove(ctx context.Context, b *board.Board, tol int) (game.Move, bool) {
	res, err := threat.Solve(ctx, b, threat.Params{Mode: threat.VCST, Tolerance: tol, Limits: threat.Limits{MaxNodes: 20000}})
	if err != nil || res.Outcome != threat.Win {
		return game.Move{}, false
	}
	return res.Move, true
}

// QuietMove is a quiet λ3 candidate for the side to move on b at
// tolerance tol, as an expert would propose: P stones next to its own that
// make no threat, after which a null move of the defender loses to VCST
// (up to eight random tries; the last one tried when none qualifies).
func QuietMove(ctx context.Context, rng *rand.Rand, b *board.Board, tol int) game.Move {
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
