package player

import (
	"math"
	"sort"

	"c6book/engine/board"
	"c6book/engine/game"
)

// Line patterns: the features of the learned move-prediction (policy) model.
//
// For an empty square s, a player c and one of the four directions, each
// side of s is read outwards over up to PatternReach squares: a square of c
// is 1, an empty square 0, and the first square that is not c's and not
// empty (the opponent's stone, or off the board) ends the side. A side is
// coded by its length j (the squares before the end) and its bits:
// (1<<j)-1+bits, so that the codes run 0..PatternSides-1. The two sides of a
// line make a pattern, the same whichever side is read first (the smaller
// of the two orders). A square has eight patterns: four for the player to
// move ("own", how s builds rows) and four for the opponent ("opp", how s
// blocks them). The model's score of s is the sum of the eight weights.

// PatternReach is how far a pattern reads on each side of its square: k-1
// for k = 6, the rules the weights are learned for.
const PatternReach = 5

// PatternSides is the number of codes of one side of a pattern.
const PatternSides = 1<<(PatternReach+1) - 1

// PatternCount is the number of patterns of one role (own or opp).
const PatternCount = PatternSides * PatternSides

// sideCode reads one side of s outwards along (dx, dy) for colour c.
func sideCode(b *board.Board, x, y, dx, dy int, c game.Color) int {
	r := b.Rules()
	bits, j := 0, 0
	for ; j < PatternReach; j++ {
		x += dx
		y += dy
		if !r.OnBoard(x, y) {
			break
		}
		v := b.At(r.Sq(x, y))
		if v == c {
			bits |= 1 << j
		} else if v != game.Empty {
			break
		}
	}
	return 1<<j - 1 + bits
}

// lineDirs are the four line directions in the board's order: horizontal,
// vertical, diagonal, anti-diagonal.
var lineDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// SquarePatterns returns the eight pattern indices of the empty square s for
// the player c: own[0..3] (c's rows through s) then opp[4..7] (the
// opponent's), each in 0..PatternCount-1.
func SquarePatterns(b *board.Board, s game.Square, c game.Color) [8]int {
	var out [8]int
	x, y := b.Rules().XY(s)
	for role, col := range [2]game.Color{c, c.Opp()} {
		for d, dv := range lineDirs {
			l := sideCode(b, x, y, -dv[0], -dv[1], col)
			h := sideCode(b, x, y, dv[0], dv[1], col)
			out[role*4+d] = min(l*PatternSides+h, h*PatternSides+l)
		}
	}
	return out
}

// PatternScale is the unit of the learned weights: a weight w stands for
// the logit w/PatternScale.
const PatternScale = 256

// PatternWeights are the policy model's weights: [0] own patterns, [1] opp
// patterns, in units of 1/PatternScale.
type PatternWeights [2][PatternCount]int16

// LearnedWeights decodes the weights learned by tools/train from the
// LittleGolem games (engine/player/patterns_gen.go): a fresh copy each call.
func LearnedWeights() *PatternWeights {
	w := new(PatternWeights)
	for role := range w {
		for idx := range w[role] {
			i := 2 * (role*PatternCount + idx)
			w[role][idx] = int16(uint16(patternWeightsData[i]) | uint16(patternWeightsData[i+1])<<8)
		}
	}
	return w
}

// Score is the model's score of the empty square s for c to move, in units
// of 1/PatternScale: the sum of its eight patterns' weights.
func (w *PatternWeights) Score(b *board.Board, s game.Square, c game.Color) int32 {
	pat := SquarePatterns(b, s, c)
	var v int32
	for i, idx := range pat {
		v += int32(w[i/4][idx])
	}
	return v
}

// learnedRules reports whether the learned weights apply to r: they were
// learned from Connect6 games (k = 6, p = 2) and read k-1 squares a side.
func learnedRules(r game.Rules) bool { return r.K == PatternReach+1 && r.P == 2 }

// squareScore is the policy's score of s for c to move, in units of
// 1/PatternScale: the weights w for Connect6-like rules, else (or with w
// nil) a hand-made score of the same kind (the live windows through s of
// both players, weighted by their stones).
func squareScore(b *board.Board, w *PatternWeights, s game.Square, c game.Color) int32 {
	if w != nil && learnedRules(b.Rules()) {
		return w.Score(b, s, c)
	}
	return genericSquareScore(b, s, c)
}

// genericSquareScore scores s for c by the windows through it: a window
// free of the opponent counts for c's stones in it (building), a window
// free of c counts for the opponent's (blocking), both growing
// geometrically with the stones, capped so that the sum cannot overflow.
func genericSquareScore(b *board.Board, s game.Square, c game.Color) int32 {
	o := c.Opp()
	k := b.Rules().K
	var v int64
	for _, w := range b.WindowsThrough(s) {
		ca, co := int(b.WindowStones(c, w)), int(b.WindowStones(o, w))
		switch {
		case co == 0 && ca > 0:
			v += genericWeight(ca, k, 3)
		case ca == 0 && co > 0:
			v += genericWeight(co, k, 2)
		}
	}
	return int32(min(v, 1<<30))
}

// genericWeight is n stones of a window of k, scaled so that a window one
// stone short of k weighs PatternScale*unit*8.
func genericWeight(n, k, unit int) int64 {
	shift := min(3*(n-(k-1)), 0)
	w := int64(PatternScale*unit*8) >> uint(-shift)
	return max(w, 1)
}

// ScoredSquare is a square and the policy model's score for it.
type ScoredSquare struct {
	Square game.Square
	Score  float64 // logit: higher is likelier
}

// CandidateSquares lists the squares the policy model chooses among: the
// empty squares within distance 2 of a stone (on the empty board, the
// centre square).
func CandidateSquares(b *board.Board) []game.Square { return candidateSquares(b) }

func candidateSquares(b *board.Board) []game.Square {
	r := b.Rules()
	if b.Stones(game.Black)+b.Stones(game.White) == 0 {
		return []game.Square{r.Sq(r.M/2, r.N/2)}
	}
	// Mark the squares within distance 2 of each stone, then list the
	// empty marked ones in square order.
	near := make([]bool, r.Squares())
	for s := range b.Rules().Squares() {
		v := b.At(game.Square(s))
		if v == game.Empty {
			continue
		}
		x, y := r.XY(game.Square(s))
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if r.OnBoard(x+dx, y+dy) {
					near[r.Sq(x+dx, y+dy)] = true
				}
			}
		}
	}
	var out []game.Square
	for s, ok := range near {
		if ok && b.At(game.Square(s)) == game.Empty {
			out = append(out, game.Square(s))
		}
	}
	return out
}

// RankSquares ranks the squares near the stones for the player to move, best
// first, at most n of them (n <= 0: all). With w, by the policy model (the
// line-pattern weights w; the hand-made pattern score for rules other than
// k = 6, p = 2); with w nil, by the one-ply pattern score the auto-pilot's
// candidate ranking uses (the position's live windows after placing the
// square).
func RankSquares(b *board.Board, n int, w *PatternWeights) []ScoredSquare {
	c := b.ToMove()
	var out []ScoredSquare
	for _, s := range candidateSquares(b) {
		var v float64
		if w != nil {
			v = float64(squareScore(b, w, s, c)) / PatternScale
		} else {
			b.Place(s, c)
			v = evalFor(b, c)
			b.Remove(s)
		}
		out = append(out, ScoredSquare{s, v})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Square < out[j].Square
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// ScoredMove is a move and the policy model's log-probability for it.
type ScoredMove struct {
	Move  game.Move
	Score float64
}

// turnStones is the number of stones the side to move places this turn
// (fewer when fewer squares are empty).
func turnStones(b *board.Board) int {
	want := b.Rules().StonesForTurn(b.Turn())
	if b.FromSetup() && b.Turn() == 0 && b.Stones(game.Black)+b.Stones(game.White) > 0 {
		want = b.Rules().P
	}
	return min(want, b.Empties())
}

// logSoftmax returns the scores (in units of 1/PatternScale) as
// log-probabilities of a softmax over them.
func logSoftmax(v []int32) []float64 {
	out := make([]float64, len(v))
	if len(v) == 0 {
		return out
	}
	hi := v[0]
	for _, x := range v {
		hi = max(hi, x)
	}
	var sum float64
	for i, x := range v {
		out[i] = float64(x-hi) / PatternScale
		sum += math.Exp(out[i])
	}
	ls := math.Log(sum)
	for i := range out {
		out[i] -= ls
	}
	return out
}

// rankedSingles scores every candidate square for c (log-probabilities),
// best first; squares in skip are left out.
func rankedSingles(b *board.Board, w *PatternWeights, c game.Color, skip game.Move) []ScoredSquare {
	var sq []game.Square
	for _, s := range candidateSquares(b) {
		if !skip.Contains(s) {
			sq = append(sq, s)
		}
	}
	if len(sq) == 0 {
		// Every square near the stones is taken: any empty square.
		for s := game.Square(0); int(s) < b.Rules().Squares(); s++ {
			if b.At(s) == game.Empty && !skip.Contains(s) {
				sq = append(sq, s)
			}
		}
	}
	raw := make([]int32, len(sq))
	for i, s := range sq {
		raw[i] = squareScore(b, w, s, c)
	}
	lp := logSoftmax(raw)
	out := make([]ScoredSquare, len(sq))
	for i, s := range sq {
		out[i] = ScoredSquare{s, lp[i]}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Square < out[j].Square
	})
	return out
}

// RankMoves ranks whole moves (the stones the turn places) of the player to
// move by the policy model w (nil: the hand-made pattern score), best first,
// at most n: the first stone among the best single squares, each next stone
// among the best squares once the stones before it are placed, a move
// scored by the sum of its stones' log-probabilities (the best order).
func RankMoves(b *board.Board, w *PatternWeights, n int) []ScoredMove {
	return rankMoves(b, w, b.ToMove(), turnStones(b), 10, n)
}

// rankMoves builds moves of the given number of stones for c from the best
// width squares at each stone (narrowing for the later stones). The scores
// of the squares are computed once; after a stone is placed only the
// squares on its lines (within PatternReach) are scored again, and the
// squares next to it join the candidates.
func rankMoves(b *board.Board, w *PatternWeights, c game.Color, stones, width, n int) []ScoredMove {
	best := map[game.Move]float64{}
	mark := make([]bool, b.Rules().Squares())
	var rec func(m game.Move, score float64, sq []game.Square, raw []int32, left, width int)
	rec = func(m game.Move, score float64, sq []game.Square, raw []int32, left, width int) {
		if left == 0 || len(sq) == 0 {
			if v, ok := best[m]; !ok || score > v {
				best[m] = score
			}
			return
		}
		lp := logSoftmax(raw)
		for _, i := range topIndices(raw, sq, width) {
			s := sq[i]
			if left == 1 {
				rec(m.With(s), score+lp[i], nil, nil, 0, 0)
				continue
			}
			b.Place(s, c)
			sq2, raw2 := rescoreAfter(b, w, c, s, sq, raw, mark)
			rec(m.With(s), score+lp[i], sq2, raw2, left-1, max(width/2, 4))
			b.Remove(s)
		}
	}
	sq := candidateSquares(b)
	if len(sq) == 0 {
		sq = b.StoneList(game.Empty)
	}
	raw := make([]int32, len(sq))
	for i, s := range sq {
		raw[i] = squareScore(b, w, s, c)
	}
	rec(game.Move{}, 0, sq, raw, stones, width)
	out := make([]ScoredMove, 0, len(best))
	for m, v := range best {
		out = append(out, ScoredMove{m, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return game.MoveLess(out[i].Move, out[j].Move)
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// topIndices returns the indices of the n highest scores, best first (ties:
// the smaller square first).
func topIndices(raw []int32, sq []game.Square, n int) []int {
	better := func(i, j int) bool {
		if raw[i] != raw[j] {
			return raw[i] > raw[j]
		}
		return sq[i] < sq[j]
	}
	var top []int
	for i := range raw {
		if len(top) == n && !better(i, top[n-1]) {
			continue
		}
		j := len(top)
		if j < n {
			top = append(top, i)
		} else {
			j = n - 1
		}
		for ; j > 0 && better(i, top[j-1]); j-- {
			top[j] = top[j-1]
		}
		top[j] = i
	}
	return top
}

// rescoreAfter returns the candidates and scores once s is placed (b holds
// it): s leaves, the squares on s's lines within PatternReach are scored
// again, and the empty squares within distance 2 of s join. mark is
// scratch space (all false on entry and on return).
func rescoreAfter(b *board.Board, w *PatternWeights, c game.Color, s game.Square, sq []game.Square, raw []int32, mark []bool) ([]game.Square, []int32) {
	r := b.Rules()
	sx, sy := r.XY(s)
	reach := PatternReach
	if !learnedRules(r) {
		reach = r.K - 1
	}
	sq2 := make([]game.Square, 0, len(sq)+8)
	raw2 := make([]int32, 0, len(sq)+8)
	for i, t := range sq {
		if t == s {
			continue
		}
		mark[t] = true
		tx, ty := r.XY(t)
		dx, dy := tx-sx, ty-sy
		v := raw[i]
		if (dx == 0 || dy == 0 || dx == dy || dx == -dy) && max(abs(dx), abs(dy)) <= reach {
			v = squareScore(b, w, t, c)
		}
		sq2 = append(sq2, t)
		raw2 = append(raw2, v)
	}
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if !r.OnBoard(sx+dx, sy+dy) {
				continue
			}
			t := r.Sq(sx+dx, sy+dy)
			if b.At(t) == game.Empty && !mark[t] {
				mark[t] = true
				sq2 = append(sq2, t)
				raw2 = append(raw2, squareScore(b, w, t, c))
			}
		}
	}
	for _, t := range sq2 {
		mark[t] = false
	}
	return sq2, raw2
}
