package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"c6book"
	"c6book/engine"
)

// The auto-pilot: engine.JobSearch (job-level proof-number search) over the
// book's stored positions. At an attacker-to-move position it adds the
// engine's ranked candidate moves (a first batch, doubled each time every
// move tried has failed); at a defender-to-move position without a usable
// verdict it runs the verifier, through an engine.Verifier, and stores the
// verdict with StoreVerdict (re-checked by proofcheck) the moment it
// arrives. Everything it learns is in the book: a run that is stopped or
// killed loses at most the jobs in flight, and the same call continues.
//
// The attacker's moves come from the engine's player (issue 23,
// engine.PlayerCandidates: threat moves first, then the player's ranked
// moves), and every position the search has not worked on starts from
// the numbers its evaluation expects (engine.ExpectedNumbers): the
// player's score of the move that led to it, else the static evaluation.
// Beside the player's moves the auto-pilot tries the moves that build
// strong shapes with the attacker's stones (engine.ShapeCandidates: the
// Connect(6,2,3) triangle family first) and, first of all, the moves that
// proved a sibling position (siblingMoves). With ProveOptions.Screen the
// new moves of an expansion are verified at once at a small budget (the
// screen), a move it proves being proved at once. The player thinks
// longer at each widening of a position (its budget grows fourfold).
//
// Why λ3 items close so rarely in openings: an open seminull item s is
// the position D+s until D+s is proved, and then every full move (s, x)
// with x in the zone Z(s) of D+s's proof, each a position of its own that
// needs an attacker move and a verifier call. At tolerance 1 that zone
// is large: on j10 a1s19 l8k9, the item i11 is proved by m7j8 in one call
// (107 solver calls at 30,000 nodes), with a zone of 107 squares, so the
// one item turns into about a hundred, the position's proof number jumps
// by as much, and the search goes elsewhere. The move that proved D+s is
// the natural first answer to each (s, x) (it proved the position with
// one defender stone fewer, and x is one stone more): the family job
// (family.go) adds it to every (s, x) at once and verifies them in one
// job, and until it ran the search counts the family as one position, so
// that the item closes in the time a run has; siblingMoves offers it
// first again to the ones it did not prove. Beside them, zone reuse
// (zonereuse.go) offers a proved sibling's move where the position agrees
// with the sibling's proof on its zone.
//
// These change only the order of the work, never what counts as proved:
// a proof is still the verdicts StoreVerdict re-checked.
//
// The expert's word wins: a position marked disproved is never worked on
// again, moves stored by hand are verified before the engine's candidates,
// and a position held ("leave to me", SetHold) is skipped together with
// everything below it. Moves the games in the book played (a move whose
// position games reached) come before the engine's candidates only where
// the games say they are good for the attacker: the lower bound of the
// Wilson score interval of the attacker's share of the decided games
// through the move at least ProveOptions.GameLCB; the others come after
// the engine's candidates. (The book does not record whether a stored move
// was typed or imported: a move games reached counts as imported.)
//
// The verifier's node budget widens (ProveOptions.FirstNodes): a
// position is verified first with every solver call at FirstNodes nodes,
// so a defender move the solvers cannot refute costs little; when the
// verdict leaves a move unsolved for want of budget (or no zone bounds
// the defence) and the search selects the position again, it is verified
// again at four times the budget, up to Verify.Limits.MaxNodes, before
// any of its replies is worked on. A budget only limits what the solvers
// find: each verdict is re-checked when stored, whatever its budget, and
// a proved position is never verified again.

// ProveOptions configure Prove.
type ProveOptions struct {
	Attacker engine.Color
	// Verify configures every verifier call; its Tolerance is set for each
	// position (the defender's stone deficit). Lambda 2 or 3.
	Verify engine.VerifyOptions
	// FirstNodes is the node budget of each solver call of a position's
	// first verification; later ones at the same position, this run,
	// take four times the previous budget, at most Verify.Limits.MaxNodes
	// (the schedule, BudgetSchedule). 0, or at least MaxNodes: every call
	// at MaxNodes. (A verdict stored before this run is taken as it is:
	// its budget is not stored.)
	FirstNodes int64
	Jobs       int           // verifier jobs at once (0: 1)
	MaxCalls   int           // verifier calls at most (0: no limit)
	MaxTime    time.Duration // (0: no limit) jobs in flight at the limit are cancelled
	// Candidates is the first batch of attacker moves at a position (0: 4);
	// each time all moves there failed the batch doubles, up to
	// MaxCandidates (0: 32).
	Candidates, MaxCandidates int
	// PlayerNodes is the node budget of each player call choosing the
	// attacker's moves at a position (0: engine.DefaultCandidateNodes).
	PlayerNodes int64
	// GameLCB is the least lower confidence bound (Wilson, z = GameZ) of
	// the attacker's win rate in the games through an imported move for it
	// to be tried before the engine's candidates (0: 0.5; above 1: never).
	// GameZ 0: 1.645 (one-sided 95%).
	GameLCB, GameZ float64
	// Shapes is how many shape moves (engine.ShapeCandidates: the moves
	// that build the best three- and four-stone shapes, the Connect(6,2,3)
	// triangle family) are mixed with the player's moves at a position
	// (engine.MixCandidates: a shape move and a player move in turn); 0:
	// 8, below 0: none.
	Shapes int
	// Screen is how many of a position's new attacker moves are verified at
	// once, at ScreenNodes nodes a solver call, when they are added (the
	// screen, 0: none). Each verdict is stored like any (re-checked by
	// proofcheck): a move the screen proves is a proof at once. The others
	// are ordered by what they leave (screenRank) and verified again at
	// the schedule's budgets when the search selects them.
	Screen      int
	ScreenNodes int64 // 0: 20,000
	// MaxPlayerNodes caps the player's budget, which grows fourfold with
	// each widening at a position (its first moves failed or look bad):
	// PlayerNodes, 4×, 16×, … (0: 16 × PlayerNodes).
	MaxPlayerNodes int64
	// NoSiblings: do not try first the moves that proved a sibling
	// (siblingMoves); for measurements.
	NoSiblings bool
	// NoReuse: do not offer first the moves of proved siblings whose
	// relevance zone the position agrees with (zoneReuseMoves); for
	// measurements.
	NoReuse bool
	// NoFamily: work on the full moves (s, x) of a closed seminull item
	// one by one, without the family job (runFamily); for measurements.
	NoFamily bool
}

// DefaultScreenNodes is the screen's node budget per solver call when
// ProveOptions.ScreenNodes is 0.
const DefaultScreenNodes = 20_000

// Frontier is a position where the auto-pilot stopped: FrontierOpen (work
// left: a verifier run or new attacker moves), FrontierHeld (left to the
// expert), FrontierRefused (its verdict was refused) or FrontierStuck
// (nothing the auto-pilot can do: e.g. an item not stored).
type Frontier struct {
	ID     PosID
	PN, DN int64
	Why    engine.FrontierReason
}

// ProveResult is the outcome of Prove.
type ProveResult struct {
	// Status: proved, failed (every attacker move tried failed: the
	// auto-pilot's dead end, not a disproof stored in the book), budget,
	// stuck (nothing left the auto-pilot may work on) or stopped (ctx done).
	Status   c6book.ProveStatus
	Calls    int // jobs finished: verifier calls stored, a seminull family job counting once (FamilyCalls)
	Expanded int // batches of candidate moves added
	Added    int // positions stored
	Nodes    int // positions below the target the search read (again after its cache dropped them)
	Proved   int // positions proved during the run (see BookProved)
	Open     int // positions with work left (verifier runs, new attacker moves)
	PN, DN   int64
	Elapsed  time.Duration
	Frontier []Frontier   // the most-proving open positions, smallest proof number first
	Proof    c6book.Proof // the target's book status at the end
	// Refused lists the verdicts StoreVerdict refused (a verifier that
	// cannot be trusted: their positions were left alone).
	Refused []string
	// Budgets are the node budgets of the schedule, smallest first, and
	// CallsAt the verifier calls stored at each (same order); Again counts
	// the verifications of a position verified before in this run.
	Budgets []int64
	CallsAt []int
	Again   int
	// Screened counts the screen's verifier calls (stored verdicts; their
	// budget is Budgets[0] when the screen is on), ScreenProved those that
	// proved their move.
	Screened, ScreenProved int
	// FamilyJobs counts the seminull family jobs (each verifies the full
	// moves (s, x) of a closed seminull item s with the move that proved
	// s's position), FamilyCalls their verifier calls (stored verdicts,
	// not counted in Calls), FamilyProved the positions they proved.
	FamilyJobs, FamilyCalls, FamilyProved int
	// Proved is the book's positions proved for the attacker at the end
	// less those at the start (provedcount.go); BookProved is the book's
	// count at the end. SearchProved counts the search tree's nodes proved
	// as the search last saw them (what Proved counted before: a proved
	// node's subtree is not looked at, so it says little of what the run
	// proved).
	BookProved, SearchProved int

	// Held is the positions the search held at the end (its cache of the
	// tree), MaxHeld the most it held at once (engine.DefaultCacheNodes
	// bounds them, whatever the run's length and jobs).
	Held, MaxHeld int
}

// BudgetFactor is how much the node budget of a position's solver calls
// grows each time the auto-pilot verifies it again.
const BudgetFactor = 4

// BudgetSchedule is the node budgets of a position's verifications in
// turn: first, first×BudgetFactor, … up to and ending with most (only
// most when first is 0 or at least most, or most is not positive).
func BudgetSchedule(first, most int64) []int64 {
	if most <= 0 || first <= 0 || first >= most {
		return []int64{most}
	}
	var out []int64
	for b := first; b < most; b *= BudgetFactor {
		out = append(out, b)
	}
	return append(out, most)
}

// proveStatus is the auto-pilot's outcome for the job search's: a
// "disproved" search is the auto-pilot's dead end ("failed"), not the
// book's disproof.
func proveStatus(s engine.SearchStatus) c6book.ProveStatus {
	if s == engine.SearchDisproved {
		return c6book.ProveFailed
	}
	return c6book.ProveStatus(s)
}

// Prove runs the auto-pilot below position id for opts.Attacker with
// verifier v. Each verdict is committed the moment its job ends, so other
// readers (the workbench) see them land; progress, when not nil, is called
// from a goroutine of its own and never slows the search. A done ctx stops
// it (the result says "stopped" and ctx's error is returned); what is
// stored stays.
func (bk *Book) Prove(ctx context.Context, id PosID, v engine.Verifier, opts ProveOptions, progress func(c6book.ProveProgress)) (ProveResult, error) {
	if opts.Attacker != engine.Black && opts.Attacker != engine.White {
		return ProveResult{}, errors.New("prove: attacker must be Black or White")
	}
	if opts.Verify.Lambda != 2 && opts.Verify.Lambda != 3 {
		return ProveResult{}, fmt.Errorf("prove: lambda %d: want 2 or 3", opts.Verify.Lambda)
	}
	if v == nil {
		return ProveResult{}, errors.New("prove: no verifier")
	}
	if err := bk.CheckWritable(ctx); err != nil { // read-only or damaged: before any verifier call
		return ProveResult{}, err
	}
	if opts.Candidates <= 0 {
		opts.Candidates = 4
	}
	if opts.MaxCandidates <= 0 {
		opts.MaxCandidates = 32
	}
	opts.MaxCandidates = max(opts.MaxCandidates, opts.Candidates)
	if opts.GameLCB == 0 {
		opts.GameLCB = 0.5
	}
	if opts.GameZ <= 0 {
		opts.GameZ = engine.GameZ
	}
	if opts.Shapes == 0 {
		opts.Shapes = 8
	}
	if opts.ScreenNodes <= 0 {
		opts.ScreenNodes = DefaultScreenNodes
	}
	if opts.PlayerNodes <= 0 {
		opts.PlayerNodes = engine.DefaultCandidateNodes
	}
	if opts.MaxPlayerNodes <= 0 {
		opts.MaxPlayerNodes = 16 * opts.PlayerNodes
	}
	opts.Verify.ExpandSeminull = false // seminull items are positions of the book
	if _, err := readInfo(ctx, bk.r, id); err != nil {
		return ProveResult{}, err
	}
	// A stored proof is re-checked from its certificates before it is
	// reported: one that does not check is derived again (see
	// confirmProof) and, no longer proved, worked on like any open one.
	confirmed, err := bk.confirmProof(ctx, id, opts.Attacker)
	if err != nil {
		return ProveResult{}, fmt.Errorf("prove: position %d: %w", id, err)
	}
	t := newBookTree(bk, v, opts)
	counter, err := bk.newProvedCounter(ctx, opts.Attacker)
	if err != nil {
		return ProveResult{}, err
	}
	var prog func(engine.JobProgress[PosID])
	if progress != nil {
		// The proved count is read from the book when a verdict has been
		// stored since the last report (on the reporting goroutine).
		lastCalls, newly := -1, 0
		prog = func(p engine.JobProgress[PosID]) {
			inflight := make([]int64, len(p.InFlight))
			for i, id := range p.InFlight {
				inflight[i] = int64(id)
			}
			if p.Jobs != lastCalls {
				if n, _, err := counter.since(ctx); err == nil {
					lastCalls, newly = p.Jobs, n
				}
			}
			progress(c6book.ProveProgress{Calls: p.Jobs, Proved: newly, SearchProved: p.Proved, Open: p.Open, Added: int(t.added.Load()),
				PN: p.PN, DN: p.DN, InFlight: inflight, Held: p.Held, Elapsed: p.Elapsed})
		}
	}
	sr, err := engine.JobSearch[PosID](ctx, t, id, engine.JobOptions{Jobs: opts.Jobs, MaxJobs: opts.MaxCalls, MaxTime: opts.MaxTime,
		Refresh: 30 * time.Second}, prog)
	status := proveStatus(sr.Status)
	if status == "" && ctx.Err() != nil {
		status = c6book.ProveStopped // stopped before the search said anything (during the first expansion)
	}
	if status == c6book.ProveProved && err == nil && !confirmed {
		// The proof found may rest on stored rows as well: re-checked too.
		ok, cerr := bk.confirmProof(ctx, id, opts.Attacker)
		switch {
		case cerr != nil:
			err = fmt.Errorf("prove: position %d: %w", id, cerr)
		case !ok:
			status = c6book.ProveStuck
			err = fmt.Errorf("prove: position %d: the proof found rested on rows changed outside the program; they were derived again: run prove again", id)
		}
	}
	res := ProveResult{Status: status, Calls: sr.Jobs, Expanded: sr.Expanded, Nodes: sr.Nodes, SearchProved: sr.Proved, Open: sr.Open, PN: sr.PN, DN: sr.DN, Elapsed: sr.Elapsed,
		Held: sr.Held, MaxHeld: sr.MaxHeld,
		Budgets: t.schedule, CallsAt: t.callsAt, Again: t.again}
	for _, f := range sr.Frontier {
		why := f.Why
		if t.isRefused(f.Key) {
			why = engine.FrontierRefused
		}
		res.Frontier = append(res.Frontier, Frontier{f.Key, f.PN, f.DN, why})
	}
	t.mu.Lock()
	res.Screened, res.ScreenProved = t.screened, t.screenProved
	res.FamilyJobs, res.FamilyCalls, res.FamilyProved = t.familyJobs, t.familyCalls, t.familyProved
	refused := maps.Clone(t.refused)
	t.mu.Unlock()
	for id, msg := range refused {
		res.Refused = append(res.Refused, fmt.Sprintf("position %d: %s", id, msg))
	}
	slices.Sort(res.Refused)
	// The summary reads the book even when ctx is done.
	rctx := context.WithoutCancel(ctx)
	res.Added = int(t.added.Load())
	if n, now, cerr := counter.since(rctx); cerr == nil {
		res.Proved, res.BookProved = n, now
	} else if err == nil {
		err = cerr
	}
	if p, _, perr := readProof(rctx, bk.r, bk.rules, id, opts.Attacker); perr == nil {
		res.Proof = p
	}
	return res, err
}

// bookTree is the book as an engine.JobTree. Look and the apply
// functions run on the search's goroutine; Run, and Expand (which the
// search may call from its workers, for different positions at once),
// run concurrently: every map below is guarded by mu.
type bookTree struct {
	bk   *Book
	v    engine.Verifier
	opts ProveOptions
	a    engine.Color
	// The tree lives in the book: the auto-pilot's moves with the player's
	// scores (the expected numbers of the positions they lead to,
	// priorOf) and the positions without further candidates
	// (autopilot_exhausted) are stored, so that a run killed and started
	// again sees what the killed one saw.
	added atomic.Int64 // positions stored, read by progress reports
	// schedule is the node budgets of a position's verifications in
	// turn (BudgetSchedule, with the screen's budget first when the screen
	// is on); first is the step of a position's first verification by
	// the search (1 when the screen's budget is prepended: step 0 is the
	// screen's).
	schedule []int64
	first    int

	mu sync.Mutex
	// refused: positions whose verdict StoreVerdict refused (this run).
	refused map[PosID]string
	// widened counts the expansions of a position in this run: the
	// player's budget grows with it.
	widened map[PosID]int
	// step is where a position verified in this run is (its stored
	// verdict's budget: schedule[step[id]]); callsAt counts the verdicts
	// stored at each budget, again those of positions verified before in
	// this run.
	step    map[PosID]int
	callsAt []int
	again   int
	// screen holds the expected numbers of a position whose latest
	// verdict is the screen's (screenRank).
	screen                 map[PosID][2]int64
	screened, screenProved int
	// familyJobs counts the seminull family jobs (runFamily), familyCalls
	// their verifier calls, familyProved the positions those proved.
	familyJobs, familyCalls, familyProved int
	// cands is the candidate list of a few positions' latest expansion
	// (at most maxCachedCands positions: keepCands).
	cands map[PosID][]engine.ScoredMove
}

func newBookTree(bk *Book, v engine.Verifier, opts ProveOptions) *bookTree {
	sch := BudgetSchedule(opts.FirstNodes, opts.Verify.Limits.MaxNodes)
	first := 0
	if opts.Screen > 0 && (sch[0] <= 0 || opts.ScreenNodes < sch[0]) {
		sch = append([]int64{opts.ScreenNodes}, sch...)
		first = 1
	}
	return &bookTree{bk: bk, v: v, opts: opts, a: opts.Attacker, refused: map[PosID]string{},
		widened: map[PosID]int{}, screen: map[PosID][2]int64{}, cands: map[PosID][]engine.ScoredMove{},
		schedule: sch, first: first, step: map[PosID]int{}, callsAt: make([]int, len(sch))}
}

func (t *bookTree) isRefused(id PosID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refused[id] != ""
}

// screenNumbers returns the expected numbers the screen gave position id,
// while its latest verdict is the screen's.
func (t *bookTree) screenNumbers(id PosID) ([2]int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.screen[id]
	return e, ok
}

// maxCachedCands bounds bookTree.cands.
const maxCachedCands = 256

// keepCands keeps the candidate list of position id's latest expansion
// (forgetting the others when maxCachedCands are kept).
func (t *bookTree) keepCands(id PosID, c []engine.ScoredMove) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.cands) >= maxCachedCands {
		clear(t.cands)
	}
	t.cands[id] = c
}

// exhausted reports whether position id has no further candidate moves
// among the first MaxCandidates the player ranks (stored by
// setExhausted, by this run or an earlier one with as many candidates).
func (t *bookTree) exhausted(ctx context.Context, id PosID) (bool, error) {
	var n int
	err := t.bk.r.QueryRowContext(ctx, "SELECT cands FROM autopilot_exhausted WHERE pos = ?", int64(id)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil && n >= t.opts.MaxCandidates, err
}

// setExhausted stores that position id has no further candidate moves
// among the first MaxCandidates.
func (t *bookTree) setExhausted(ctx context.Context, id PosID) error {
	return t.bk.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO autopilot_exhausted(pos, cands) VALUES (?, ?)
ON CONFLICT(pos) DO UPDATE SET cands = max(cands, excluded.cands)`, int64(id), t.opts.MaxCandidates)
		return err
	})
}

// nextStep is the step of the schedule of position id's next verification
// (t.first: its first in this run), and whether it was verified in this
// run.
func (t *bookTree) nextStep(id PosID) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.step[id]
	if !ok {
		return t.first, false
	}
	return min(max(s+1, t.first), len(t.schedule)-1), true
}

// widens reports whether position id, verified in this run with verdict
// vd, is to be verified again at a larger budget when selected: its
// budget was below the schedule's last, and the verdict left a defender
// move unsolved for want of budget (or every move: no zone bounds the
// defence).
func (t *bookTree) widens(id PosID, vd *c6book.Verdict) bool {
	t.mu.Lock()
	s, ok := t.step[id]
	t.mu.Unlock()
	if !ok || s >= len(t.schedule)-1 || vd.Status == c6book.StatusProved {
		return false
	}
	if vd.AllUnsolved {
		return true
	}
	for _, l := range [][]c6book.Unsolved{vd.Unsolved, vd.OpenSeminull} {
		for _, u := range l {
			if u.Reason == engine.ReasonBudget {
				return true
			}
		}
	}
	return false
}

// vouched is the expected score of a move the expert or the games vouch
// for: the best level of engine.ExpectedNumbers.
const vouched = engine.EvalLevels * engine.EvalUnit

// expected returns the expected numbers of position id (board b, may be
// nil: read when needed): its prior (priorOf), else the static evaluation.
func (t *bookTree) expected(ctx context.Context, id PosID, b *engine.Board) (int64, int64, error) {
	s, ok, err := t.priorOf(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	if ok {
		pn, dn := engine.ExpectedNumbers(s)
		return pn, dn, nil
	}
	if b == nil {
		var err error
		if b, err = t.bk.Board(ctx, id); err != nil {
			return 0, 0, err
		}
	}
	pn, dn := engine.ExpectedNumbers(engine.EvalScore(b, t.a))
	return pn, dn, nil
}

// Look implements engine.JobTree.
func (t *bookTree) Look(ctx context.Context, id PosID) (engine.JobNode[PosID], error) {
	bk, a := t.bk, t.a
	var n engine.JobNode[PosID]
	pi, err := readInfo(ctx, bk.r, id)
	if err != nil {
		return n, err
	}
	n.OR = pi.toMove == a
	pr, _, err := readProof(ctx, bk.r, bk.rules, id, a)
	if err != nil {
		return n, err
	}
	switch {
	case pi.winner == a || pr.Status == c6book.StatusProved:
		n.Result = engine.JobProved
		return n, nil
	case pi.winner == a.Opp() || pr.Status == c6book.StatusDisproved:
		n.Result = engine.JobFailed
		return n, nil
	}
	held, err := bk.held(ctx, bk.r, id, a)
	if err != nil {
		return n, err
	}
	if held || t.isRefused(id) {
		n.Result = engine.JobHeld
		return n, nil
	}
	if n.OR {
		kids, err := t.orChildren(ctx, id)
		if err != nil {
			return n, err
		}
		n.Children = kids
		ex, err := t.exhausted(ctx, id)
		if err != nil {
			return n, err
		}
		if !ex {
			n.Work = engine.JobExpand
			if len(kids) == 0 && !t.opts.NoFamily {
				if _, _, _, fam, err := t.familyPending(ctx, id); err != nil {
					return n, err
				} else if fam {
					n.Work = engine.JobRun // its seminull family's job (runFamily)
				}
			}
		} else if len(kids) == 0 {
			n.Result = engine.JobFailed
		}
		if len(kids) == 0 && n.Result == engine.JobUnsettled {
			if n.PN, n.DN, err = t.expected(ctx, id, nil); err != nil {
				return n, err
			}
		}
		return n, nil
	}
	// Defender to move: verify unless the stored verdict counts. (The
	// certificate is not decoded here: StoreVerdict checked it.)
	vd, hasCert, err := loadVerdictData(ctx, bk.r, id)
	if err != nil {
		return n, err
	}
	list, _, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return n, err
	}
	b := bk.board(list, pi.toMove)
	tol, ok := b.DefenderDeficit(a)
	if !ok {
		n.Result = engine.JobFailed // not a position of a's proofs
		return n, nil
	}
	switch {
	case vd == nil || vd.Attacker != a || !hasCert && !vd.AllUnsolved || vd.Tolerance != tol:
		n.Work = engine.JobRun
		n.PN, n.DN, err = t.expected(ctx, id, b)
		return n, err
	case vd.AllUnsolved && vd.Status != c6book.StatusProved:
		if vd.Lambda < t.opts.Verify.Lambda || t.widens(id, vd) {
			// A lower-order verdict: try this order; or one at a budget
			// below the schedule's last: try a larger one.
			n.Work = engine.JobRun
			if e, ok := t.screenNumbers(id); ok {
				n.PN, n.DN = e[0], e[1]
				return n, nil
			}
			n.PN, n.DN, err = t.expected(ctx, id, b)
			return n, err
		} else {
			n.Result = engine.JobFailed // no zone bounds the defence: a dead end
		}
		return n, nil
	}
	items, err := bk.openItems(ctx, id, a, b, vd)
	if err != nil {
		return n, err
	}
	if len(items) == 0 {
		// Open, but nothing left to answer (proved positions were caught
		// above): a verdict without items that is not a proof.
		n.Result = engine.JobFailed
		return n, nil
	}
	if !t.opts.NoFamily {
		if items, err = t.familyOpen(ctx, id, b, items); err != nil {
			return n, err
		}
	}
	for _, it := range items {
		if it.ID != 0 {
			n.Children = append(n.Children, it.ID)
		}
	}
	if len(n.Children) > 0 && t.widens(id, vd) {
		n.Work = engine.JobRun // verified again, at a larger budget, when selected
		if e, ok := t.screenNumbers(id); ok {
			// A screen verdict: what it leaves for want of budget says
			// little; until it is verified again the position is a leaf
			// with the numbers the screen ranked it with (screenRank).
			n.Children = nil
			n.PN, n.DN = e[0], e[1]
		}
	}
	return n, nil
}

// orChildren lists an attacker-to-move position's stored moves: hand-made
// ones (no game reached them), then imported ones the games vouch for
// (GameLCB; best bound first), then the auto-pilot's in their rank order,
// then the other imported ones (best bound first). The ones vouched for
// (hand-made, good imported) expect the best numbers, the other imported
// ones the worst (engine.ExpectedNumbers' levels).
func (t *bookTree) orChildren(ctx context.Context, id PosID) ([]PosID, error) {
	rows, err := t.bk.r.QueryContext(ctx, `
SELECT e.child, m.rank, p.games, p.bwins, p.wwins FROM edge e
LEFT JOIN autopilot_move m ON m.parent = e.parent AND m.move = e.move
JOIN position p ON p.id = e.child
WHERE e.parent = ? ORDER BY e.move`, int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type kid struct {
		id    PosID
		class int
		key   float64 // within a class, smallest first
	}
	var kids []kid
	for rows.Next() {
		var child, games, bw, ww int64
		var rank sql.NullInt64
		if err := rows.Scan(&child, &rank, &games, &bw, &ww); err != nil {
			return nil, err
		}
		k := kid{id: PosID(child)}
		k.class, k.key = t.moveClass(rank, games, bw, ww)
		kids = append(kids, k)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(kids, func(x, y kid) int {
		if x.class != y.class {
			return x.class - y.class
		}
		switch {
		case x.key < y.key:
			return -1
		case x.key > y.key:
			return 1
		}
		return 0
	})
	out := make([]PosID, len(kids))
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, k := range kids {
		out[i] = k.id
	}
	return out, nil
}

// moveClass is the class of a stored attacker move (orChildren's order):
// 0 hand-made (no game reached it), 1 imported and vouched for by the
// games (GameLCB), 2 the auto-pilot's (rank: its rank), 3 the other
// imported ones; key orders a class, smallest first. games, bw, ww are
// the games through the move and their wins.
func (t *bookTree) moveClass(rank sql.NullInt64, games, bw, ww int64) (int, float64) {
	wins := bw
	if t.a == engine.White {
		wins = ww
	}
	switch lcb := engine.WilsonLower(wins, bw+ww, t.opts.GameZ); {
	case rank.Valid:
		return 2, float64(rank.Int64)
	case games == 0:
		return 0, 0
	case lcb >= t.opts.GameLCB:
		return 1, -lcb
	default:
		return 3, -lcb
	}
}

// priorOf is the expected score (the attacker's side) of position id, a
// position an attacker's move leads to, from the book: the best level for
// a move the expert or the games vouch for (classes 0 and 1), the worst
// for one they do not (3: so the search widens before it tries one), the
// player's stored score for the auto-pilot's (2). With several such
// moves, the best; ok false when none says anything.
func (t *bookTree) priorOf(ctx context.Context, id PosID) (float64, bool, error) {
	rows, err := t.bk.r.QueryContext(ctx, `
SELECT m.rank, m.score, p.games, p.bwins, p.wwins FROM edge e
JOIN position q ON q.id = e.parent
LEFT JOIN autopilot_move m ON m.parent = e.parent AND m.move = e.move
JOIN position p ON p.id = e.child
WHERE e.child = ? AND q.to_move = ?`, int64(id), int(t.a))
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	best, ok := 0.0, false
	for rows.Next() {
		var games, bw, ww int64
		var rank sql.NullInt64
		var score sql.NullFloat64
		if err := rows.Scan(&rank, &score, &games, &bw, &ww); err != nil {
			return 0, false, err
		}
		var v float64
		switch c, _ := t.moveClass(rank, games, bw, ww); {
		case c == 0 || c == 1:
			v = vouched
		case c == 3:
			v = -vouched
		case score.Valid:
			v = score.Float64
		default:
			continue
		}
		if !ok || v > best {
			best, ok = v, true
		}
	}
	return best, ok, rows.Err()
}

// Expand implements engine.JobTree: the next batch of candidate moves.
// It is safe to call for different positions at once.
//
// The candidates, in order: the moves that proved a sibling of the
// position (siblingMoves: another defender reply to the same position,
// a closed seminull item's answer first of all), then the player's
// winning move, then a shape move (engine.ShapeCandidates) and a player
// move in turn (engine.MixCandidates). The player's budget grows fourfold
// with each expansion of the position in this run (its first moves
// failed, or look worse than asking for more), up to MaxPlayerNodes. With
// the screen on, the new moves are screened (screenKids).
func (t *bookTree) Expand(ctx context.Context, id PosID) (int, error) {
	bk := t.bk
	b, err := bk.Board(ctx, id)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	w := t.widened[id]
	t.widened[id] = w + 1
	t.mu.Unlock()
	nodes := t.opts.PlayerNodes
	for i := 0; i < w && nodes < t.opts.MaxPlayerNodes; i++ {
		nodes *= 4
	}
	nodes = min(nodes, t.opts.MaxPlayerNodes)
	player, err := engine.PlayerCandidates(ctx, b, t.opts.MaxCandidates, nodes)
	if err != nil {
		return 0, err
	}
	var shapes []engine.ShapeMove
	if t.opts.Shapes > 0 {
		shapes = engine.ShapeCandidates(b, t.opts.Shapes)
	}
	cands := engine.MixCandidates(player, shapes, t.opts.MaxCandidates)
	var sib []engine.Move
	if !t.opts.NoSiblings {
		if sib, err = bk.siblingMoves(ctx, id, t.a); err != nil {
			return 0, err
		}
	}
	if !t.opts.NoReuse {
		reuse, err := bk.zoneReuseMoves(ctx, id, b, t.a)
		if err != nil {
			return 0, err
		}
		sib = append(reuse, sib...) // zone-reuse proposals first
	}
	if len(sib) > 0 {
		first := make([]engine.ScoredMove, 0, len(sib)+len(cands))
		for _, m := range sib {
			first = append(first, engine.ScoredMove{Move: m, Score: vouched})
		}
		cands = uniqueMoves(append(first, cands...))
	}
	t.keepCands(id, cands)
	for n := t.opts.Candidates; ; n *= 2 {
		n = min(n, t.opts.MaxCandidates)
		batch := cands[:min(n, len(cands))]
		moves := make([]engine.Move, len(batch))
		scores := make([]float64, len(batch)) // the attacker's side: the mover's
		for i, c := range batch {
			moves[i], scores[i] = c.Move, c.Score
		}
		added, positions, kids, err := bk.addAutoMoves(ctx, id, moves, scores)
		if err != nil {
			return 0, err
		}
		t.added.Add(int64(positions))
		var fresh []PosID
		for _, k := range kids {
			if k != 0 {
				fresh = append(fresh, k)
			}
		}
		if added > 0 {
			if t.opts.Screen > 0 {
				if err := t.screenKids(ctx, fresh); err != nil {
					return added, err
				}
			}
			return added, nil
		}
		if n >= t.opts.MaxCandidates {
			return 0, t.setExhausted(ctx, id)
		}
	}
}

// uniqueMoves keeps the first of equal moves.
func uniqueMoves(ms []engine.ScoredMove) []engine.ScoredMove {
	seen := map[engine.Move]bool{}
	out := ms[:0]
	for _, m := range ms {
		if !seen[m.Move] {
			seen[m.Move] = true
			out = append(out, m)
		}
	}
	return out
}

// screenRank is what a screen verdict leaves, as expected numbers: a
// proved move needs none; an open one is ranked by the items the solvers
// gave up on (an unsolved reply the solver exhausted counts 1, an open
// seminull item 2): the items left for want of budget say little at the
// screen's budget, and the candidates' own order breaks ties; a verdict
// that leaves every reply open (no zone bounds the defence) is ranked
// last.
func screenRank(vd *c6book.Verdict) (pn, dn int64) {
	if vd.AllUnsolved {
		return 1 + engine.EvalLevels, 1
	}
	hard := int64(0)
	for _, u := range vd.Unsolved {
		if u.Reason != engine.ReasonBudget {
			hard++
		}
	}
	for _, u := range vd.OpenSeminull {
		if u.Reason != engine.ReasonBudget {
			hard += 2
		}
	}
	return 1 + min(engine.EvalLevels, hard), 1 + engine.EvalLevels - min(engine.EvalLevels, hard)
}

// screenKids is the screen: up to opts.Screen of the positions kids (new
// attacker moves' positions, defender to move) without a verdict for the
// attacker are verified at once, each solver call at the screen's budget
// (schedule[0]), through the auto-pilot's verifier (the worker pool, the
// queue's workers). Each verdict is stored with StoreVerdict, re-checked
// by proofcheck: a proved one proves its move. The others count with the
// numbers screenRank gives them until the search verifies them again at
// the schedule's budgets.
func (t *bookTree) screenKids(ctx context.Context, kids []PosID) error {
	var todo []PosID
	for _, k := range kids {
		if len(todo) == t.opts.Screen {
			break
		}
		need, err := t.needsVerdict(ctx, k)
		if err != nil {
			return err
		}
		if need {
			todo = append(todo, k)
		}
	}
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for i, k := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = t.screenOne(ctx, k)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// needsVerdict reports whether position k (defender to move) has no
// verdict for the attacker and is not decided.
func (t *bookTree) needsVerdict(ctx context.Context, k PosID) (bool, error) {
	pi, err := readInfo(ctx, t.bk.r, k)
	if err != nil {
		return false, err
	}
	if pi.toMove == t.a || pi.winner != engine.Empty {
		return false, nil
	}
	vd, _, err := loadVerdictData(ctx, t.bk.r, k)
	if err != nil {
		return false, err
	}
	return vd == nil || vd.Attacker != t.a, nil
}

// screenOne verifies position k at the screen's budget and stores the
// verdict.
func (t *bookTree) screenOne(ctx context.Context, k PosID) error {
	vo := t.opts.Verify
	vo.Limits.MaxNodes = t.schedule[0]
	res, err := t.bk.Verify(ctx, k, t.v, vo, nil)
	var se *StoreError
	switch {
	case errors.As(err, &se):
		if ctx.Err() != nil || IsBusy(err) || errors.Is(err, ErrReadOnly) {
			return fmt.Errorf("position %d: %w", k, se.Err)
		}
		t.mu.Lock()
		t.refused[k] = se.Err.Error()
		t.mu.Unlock()
		return nil
	case err != nil:
		return err
	}
	t.added.Add(int64(res.Positions))
	pn, dn := screenRank(&res.Verdict)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.step[k] = 0
	t.callsAt[0]++
	t.screened++
	if res.Verdict.Status == c6book.StatusProved {
		t.screenProved++
	}
	if t.first == 1 {
		t.screen[k] = [2]int64{pn, dn}
	}
	return nil
}

// Run implements engine.JobTree: verify position id and store the verdict
// (Book.Verify).
//
// The node budget of its solver calls is the schedule's first, or, for a
// position verified in this run, the next one (BudgetSchedule).
func (t *bookTree) Run(ctx context.Context, id PosID) (func(), error) {
	if pi, err := readInfo(ctx, t.bk.r, id); err != nil {
		return nil, err
	} else if pi.toMove == t.a {
		return t.runFamily(ctx, id) // an attacker-to-move position's job: its family's
	}
	step, before := t.nextStep(id)
	vo := t.opts.Verify
	vo.Limits.MaxNodes = t.schedule[step]
	res, err := t.bk.Verify(ctx, id, t.v, vo, nil)
	var se *StoreError
	switch {
	case errors.As(err, &se):
		if ctx.Err() != nil || IsBusy(err) || errors.Is(err, ErrReadOnly) {
			return nil, fmt.Errorf("position %d: %w", id, se.Err)
		}
		// Refused (its certificate does not check, or it forgets a
		// defender move): nothing is stored; this run leaves the position
		// alone and says so, the others go on.
		return func() {
			t.mu.Lock()
			t.refused[id] = se.Err.Error()
			t.mu.Unlock()
		}, nil
	case err != nil:
		return nil, err
	}
	t.added.Add(int64(res.Positions))
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.step[id] = step
		delete(t.screen, id)
		t.callsAt[step]++
		if before {
			t.again++
		}
	}, nil
}

// maxSiblingMoves bounds siblingMoves.
const maxSiblingMoves = 4

// siblingMoves returns the attacker moves that proved a sibling of the
// attacker-to-move position id (a position another defender reply reaches
// from a parent of id), in id's canonical frame, legal at id, at most
// maxSiblingMoves: a killer move, since the answer that beat one reply
// often beats the next. The answers of the parents' seminull items (one
// defender stone) come first: the items (s, x) of a closed seminull item
// s are the position D+s with one more defender stone inside the zone of
// D+s's proof, and the move that proved D+s usually wins them too. They
// are only candidates: each is verified like any other move.
func (bk *Book) siblingMoves(ctx context.Context, id PosID, a engine.Color) ([]engine.Move, error) {
	b, err := bk.Board(ctx, id)
	if err != nil {
		return nil, err
	}
	r := bk.rules
	type up struct {
		parent PosID
		move   engine.Move
	}
	rows, err := bk.r.QueryContext(ctx, "SELECT parent, move FROM edge WHERE child = ? LIMIT 4", int64(id))
	if err != nil {
		return nil, err
	}
	var ups []up
	for rows.Next() {
		var p, mv int64
		if err := rows.Scan(&p, &mv); err != nil {
			rows.Close()
			return nil, err
		}
		m, err := unpackMove(mv)
		if err != nil {
			rows.Close()
			return nil, err
		}
		ups = append(ups, up{PosID(p), m})
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	// frameOf is the symmetry that maps the parent's frame (board pb) to
	// the canonical frame of the child that defender move m reaches.
	frameOf := func(pb *engine.Board, m engine.Move) int {
		for i := 0; i < m.Len(); i++ {
			pb.Place(m.At(i), a.Opp())
		}
		_, sym := pb.CanonicalKey()
		for i := m.Len() - 1; i >= 0; i-- {
			pb.Remove(m.At(i))
		}
		return sym
	}
	var out []engine.Move
	seen := map[engine.Move]bool{}
	for _, u := range ups {
		pi, err := readInfo(ctx, bk.r, u.parent)
		if err != nil {
			return nil, err
		}
		if pi.toMove != a.Opp() {
			continue
		}
		list, _, err := loadPos(ctx, bk.r, r, u.parent)
		if err != nil {
			return nil, err
		}
		pb := bk.board(list, pi.toMove)
		toID := frameOf(pb, u.move)
		sibs, err := readChildren(ctx, bk.r, r, u.parent, a)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(sibs, func(x, y childRow) int { return x.move.Len() - y.move.Len() })
		for _, sib := range sibs {
			if sib.id == id || sib.proof.Status != c6book.StatusProved || sib.proof.How != c6book.HowMove {
				continue
			}
			answers, err := readChildren(ctx, bk.r, r, sib.id, a)
			if err != nil {
				return nil, err
			}
			var best *childRow
			for i := range answers {
				c := &answers[i]
				if c.proof.Status == c6book.StatusProved && (best == nil || c.proof.Order < best.proof.Order) {
					best = c
				}
			}
			if best == nil {
				continue
			}
			fromSib := engine.InverseSymmetry(frameOf(pb, sib.move))
			sq := make([]engine.Square, best.move.Len())
			legal := best.move.Len() == r.P
			for i := range sq {
				sq[i] = r.Transform(toID, r.Transform(fromSib, best.move.At(i)))
				legal = legal && b.At(sq[i]) == engine.Empty
			}
			m := engine.NewMove(sq...)
			if legal && !seen[m] {
				seen[m] = true
				out = append(out, m)
				if len(out) == maxSiblingMoves {
					return out, nil
				}
			}
		}
	}
	return out, nil
}

// addAutoMoves stores the candidate moves (id's canonical frame) not stored
// yet as moves of id, marked as the auto-pilot's with the player's scores
// (nil: none recorded), in one transaction; it returns how many moves it
// added and how many positions, and the position each move added leads to
// (0 for a move stored already).
func (bk *Book) addAutoMoves(ctx context.Context, id PosID, moves []engine.Move, scores []float64) (added, positions int, kids []PosID, err error) {
	err = bk.writeRetry(ctx, func(tx *sql.Tx) error {
		added, positions = 0, 0
		kids = make([]PosID, len(moves))
		last, err := lastPosition(ctx, tx)
		if err != nil {
			return err
		}
		w, list, b, err := bk.walkFrom(ctx, tx, id)
		if err != nil {
			return err
		}
		stab := stabilizer(bk.rules, list)
		rank, err := nextAutoRank(ctx, tx, id)
		if err != nil {
			return err
		}
		for i, m := range moves {
			pm := packMove(repMove(bk.rules, stab, m))
			var one int
			switch err := tx.QueryRowContext(ctx, "SELECT 1 FROM edge WHERE parent = ? AND move = ?", int64(id), pm).Scan(&one); {
			case err == nil:
				continue // stored already (by hand, or by an earlier batch)
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			next, err := w.step(ctx, b, node{id: id, list: list}, m, false)
			if err != nil {
				return fmt.Errorf("candidate %s: %w", engine.MoveName(bk.rules, m), err)
			}
			kids[i] = next.id
			if err := b.Undo(); err != nil {
				return err
			}
			var score any // NULL: none recorded
			if i < len(scores) {
				score = scores[i]
			}
			if err := markAutoMove(ctx, tx, id, pm, rank, score); err != nil {
				return err
			}
			rank++
			added++
		}
		if err := w.finish(ctx); err != nil {
			return err
		}
		positions, err = positionsAfter(ctx, tx, last)
		return err
	})
	return added, positions, kids, err
}

// held reports whether an expert holds position id for attacker a.
func (bk *Book) held(ctx context.Context, q queryer, id PosID, a engine.Color) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, "SELECT 1 FROM hold WHERE pos = ? AND attacker = ?", int64(id), int(a)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Held reports whether an expert keeps position id for attacker ("leave to
// me"): the auto-pilot does not work at or below it.
func (bk *Book) Held(ctx context.Context, id PosID, attacker engine.Color) (bool, error) {
	return bk.held(ctx, bk.r, id, attacker)
}

// SetHold marks (on) or unmarks position id as left to the expert for
// attacker: the auto-pilot skips it and everything below it.
func (bk *Book) SetHold(ctx context.Context, id PosID, attacker engine.Color, on bool) error {
	if attacker != engine.Black && attacker != engine.White {
		return errors.New("attacker must be Black or White")
	}
	return bk.write(ctx, func(tx *sql.Tx) error {
		if _, err := readInfo(ctx, tx, id); err != nil {
			return err
		}
		if !on {
			_, err := tx.ExecContext(ctx, "DELETE FROM hold WHERE pos = ? AND attacker = ?", int64(id), int(attacker))
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO hold(pos, attacker, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
			int64(id), int(attacker), time.Now().Unix())
		return err
	})
}

// AutoMove reports whether the stored move m of position id (canonical
// frame) was proposed by the auto-pilot rather than made by hand.
func (bk *Book) AutoMove(ctx context.Context, id PosID, m engine.Move) (bool, error) {
	list, _, err := loadPos(ctx, bk.r, bk.rules, id)
	if err != nil {
		return false, err
	}
	pm := packMove(repMove(bk.rules, stabilizer(bk.rules, list), m))
	var one int
	err = bk.r.QueryRowContext(ctx, "SELECT 1 FROM autopilot_move WHERE parent = ? AND move = ?", int64(id), pm).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Stuck says why the auto-pilot cannot work at position id for attacker
// a: StuckHeld (left to the expert), StuckDeadEnd (its verdict leaves
// every defender move open: no zone bounds the defence), or NotStuck (it
// can).
func (bk *Book) Stuck(ctx context.Context, id PosID, a engine.Color) (c6book.StuckReason, error) {
	h, err := bk.held(ctx, bk.r, id, a)
	if err != nil {
		return c6book.NotStuck, err
	}
	if h {
		return c6book.StuckHeld, nil
	}
	v, err := loadVerdict(ctx, bk.r, id)
	if err != nil {
		return c6book.NotStuck, err
	}
	if v != nil && v.Attacker == a && v.AllUnsolved && v.Status != c6book.StatusProved {
		return c6book.StuckDeadEnd, nil
	}
	return c6book.NotStuck, nil
}

// nextAutoRank is the rank after the auto-pilot's last move at position id
// (0 when it has none there).
func nextAutoRank(ctx context.Context, tx *sql.Tx, id PosID) (int64, error) {
	var rank int64
	err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(rank), -1) + 1 FROM autopilot_move WHERE parent = ?", int64(id)).Scan(&rank)
	return rank, err
}

// markAutoMove records the stored move pm (packed) at position id as the
// auto-pilot's, at rank, with the player's score (nil: none).
func markAutoMove(ctx context.Context, tx *sql.Tx, id PosID, pm, rank int64, score any) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO autopilot_move(parent, move, rank, score) VALUES (?, ?, ?, ?)", int64(id), pm, rank, score)
	return err
}
