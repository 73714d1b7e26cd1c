package player

import (
	"context"
	"math"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// The auto-pilot's attacker moves from the player (issue 23): at an OR
// node of the job-level search the moves to verify are the ones Play
// ranks, not the one-ply pattern score of rankCandidates.

// DefaultCandidateNodes is PlayerCandidates' node budget when none is given.
const DefaultCandidateNodes = 30_000

// PlayerCandidates ranks up to n moves of the side to move at b for the
// auto-pilot, each with a score from the mover's side (the scale of
// PlayResult.Score: thousands of pattern points; WinScore: a win found):
//
//  1. a move that makes k in a row, alone; none when the opponent has more
//     threats than one turn blocks;
//  2. the player's proved win (VCDT/VCST), then the threat moves (moves
//     that leave the mover with a threat), best first by the player's
//     score where it scored them, else by rankCandidates' order;
//  3. the player's other candidates in its order (its search's scores);
//  4. rankCandidates' remaining moves, scored by the static evaluation
//     after the move, to fill the batch;
//  5. last, the moves of 3 and 4 after which the mover has no VCDT/VCST
//     win even when the opponent passes (nullCheckNodes nodes each): a λ3
//     verify of such a move leaves every reply unsolved.
//
// The player's search uses the game player's evaluation (playEval). The
// no-tempo evaluation (candOpts.noTempo) was measured and not adopted:
// its first moves left fewer replies unsolved at 50,000 nodes a solve, but
// more at the verifier's full budget on 2 of 3 openings where it differs
// (measured with the verifier on the openings of the opening set:
// `make bench-openings`, docs/BENCHMARKS.md).
func PlayerCandidates(ctx context.Context, b *board.Board, n int, maxNodes int64) ([]ScoredMove, error) {
	return playerCandidates(ctx, b, n, maxNodes, candOpts{})
}

// candOpts are PlayerCandidates' ranking choices (the probe compares them).
type candOpts struct {
	noTempo     bool // the player's leaves use evalFor
	noNullCheck bool // keep moves that fail the null-move check in place
}

// nullCheckNodes bounds each null-move check of PlayerCandidates.
const nullCheckNodes = 50_000

// nullMoveWins reports whether, after the mover of b plays m and the
// opponent passes, the mover wins by VCDT or VCST (tolerance p: the null
// move of a λ3 verify) within maxNodes nodes. b is left as it was.
func nullMoveWins(ctx context.Context, b *board.Board, m game.Move, maxNodes int64) (bool, error) {
	a := b.ToMove()
	c := b.Clone()
	for i := 0; i < m.Len(); i++ {
		c.Place(m.At(i), a)
	}
	c.SetToMove(a)
	res, err := threat.Solve(ctx, c, threat.Params{Mode: threat.VCST, Tolerance: c.Rules().P, Limits: threat.Limits{MaxNodes: maxNodes}})
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, err
	}
	return res.Outcome == threat.Win, nil
}

func playerCandidates(ctx context.Context, b *board.Board, n int, maxNodes int64, co candOpts) ([]ScoredMove, error) {
	if n <= 0 {
		return nil, nil
	}
	a := b.ToMove()
	d := a.Opp()
	r := b.Rules()
	if b.Stones(game.Black)+b.Stones(game.White) == 0 {
		var out []ScoredMove
		for _, m := range openingCandidates(b, a, n) {
			out = append(out, ScoredMove{m, 0})
		}
		return out, nil
	}
	if mv, ok := b.WinningMove(a); ok {
		return []ScoredMove{{mv, WinScore}}, nil
	}
	if b.Threats(d) > r.P {
		return nil, nil
	}
	if maxNodes <= 0 {
		maxNodes = DefaultCandidateNodes
	}
	base := rankCandidates(b, a, max(n, 32))
	b = b.Clone()
	pr, err := Play(ctx, b, PlayOptions{MaxNodes: maxNodes, noTempo: co.noTempo}) // its default depth (4 turns: an odd depth flatters the mover)
	if err != nil {
		return nil, err
	}
	played := map[game.Move]float64{}
	for _, c := range pr.Candidates {
		sc := c.Score
		if math.IsInf(sc, 0) || math.IsNaN(sc) {
			sc = 0 // not searched: neutral
		}
		if _, ok := played[c.Move]; !ok {
			played[c.Move] = sc
		}
	}
	// after places m, reports whether it suits (the turn's stones, the
	// opponent left without a threat), the mover's threats and the static
	// score, and takes it back.
	after := func(m game.Move) (ok bool, threats int, static float64) {
		if m.Len() != r.P {
			return false, 0, 0
		}
		for i := 0; i < m.Len(); i++ {
			if b.At(m.At(i)) != game.Empty {
				for j := i - 1; j >= 0; j-- {
					b.Remove(m.At(j))
				}
				return false, 0, 0
			}
			b.Place(m.At(i), a)
		}
		ok = !b.HasThreat(d)
		threats, static = b.Threats(a), evalFor(b, a)/1000
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
		return ok, threats, static
	}
	var win, threat, quiet, rest []ScoredMove
	seen := map[game.Move]bool{}
	consider := func(m game.Move, fromPlayer bool) {
		if seen[m] {
			return
		}
		seen[m] = true
		ok, th, st := after(m)
		if !ok {
			return
		}
		sc, scored := played[m]
		if !scored {
			sc = st
		}
		switch {
		case fromPlayer && (pr.Reason == PlayVCDT || pr.Reason == PlayVCST) && m == pr.Move:
			win = append(win, ScoredMove{m, sc})
		case th > 0:
			threat = append(threat, ScoredMove{m, sc})
		case fromPlayer:
			quiet = append(quiet, ScoredMove{m, sc})
		default:
			rest = append(rest, ScoredMove{m, sc})
		}
	}
	for _, c := range pr.Candidates {
		consider(c.Move, true)
	}
	for _, m := range base {
		consider(m, false)
	}
	// Threat moves: the player's scores first (a stable sort keeps the
	// player's order, then rankCandidates' order, among equals).
	sortStable(threat, func(x, y ScoredMove) bool {
		_, sx := played[x.Move]
		_, sy := played[y.Move]
		if sx != sy {
			return sx
		}
		return sx && x.Score > y.Score
	})
	// Moves without a threat: the ones the verifier can work on first. A
	// λ3 verify of such a move starts with the defender's null move, and a
	// move after which the mover has no VCDT/VCST even then leaves every
	// reply unsolved; those go last, in their order.
	var lam, nolam []ScoredMove
	if !co.noNullCheck && solverRuns(b) {
		for _, m := range append(quiet, rest...) {
			if len(lam) == n {
				nolam = append(nolam, m)
				continue
			}
			w, err := nullMoveWins(ctx, b, m.Move, nullCheckNodes)
			if err != nil {
				return nil, err
			}
			if w {
				lam = append(lam, m)
			} else {
				nolam = append(nolam, m)
			}
		}
	} else {
		lam = append(quiet, rest...)
	}
	out := make([]ScoredMove, 0, n)
	for _, part := range [][]ScoredMove{win, threat, lam, nolam} {
		for _, m := range part {
			if len(out) == n {
				return out, nil
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// sortStable is a stable insertion sort (the lists are short).
func sortStable(ms []ScoredMove, less func(x, y ScoredMove) bool) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && less(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// EvalScore is the player's static evaluation of b from c's side, on the
// scale of PlayResult.Score (thousands of pattern points): live windows of
// c count for it, the opponent's against it.
func EvalScore(b *board.Board, c game.Color) float64 {
	return evalFor(b, c) / 1000
}

// EvalUnit and EvalLevels map an evaluation to expected proof and
// disproof numbers (ExpectedNumbers).
const (
	EvalUnit   = 0.5
	EvalLevels = 3
)

// ExpectedNumbers maps an evaluation score s of a position from the
// attacker's side (PlayResult.Score's scale) to the proof and disproof
// numbers a job-level search initialises it with (evaluation-based PNS):
// q = round(s / EvalUnit) clamped to [-EvalLevels, EvalLevels]; pn = 1 +
// max(0, -q), dn = 1 + max(0, q). A neutral position is 1/1, as without
// an evaluation; one good for the attacker keeps pn 1 and gets a larger
// dn (it is tried first among equals and weighs more against a disproof);
// one bad for the attacker gets pn up to 1+EvalLevels, so that an AND
// node's sum counts it as more work. The numbers stay small so that
// progressive widening (a count of moves) keeps its scale.
func ExpectedNumbers(s float64) (pn, dn int64) {
	if math.IsNaN(s) {
		return 1, 1
	}
	q := math.Round(s / EvalUnit)
	q = max(-EvalLevels, min(EvalLevels, q))
	return 1 + int64(max(0, -q)), 1 + int64(max(0, q))
}

// MixCandidates merges the player's ranked moves (PlayerCandidates) with
// the shape moves (ShapeCandidates) into one list of at most n moves for
// the auto-pilot: first the player's moves that win outright (a move
// scored WinScore or near), then a shape move and a player move in turn,
// each move once. A shape move gets the score of the player's best move
// (or its own, if higher): it is worth as much of a verifier call.
func MixCandidates(player []ScoredMove, shapes []ShapeMove, n int) []ScoredMove {
	out := make([]ScoredMove, 0, n)
	seen := map[game.Move]bool{}
	add := func(m ScoredMove) {
		if len(out) < n && !seen[m.Move] {
			seen[m.Move] = true
			out = append(out, m)
		}
	}
	scored := map[game.Move]float64{}
	best := 0.0
	for i, m := range player {
		scored[m.Move] = m.Score
		if i == 0 || m.Score > best {
			best = m.Score
		}
	}
	best = min(best, WinScore/2)
	i := 0
	for ; i < len(player) && player[i].Score >= WinScore/2; i++ {
		add(player[i])
	}
	for j := 0; len(out) < n && (i < len(player) || j < len(shapes)); {
		if j < len(shapes) {
			sc := best
			if ps, ok := scored[shapes[j].Move]; ok {
				sc = max(ps, best)
			}
			add(ScoredMove{shapes[j].Move, sc})
			j++
		}
		if i < len(player) {
			add(player[i])
			i++
		}
	}
	return out
}
