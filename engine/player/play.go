package player

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/internal/latest"
)

// The player: the move for the side to move, as a strong program chooses it.
//
//  1. Threat space first: a move that makes k in a row is played; a win the
//     threat-space solvers find (VCDT, then VCST) is played with its proof;
//     when the opponent threatens, every move considered blocks them.
//  2. Then a selective alpha-beta search over whole moves (iterative
//     deepening, a turn a ply): at each position the moves are built from
//     the squares the policy model ranks best (the line-pattern weights
//     learned from the LittleGolem games, patterns_gen.go) and from the
//     threat moves; a move that leaves its maker with a threat is searched
//     one turn deeper (the opponent's reply is forced); the leaves are scored
//     by the threats on the board and the live windows.
//     Where the LittleGolem games reached the position (GameMoves), the
//     moves whose record gives the mover a lower confidence bound of at
//     least GameBookLCB are searched too and put first, best record first,
//     unless the search proves a win or a loss: in the openings thousands
//     of games judge a move better than a four-turn search.
//  3. Last, safety: the search's moves are taken best first and the first
//     one after which the opponent has no VCDT win is played, so that no
//     move is played that loses to a VCDT when another (of those searched)
//     does not.
//
// Alpha-beta rather than Monte Carlo tree search: with a handful of
// policy-ranked moves a position, a two- or three-turn alpha-beta search
// finishes its iterations under a node budget, is deterministic (a given
// budget gives the same move on every machine, which the tests rely on),
// and its leaves can be decided exactly by the threat counts, where
// random playouts of Connect6 say little without a strong playout policy.

// PlayOptions configure Play.
type PlayOptions struct {
	// MaxNodes bounds the work: search nodes plus solver nodes (0: 300000
	// when Timeout is zero too, else unlimited).
	MaxNodes int64
	// Timeout bounds the wall time (0: none).
	Timeout time.Duration
	// Weights are the policy model (nil: the learned weights).
	Weights *PatternWeights
	// Width is the number of moves searched at the root (0: 12); inner
	// positions search half as many (at least 4).
	Width int
	// MaxDepth bounds the iterative deepening, in turns (0: 4).
	MaxDepth int
	// Progress, when set, receives reports from a separate goroutine, one
	// call at a time; a slow callback drops reports, it never slows the
	// search.
	Progress func(PlayProgress)
	// ProgressEvery is the minimum interval between reports (default 200ms).
	ProgressEvery time.Duration
	// NoGames leaves the games' moves (GameMoves) out: the search alone
	// (tools/match compares the two).
	NoGames bool
	// noTempo makes the search's leaves use evalFor (no tempo) instead of
	// playEval: the auto-pilot's ranking (PlayerCandidates), not the game
	// player's.
	noTempo bool
}

// PlayStage is the part of its work Play is in.
type PlayStage string

// Play's stages, in order.
const (
	StageSolve  PlayStage = "solve"  // the solvers look for a win
	StageSearch PlayStage = "search" // the game-tree search
	StageSafety PlayStage = "safety" // the chosen move is checked against the opponent's VCDT
)

// PlayProgress is reported while Play runs.
type PlayProgress struct {
	Stage   PlayStage
	Nodes   int64
	Depth   int // the deepest iteration completed
	Best    game.Move
	Score   float64
	Elapsed time.Duration
}

// PlayCandidate is a move Play considered at the root, with its score (the
// search's, from the mover's side; WinScore and above: a win found) and the
// policy model's prior (log-probability).
type PlayCandidate struct {
	Move  game.Move
	Score float64
	Prior float64
	// Loses: the opponent has a VCDT win after this move.
	Loses bool
	// PV is the search's principal variation starting with Move (nil when
	// no search iteration completed).
	PV []game.Move
	// Games and Wins are the move's record in the LittleGolem games
	// (GameMoves): decided games through it and the mover's wins (0: not
	// a games' move).
	Games, Wins int
}

// PlayResult is Play's answer.
type PlayResult struct {
	Move  game.Move
	Score float64
	// PV is the principal variation from the root, starting with Move.
	PV    []game.Move
	Nodes int64
	// Depth is the deepest search iteration completed (turns).
	Depth int
	// Reason says how the move was chosen.
	Reason     PlayReason
	Proof      *threat.Strategy // the solver's proof of a PlayVCDT/PlayVCST win
	Candidates []PlayCandidate
	Elapsed    time.Duration
}

// PlayReason says how Play chose its move. Its bytes are what c6 play
// prints and its JSON writes.
type PlayReason string

// How Play chose.
const (
	PlaySix     PlayReason = "six"     // the move makes k in a row
	PlayVCDT    PlayReason = "vcdt"    // a win the solver proved (Proof) by double threats
	PlayVCST    PlayReason = "vcst"    // a win the solver proved (Proof) by single threats
	PlayOpening PlayReason = "opening" // the empty board's centre
	PlaySearch  PlayReason = "search"  // the game-tree search's best move
	PlayGames   PlayReason = "games"   // the games' move with the best record (GameMoves)
	PlayOnly    PlayReason = "only"    // a single legal choice
	// PlayLost: every move loses: the opponent has more threats than one
	// turn blocks, or a VCDT win after every move searched.
	PlayLost PlayReason = "lost"
)

// maxSolverNodes bounds each solver call of Play when only a time budget
// is given.
const maxSolverNodes = 4 * threat.DefaultMaxNodes

// WinScore is the score of a won position (less the turns to the win).
const WinScore = 1e6

// safetyMaxNodes bounds each safety check (a VCDT of the opponent after a
// candidate).
const safetyMaxNodes = 50_000

// errBudget stops the search when the budget runs out.
var errBudget = errors.New("budget")

type player struct {
	ctx      context.Context
	opts     PlayOptions
	w        *PatternWeights
	start    time.Time
	deadline time.Time
	maxNodes int64
	nodes    int64
	// softNodes and softDeadline end the search early, leaving the rest
	// of the budget to the safety checks (0, zero: none); they do not end
	// the first iteration (depth 1: every root move scored by the
	// evaluation after it), only the budget itself does.
	softNodes    int64
	softDeadline time.Time
	prog         *latest.Reporter[PlayProgress]
	nextRep      time.Time
	stage        PlayStage
	depth        int
	best         game.Move
	bestSc       float64
	gen          *board.MoveGen
}

// Play chooses the move of the side to move at b. b is not modified. It
// fails on a finished game, a full board and rules the solvers do not run
// (the search itself runs on any rules). On cancellation it returns the
// best move found so far with ctx's error when it has one.
func Play(ctx context.Context, b *board.Board, opts PlayOptions) (PlayResult, error) {
	if b.Winner() != game.Empty {
		return PlayResult{}, fmt.Errorf("play: the game is over (%s has won)", b.Winner())
	}
	if b.Empties() == 0 {
		return PlayResult{}, errors.New("play: the board is full")
	}
	if opts.Width <= 0 {
		opts.Width = 12
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 4
	}
	pl := &player{ctx: ctx, opts: opts, w: opts.Weights, start: time.Now(), maxNodes: opts.MaxNodes, gen: board.NewMoveGen(b.Rules())}
	if pl.w == nil {
		pl.w = LearnedWeights()
	}
	if pl.maxNodes <= 0 && opts.Timeout <= 0 {
		pl.maxNodes = 300_000
	}
	if opts.Timeout > 0 {
		pl.deadline = pl.start.Add(opts.Timeout)
	}
	pl.prog = latest.NewReporter(opts.Progress)
	defer pl.prog.Stop(ctx)
	res, err := pl.play(b.Clone())
	res.Nodes = pl.nodes
	res.Elapsed = time.Since(pl.start)
	if err == nil && res.Move.Len() == 0 && len(res.Candidates) > 0 {
		res.Move = res.Candidates[0].Move
	}
	return res, err
}

// exhausted reports whether the budget is spent (or ctx done).
func (pl *player) exhausted() bool {
	soft := pl.stage != StageSearch || pl.depth >= 1
	if pl.maxNodes > 0 && pl.nodes >= pl.maxNodes || soft && pl.softNodes > 0 && pl.nodes >= pl.softNodes {
		return true
	}
	if pl.ctx.Err() != nil {
		return true
	}
	if pl.deadline.IsZero() && !pl.prog.Active() {
		return false
	}
	now := time.Now()
	if pl.prog.Active() && !now.Before(pl.nextRep) {
		every := pl.opts.ProgressEvery
		if every <= 0 {
			every = 200 * time.Millisecond
		}
		pl.nextRep = now.Add(every)
		pl.prog.Send(PlayProgress{Stage: pl.stage, Nodes: pl.nodes, Depth: pl.depth, Best: pl.best, Score: pl.bestSc, Elapsed: now.Sub(pl.start)})
	}
	return !pl.deadline.IsZero() && !now.Before(pl.deadline) || soft && !pl.softDeadline.IsZero() && !now.Before(pl.softDeadline)
}

// share returns solver limits of a fraction of what is left of the budget.
func (pl *player) share(frac float64) (threat.Limits, bool) {
	var lim threat.Limits
	if pl.maxNodes > 0 {
		left := pl.maxNodes - pl.nodes
		lim.MaxNodes = int64(float64(left) * frac)
		if lim.MaxNodes < 1 {
			return lim, false
		}
	} else {
		// A time budget alone: the solver's tree still has a bound, so
		// that memory stays bounded however long the budget.
		lim.MaxNodes = maxSolverNodes
	}
	if !pl.deadline.IsZero() {
		left := time.Until(pl.deadline)
		lim.Timeout = time.Duration(float64(left) * frac)
		if lim.Timeout <= 0 {
			return lim, false
		}
	}
	return lim, pl.ctx.Err() == nil
}

// solverRuns reports whether the threat-space solvers run on b's next turn.
func solverRuns(b *board.Board) bool {
	return b.Rules().P <= 2 && turnStones(b) == b.Rules().P && b.Empties() >= b.Rules().P
}

func (pl *player) play(b *board.Board) (PlayResult, error) {
	c := b.ToMove()
	d := c.Opp()
	want := turnStones(b)
	// 1. Threat space: a six, a proved win.
	if mv, ok := b.WinningMove(c); ok && mv.Len() <= want {
		return PlayResult{Move: mv, Score: WinScore, PV: []game.Move{mv}, Reason: PlaySix, Candidates: []PlayCandidate{{Move: mv, Score: WinScore}}}, nil
	}
	if b.Stones(game.Black)+b.Stones(game.White) == 0 {
		m := openingMove(b, want)
		return PlayResult{Move: m, PV: []game.Move{m}, Reason: PlayOpening, Candidates: []PlayCandidate{{Move: m}}}, nil
	}
	if solverRuns(b) && b.Threats(d) <= b.Rules().P {
		pl.stage = StageSolve
		for i, mode := range []threat.Mode{threat.VCDT, threat.VCST} {
			lim, ok := pl.share([]float64{0.2, 0.15}[i])
			if !ok {
				break
			}
			r, err := threat.Solve(pl.ctx, b, threat.Params{Mode: mode, Limits: lim})
			pl.nodes += r.Nodes
			if err != nil {
				return PlayResult{}, err
			}
			if r.Outcome == threat.Win {
				return PlayResult{Move: r.Move, Score: WinScore - float64(len(r.Line)), PV: r.Line, Reason: PlayReason(r.Mode.String()), Proof: r.Tree,
					Candidates: []PlayCandidate{{Move: r.Move, Score: WinScore - float64(len(r.Line))}}}, nil
			}
			if r.Reason != threat.ReasonExhausted {
				break // out of budget: VCST would not get further
			}
		}
	}
	// 1b. The opponent's threat: a VCDT of d after a null move of c. When
	// it wins, a move of c with no stone in its relevance zone (at
	// tolerance p: any p stones of c outside it) loses to it, unless the
	// move threatens (d must answer first); the root's moves are built in
	// the zone, and the safety checks skip the moves the zone condemns.
	var zone []bool
	if solverRuns(b) && b.Threats(d) == 0 {
		if lim, ok := pl.share(pl.threatShare()); ok {
			nb := b.Clone()
			nb.SetToMove(d)
			r, err := threat.Solve(pl.ctx, nb, threat.Params{Mode: threat.VCDT, Tolerance: b.Rules().P, Limits: lim})
			pl.nodes += r.Nodes
			if err != nil {
				return PlayResult{}, err
			}
			if r.Outcome == threat.Win && len(r.Zone) > 0 {
				zone = make([]bool, b.Rules().Squares())
				for _, s := range r.Zone {
					zone[s] = true
				}
			}
		}
	}
	// 2. The search, on part of what is left (the rest: the safety checks).
	pl.stage = StageSearch
	if lim, ok := pl.share(pl.searchShare(zone != nil)); ok {
		if pl.maxNodes > 0 {
			pl.softNodes = pl.nodes + max(lim.MaxNodes, 1)
		}
		if lim.Timeout > 0 {
			pl.softDeadline = time.Now().Add(lim.Timeout)
		}
	}
	var games []GameMove
	if !pl.opts.NoGames {
		games = GameMoves(b)
	}
	first := pl.firstGameMoves(b, games, want)
	root := pl.rootMoves(b, c, pl.opts.Width, zone)
	root = withMoves(first, root)
	if len(root) == 0 {
		return PlayResult{}, errors.New("play: no move to play")
	}
	cands := make([]PlayCandidate, len(root))
	for i, m := range root {
		cands[i] = PlayCandidate{Move: m.Move, Score: math.Inf(-1), Prior: m.Score}
		for _, g := range games {
			if g.Move == m.Move {
				cands[i].Games, cands[i].Wins = g.Games, g.Wins
			}
		}
	}
	var pv []game.Move
	lostByThreats := b.Threats(d) > want
	if len(root) == 1 {
		pv = []game.Move{root[0].Move}
	}
	for depth := 1; depth <= pl.opts.MaxDepth && len(root) > 1; depth++ {
		scores := make([]float64, len(cands))
		pvs := make([][]game.Move, len(cands))
		aborted := false
		for i := range cands {
			m := cands[i].Move
			pl.place(b, m)
			sub, v, err := pl.search(b, depth-1, -math.Inf(1), math.Inf(1), 1, pl.extends(b, c))
			pl.unplace(b, m)
			if err != nil {
				aborted = true
				break
			}
			scores[i] = -v
			pvs[i] = append([]game.Move{m}, sub...)
		}
		if aborted {
			break
		}
		for i := range cands {
			cands[i].Score = scores[i]
			cands[i].PV = pvs[i]
		}
		order := make([]int, len(cands))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(x, y int) bool { return scores[order[x]] > scores[order[y]] })
		sorted := make([]PlayCandidate, len(cands))
		for i, j := range order {
			sorted[i] = cands[j]
		}
		cands = sorted
		pv = pvs[order[0]]
		pl.depth, pl.best, pl.bestSc = depth, cands[0].Move, cands[0].Score
		if cands[0].Score >= WinScore/2 || cands[0].Score <= -WinScore/2 && cands[len(cands)-1].Score <= -WinScore/2 {
			break // decided
		}
	}
	res := PlayResult{Depth: pl.depth, Reason: PlaySearch, PV: pv}
	if len(root) == 1 {
		res.Reason = PlayOnly
	}
	gamesFirst(cands, first)
	// 3. Safety: the first move (best first) after which the opponent has
	// no VCDT win.
	pl.stage = StageSafety
	pl.softNodes, pl.softDeadline = 0, time.Time{}
	chosen := -1
	if solverRuns(b) && !lostByThreats && len(cands) > 1 && cands[0].Score < WinScore/2 {
		for i := range cands {
			lim, ok := pl.share(0.5)
			if !ok {
				break
			}
			lim.MaxNodes = min(lim.MaxNodes, safetyMaxNodes)
			pl.place(b, cands[i].Move)
			loses := false
			if zone != nil && !touches(cands[i].Move, zone) && !b.HasThreat(c) && b.Winner() == game.Empty {
				loses = true // the null move's win stands: no stone in its zone, no threat to answer
			} else if b.Winner() == game.Empty && b.Empties() >= b.Rules().P {
				r, err := threat.Solve(pl.ctx, b, threat.Params{Mode: threat.VCDT, Limits: lim})
				pl.nodes += r.Nodes
				loses = err == nil && r.Outcome == threat.Win
			}
			pl.unplace(b, cands[i].Move)
			cands[i].Loses = loses
			if !loses {
				chosen = i
				break
			}
		}
	}
	if chosen > 0 {
		// Move the safe one to the front.
		safe := cands[chosen]
		copy(cands[1:chosen+1], cands[:chosen])
		cands[0] = safe
	}
	if len(cands[0].PV) > 0 {
		res.PV = cands[0].PV
	}
	if chosen < 0 && len(cands) > 0 && cands[0].Loses {
		allLose := true
		for _, cd := range cands {
			allLose = allLose && cd.Loses
		}
		if allLose {
			res.Reason = PlayLost
		}
	}
	if lostByThreats {
		res.Reason = PlayLost
	}
	res.Candidates = cands
	res.Move = cands[0].Move
	if res.Reason == PlaySearch && slices.ContainsFunc(first, func(m ScoredMove) bool { return m.Move == res.Move }) {
		res.Reason = PlayGames
	}
	res.Score = cands[0].Score
	if math.IsInf(res.Score, -1) {
		res.Score = 0
	}
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []game.Move{res.Move}
	}
	if err := pl.ctx.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// firstGameMoves are the games' moves Play tries first: a turn's stones,
// with a record of at least GameBookLCB for the mover, best first, that
// leave the opponent no threat (a games' move that does not answer one
// loses at once). Each is scored by the policy's prior, as rootMoves
// scores its moves.
func (pl *player) firstGameMoves(b *board.Board, games []GameMove, want int) []ScoredMove {
	var out []ScoredMove
	c := b.ToMove()
	for _, g := range games {
		if g.Move.Len() != want || g.LCB() < GameBookLCB {
			continue
		}
		pl.place(b, g.Move)
		blocks := !b.HasThreat(c.Opp())
		pl.unplace(b, g.Move)
		if blocks {
			out = append(out, ScoredMove{g.Move, movePrior(b, pl.w, c, g.Move)})
		}
	}
	return out
}

// movePrior is the policy's log-probability of m for c: the sum of its
// stones', each given the ones placed before it, in the best order for two
// stones (rankMoves' score of the moves it builds), in square order for
// more; -Inf for a stone the policy does not rank.
func movePrior(b *board.Board, w *PatternWeights, c game.Color, m game.Move) float64 {
	inOrder := func(sq []game.Square) float64 {
		v := 0.0
		for i, s := range sq {
			lp := math.Inf(-1)
			for _, ss := range rankedSingles(b, w, c, game.Move{}) {
				if ss.Square == s {
					lp = ss.Score
					break
				}
			}
			v += lp
			if i < len(sq)-1 {
				b.Place(s, c)
			}
		}
		for i := len(sq) - 2; i >= 0; i-- {
			b.Remove(sq[i])
		}
		return v
	}
	sq := m.Squares()
	best := inOrder(sq)
	if len(sq) == 2 {
		best = max(best, inOrder([]game.Square{sq[1], sq[0]}))
	}
	return best
}

// withMoves returns first, then the moves of rest not in first.
func withMoves(first, rest []ScoredMove) []ScoredMove {
	if len(first) == 0 {
		return rest
	}
	out := append([]ScoredMove(nil), first...)
	for _, m := range rest {
		if !slices.ContainsFunc(first, func(f ScoredMove) bool { return f.Move == m.Move }) {
			out = append(out, m)
		}
	}
	return out
}

// gamesFirst puts the candidates that are moves of first at the front, in
// first's order, the others after them in their order; unless the search
// decided the game: a win found stays first, and a move the search found
// lost is not moved up.
func gamesFirst(cands []PlayCandidate, first []ScoredMove) {
	if len(first) == 0 || len(cands) == 0 || cands[0].Score >= WinScore/2 {
		return
	}
	rank := func(c PlayCandidate) int {
		if c.Score <= -WinScore/2 {
			return len(first)
		}
		for i, f := range first {
			if f.Move == c.Move {
				return i
			}
		}
		return len(first)
	}
	sort.SliceStable(cands, func(i, j int) bool { return rank(cands[i]) < rank(cands[j]) })
}

// threatShare is the part of what is left that the opponent's null-move
// VCDT may use.
func (pl *player) threatShare() float64 { return 0.2 }

// searchShare is the part of what is left that the search may use: less
// when the opponent threatens a VCDT, since then the safety checks decide.
func (pl *player) searchShare(threatened bool) float64 {
	if threatened {
		return 0.3
	}
	return 0.4
}

// touches reports whether a stone of m is in zone.
func touches(m game.Move, zone []bool) bool {
	for i := 0; i < m.Len(); i++ {
		if zone[m.At(i)] {
			return true
		}
	}
	return false
}

// rootMoves lists up to about n moves of c at b for the root: pl.moves,
// unless the opponent wins after a null move (zone: its relevance zone),
// when the moves are the policy's moves with a stone in the zone, the
// pairs of the zone's best squares with the policy's best next stone, and
// the threat moves (which the opponent must answer before it attacks).
func (pl *player) rootMoves(b *board.Board, c game.Color, n int, zone []bool) []ScoredMove {
	want := turnStones(b)
	if zone == nil || b.Threats(c.Opp()) > 0 || want != b.Rules().P || want < 1 {
		return pl.moves(b, c, n)
	}
	seen := map[game.Move]bool{}
	var out []ScoredMove
	add := func(m game.Move, prior float64) {
		if m.Len() != want || seen[m] {
			return
		}
		seen[m] = true
		out = append(out, ScoredMove{m, prior})
	}
	for _, sm := range rankMoves(b, pl.w, c, want, 2*n, 4*n) {
		if touches(sm.Move, zone) {
			add(sm.Move, sm.Score)
		}
		if len(out) >= n/2 {
			break
		}
	}
	// The zone's best squares, each with the best stones after it.
	singles := rankedSingles(b, pl.w, c, game.Move{})
	zs := 0
	for _, ss := range singles {
		if !zone[ss.Square] {
			continue
		}
		if zs++; zs > max(n/2, 3) {
			break
		}
		if want == 1 {
			add(game.NewMove(ss.Square), ss.Score)
			continue
		}
		b.Place(ss.Square, c)
		for _, sm := range rankMoves(b, pl.w, c, want-1, 3, 2) {
			m := sm.Move.With(ss.Square)
			add(m, ss.Score+sm.Score)
		}
		b.Remove(ss.Square)
	}
	for _, sm := range pl.threatMoves(b, c, max(n/3, 2)) {
		add(sm.Move, sm.Score-10)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// openingMove is the first turn on the empty board: the stones at the
// centre, then the squares next to it.
func openingMove(b *board.Board, want int) game.Move {
	r := b.Rules()
	cx, cy := r.M/2, r.N/2
	var sq []game.Square
	for ring := 0; len(sq) < want && ring < max(r.M, r.N); ring++ {
		for dy := -ring; dy <= ring && len(sq) < want; dy++ {
			for dx := -ring; dx <= ring && len(sq) < want; dx++ {
				if max(abs(dx), abs(dy)) == ring && r.OnBoard(cx+dx, cy+dy) {
					sq = append(sq, r.Sq(cx+dx, cy+dy))
				}
			}
		}
	}
	return game.NewMove(sq...)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// place plays m for the side to move (raw stones; the turn counts on).
func (pl *player) place(b *board.Board, m game.Move) { b.PlaceTurn(m) }

func (pl *player) unplace(b *board.Board, m game.Move) { b.RemoveTurn(m) }

// extends reports the threat extension of the move just made by c: the
// opponent must block, so the reply does not count as a turn of depth.
func (pl *player) extends(b *board.Board, c game.Color) int {
	if b.HasThreat(c) {
		return 1
	}
	return 0
}

// search is negamax alpha-beta from the side to move at b: its score and
// principal variation.
func (pl *player) search(b *board.Board, depth int, alpha, beta float64, ply, ext int) ([]game.Move, float64, error) {
	pl.nodes++
	if pl.exhausted() {
		return nil, 0, errBudget
	}
	c := b.ToMove()
	d := c.Opp()
	if b.Winner() != game.Empty {
		return nil, -(WinScore - float64(ply)), nil // the player who just moved made k in a row
	}
	if b.Empties() == 0 {
		return nil, 0, nil
	}
	want := turnStones(b)
	if mv, ok := b.WinningMove(c); ok && mv.Len() <= want {
		return []game.Move{mv}, WinScore - float64(ply), nil
	}
	if b.Threats(d) > want {
		return nil, -(WinScore - float64(ply+1)), nil
	}
	if ext > 0 && depth < 0 {
		depth = 0
	}
	if depth <= 0 && ext == 0 {
		return nil, pl.static(b, c), nil
	}
	moves := pl.moves(b, c, max(pl.opts.Width/2, 4))
	if len(moves) == 0 {
		return nil, pl.static(b, c), nil
	}
	best := math.Inf(-1)
	var bestPV []game.Move
	for _, sm := range moves {
		m := sm.Move
		pl.place(b, m)
		nd, ne := depth-1, 0
		if ext < 2 && b.HasThreat(c) {
			nd, ne = depth, ext+1 // the reply is forced: search it
		}
		if ext > 0 && depth <= 0 {
			nd = -1
		}
		sub, v, err := pl.search(b, nd, -beta, -alpha, ply+1, ne)
		pl.unplace(b, m)
		if err != nil {
			return nil, 0, err
		}
		v = -v
		if v > best {
			best = v
			bestPV = append([]game.Move{m}, sub...)
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return bestPV, best, nil
}

// static scores b for c to move (thousands of pattern points), with the
// tempo: playEval.
func (pl *player) static(b *board.Board, c game.Color) float64 {
	if pl.opts.noTempo {
		return evalFor(b, c) / 1000
	}
	return playEval(b, c) / 1000
}

// The tempo weights of playEval, chosen by tools/match (its command and
// figures: docs/BENCHMARKS.md): a window of the side to move with k-p-2 or k-p-1
// stones (2 or 3 in Connect6; and none of the opponent's) counts tempo2 or
// tempo3 times its evalFor weight; a window of the opponent's counts
// oppWeight times (evalFor: 1 and 0.7).
const (
	tempo2    = 1.5
	tempo3    = 2
	oppWeight = 0.5
)

// playEval is the player's static evaluation of b for c to move: the live
// windows (free of the other colour) of both, 8^stones each, as evalFor,
// but with the tempo: c places its stones next, so its windows one or two
// stones short of a threat (k-p stones) count more, the opponent's less
// (c can block them first).
func playEval(b *board.Board, c game.Color) float64 {
	d := c.Opp()
	t3 := uint8(max(b.Rules().K-b.Rules().P-1, 0))
	var v float64
	for _, w := range b.Windows() { // the order of the float sum
		ca, cd := b.WindowStones(c, w), b.WindowStones(d, w)
		switch {
		case ca > 0 && cd == 0:
			x := float64(int(1) << (3 * ca))
			switch ca {
			case t3 - 1:
				x *= tempo2
			case t3:
				x *= tempo3
			}
			v += x
		case cd > 0 && ca == 0:
			v -= oppWeight * float64(int(1)<<(3*cd))
		}
	}
	return v
}

// moves lists up to n moves of c at b, best first by the policy model:
// when the opponent threatens, only moves that block every threat window
// (the critical defences completed by the best squares); otherwise the
// policy's best moves and the threat moves. A move that makes k in a row
// comes first.
func (pl *player) moves(b *board.Board, c game.Color, n int) []ScoredMove {
	d := c.Opp()
	want := turnStones(b)
	seen := map[game.Move]bool{}
	var out []ScoredMove
	add := func(m game.Move, prior float64) {
		if m.Len() != want || seen[m] {
			return
		}
		seen[m] = true
		out = append(out, ScoredMove{m, prior})
	}
	td := b.Threats(d)
	switch {
	case td > 0 && td <= want:
		normal, relaxed := b.CriticalDefences(d)
		for _, blk := range append(normal, relaxed...) {
			if blk.Len() > want {
				continue
			}
			for i := 0; i < blk.Len(); i++ {
				b.Place(blk.At(i), c)
			}
			var prior float64
			for i := 0; i < blk.Len(); i++ {
				prior += float64(squareScore(b, pl.w, blk.At(i), c)) / PatternScale
			}
			if blk.Len() == want {
				add(blk, prior)
			} else {
				for _, sm := range rankMoves(b, pl.w, c, want-blk.Len(), n, n) {
					m := blk
					for i := 0; i < sm.Move.Len(); i++ {
						m = m.With(sm.Move.At(i))
					}
					add(m, prior+sm.Score)
				}
			}
			for i := blk.Len() - 1; i >= 0; i-- {
				b.Remove(blk.At(i))
			}
		}
		// Any block that leaves a threat window open is no block.
		kept := out[:0]
		for _, sm := range out {
			for i := 0; i < sm.Move.Len(); i++ {
				b.Place(sm.Move.At(i), c)
			}
			ok := !b.HasThreat(d)
			for i := sm.Move.Len() - 1; i >= 0; i-- {
				b.Remove(sm.Move.At(i))
			}
			if ok {
				kept = append(kept, sm)
			}
		}
		out = kept
	default:
		// Threat moves first in the list's budget (the strongest: most
		// threats, then best prior), the rest of it the policy's moves.
		var ts []ScoredMove
		if td == 0 && b.Rules().P <= 2 && want == b.Rules().P {
			ts = pl.threatMoves(b, c, max(n/3, 2))
		}
		for _, sm := range rankMoves(b, pl.w, c, want, n, n) {
			if len(out) >= n-len(ts) {
				break
			}
			add(sm.Move, sm.Score)
		}
		for _, sm := range ts {
			add(sm.Move, sm.Score-10)
		}
	}
	if len(out) == 0 && td > want {
		// Lost: the opponent wins next turn whatever; play the policy's move.
		for _, sm := range rankMoves(b, pl.w, c, want, n, n) {
			add(sm.Move, sm.Score)
		}
	}
	return out
}

// threatMoves returns up to n threat moves of c (leaving at least one
// threat), the most threats first, then the best prior.
func (pl *player) threatMoves(b *board.Board, c game.Color, n int) []ScoredMove {
	tms := pl.gen.Generate(b, c, 1, board.FreeNear, nil)
	type tm struct {
		m     game.Move
		t     int
		prior float64
	}
	ts := make([]tm, 0, len(tms))
	cache := make([]int32, b.Rules().Squares())
	known := make([]bool, b.Rules().Squares())
	for _, t := range tms {
		var prior float64
		for i := 0; i < t.Move.Len(); i++ {
			s := t.Move.At(i)
			if !known[s] {
				cache[s], known[s] = squareScore(b, pl.w, s, c), true
			}
			prior += float64(cache[s]) / PatternScale
		}
		ts = append(ts, tm{t.Move, t.Threats, prior})
	}
	better := func(x, y tm) int {
		switch {
		case x.t != y.t:
			return cmp.Compare(y.t, x.t)
		case x.prior != y.prior:
			return cmp.Compare(y.prior, x.prior)
		case game.MoveLess(x.m, y.m):
			return -1
		case game.MoveLess(y.m, x.m):
			return 1
		}
		return 0
	}
	// The n best (the order is total: they are the sorted list's first n).
	top := make([]tm, 0, n+1)
	for _, t := range ts {
		if len(top) == n && better(t, top[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, t, better)
		top = slices.Insert(top, i, t)
		if len(top) > n {
			top = top[:n]
		}
	}
	out := make([]ScoredMove, 0, n)
	for _, t := range top {
		out = append(out, ScoredMove{t.m, t.prior})
	}
	return out
}
