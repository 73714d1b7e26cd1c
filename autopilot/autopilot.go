package autopilot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/jobsearch"
	playerpkg "c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// PosID is a position of the book.
type PosID = proofbook.PosID

// The auto-pilot: jobsearch.JobSearch (job-level proof-number search) over the
// book's stored positions. At an attacker-to-move position it adds the
// engine's ranked candidate moves (a first batch, doubled each time every
// move tried has failed); at a defender-to-move position without a usable
// verdict it runs the verifier, through a verify.Verifier, and stores the
// verdict through Store.Verify (the book's StoreVerdict, re-checked by
// proofcheck) the moment it arrives. Everything it learns is in the book:
// a run that is stopped or killed loses at most the jobs in flight, and
// the same call continues.
//
// The attacker's moves come from the engine's player (issue 23,
// player.PlayerCandidates: threat moves first, then the player's ranked
// moves), and every position the search has not worked on starts from
// the numbers its evaluation expects (player.ExpectedNumbers): the
// player's score of the move that led to it, else the static evaluation.
// Beside the player's moves the auto-pilot tries the moves that build
// strong shapes with the attacker's stones (player.ShapeCandidates: the
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
// first again to the ones it did not prove. What the answer leaves open
// is the real cost of an item, and on Mickey Mouse it was 9 to 22 full
// moves, each a position as hard as any, often with seminull items of its
// own: so an open seminull item's position counts that many more in the
// search (ProveOptions.SeminullWeight; the run's family jobs' mean once
// there are some), and an attacker move whose verdict leaves two items is
// no longer taken for cheaper than one that leaves four unsolved replies.
// Beside them, zone reuse
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
	Attacker game.Color
	// Verify configures every verifier call; its Tolerance is set for each
	// position (the defender's stone deficit). Lambda 2 or 3.
	Verify verify.VerifyOptions
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
	// attacker's moves at a position (0: player.DefaultCandidateNodes).
	PlayerNodes int64
	// GameLCB is the least lower confidence bound (Wilson, z = GameZ) of
	// the attacker's win rate in the games through an imported move for it
	// to be tried before the engine's candidates (0: 0.5; above 1: never).
	// GameZ 0: 1.645 (one-sided 95%).
	GameLCB, GameZ float64
	// Shapes is how many shape moves (player.ShapeCandidates: the moves
	// that build the best three- and four-stone shapes, the Connect(6,2,3)
	// triangle family) are mixed with the player's moves at a position
	// (player.MixCandidates: a shape move and a player move in turn); 0:
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
	// NoTwins: do not try first the moves that proved the position less
	// one defender stone (twinMoves); for measurements.
	NoTwins bool
	// NoFamily: work on the full moves (s, x) of a closed seminull item
	// one by one, without the family job (runFamily); for measurements.
	NoFamily bool
	// The run learns the local shapes of attacker moves that proved and
	// tries candidates of those shapes first (learn.go), in Learned (nil:
	// a new table for this run; pass one table to several runs, the rows
	// of an atlas, to carry what each learned to the next). NoLearn turns
	// it off (for measurements: on j10 a1s19 l8k9 it saved 2 of 51 calls,
	// docs/BENCHMARKS.md).
	Learned *ShapeTable
	NoLearn bool
	// Postpone: at a position's first expansion, when moves that proved a
	// sibling or a zone-mate are there to try, the first batch is those
	// moves and the shape moves, and the player waits for the next
	// widening. Off by default: on j10 a1s19 l8k9 it left open after 60
	// calls what the default proves in 51.
	Postpone bool
	// Widen: a position asks for new attacker moves when its best move's
	// proof number exceeds Widen times the count of its moves not failed
	// (jobsearch.JobOptions.Widen; 0: DefaultWiden).
	Widen int
	// Finish: every Finish-th job is spent below a near-closed position
	// (a verdict with at most jobsearch.FinishPN left to prove, the
	// root's selection aside; jobsearch.JobOptions.Finish). 0:
	// DefaultFinish; negative: never.
	Finish int
	// SeminullWeight: a seminull position (D+s, the position of an open
	// seminull item s: one defender stone of two) counts in the search
	// with this much more proof number while it is open: the full moves
	// (s, x) its proof will leave that the answer does not prove (family.go),
	// which its own numbers cannot show. Once the run has family jobs
	// behind it, it counts their mean instead (the members each left
	// open, SeminullWeight counting as one job before them). 0:
	// DefaultSeminullWeight; negative: none (an item counts as its
	// position alone).
	SeminullWeight int
}

// DefaultWiden is ProveOptions.Widen's default.
const DefaultWiden = 1

// DefaultFinish is ProveOptions.Finish's default: never. Measured on
// Mickey Mouse (docs/BENCHMARKS.md), every second job left the root's
// proof number lower (15 against 20, 19 against 29) but proved about half
// the positions, and no order-3 proof in either run.
const DefaultFinish = 0

// DefaultSeminullWeight is ProveOptions.SeminullWeight's default: on
// the openings measured, a family job left 8 (j10 a1s19 l8k9) to 22
// (Mickey Mouse) of its full moves open.
const DefaultSeminullWeight = 8

// DefaultSeminullItemFrom is the default of Verify.SeminullItemFrom for the
// auto-pilot (the CLI's --seminull-item-from; the verifier's own default,
// for c6 verify and the window's Verify, is 0 too): never. A refuted
// stone kept as an open item drops the moves its strategy covered, which
// the family job then proves again, and labels the verdict order 3 though
// no λ3 was needed; the root's proof number did no better with it. The
// figures are in docs/BENCHMARKS.md and the USER-GUIDE.
const DefaultSeminullItemFrom = 0

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
	Why    jobsearch.FrontierReason
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
	// cannot be trusted: their positions were left alone), by position.
	Refused []Refused
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
	// Promoted counts the candidates the shape table put first (their
	// shape proved before), Shapes the shapes it held at the end and
	// ShapesProved those with a proof.
	Promoted, Shapes, ShapesProved int
	// Postponed counts the expansions that tried sibling and zone-reuse
	// moves before calling the player.
	Postponed int
	// Finishing counts the jobs and expansions the finishing rule chose
	// (ProveOptions.Finish).
	Finishing int
	// Proved is the book's positions proved for the attacker at the end
	// less those at the start (provedCounter); BookProved is the book's
	// count at the end. SearchProved counts the search tree's nodes proved
	// as the search last saw them (what Proved counted before: a proved
	// node's subtree is not looked at, so it says little of what the run
	// proved).
	BookProved, SearchProved int

	// Held is the positions the search held at the end (its cache of the
	// tree), MaxHeld the most it held at once (jobsearch.DefaultCacheNodes
	// bounds them, whatever the run's length and jobs).
	Held, MaxHeld int
}

// Refused is a verdict the book refused to store (StoreVerdict: its
// certificate does not check, it forgets a defender move…): the position
// and the store's error.
type Refused struct {
	ID  PosID
	Err error
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
func proveStatus(s jobsearch.SearchStatus) c6book.ProveStatus {
	if s == jobsearch.SearchDisproved {
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
func Prove(ctx context.Context, bk Store, id PosID, v verify.Verifier, opts ProveOptions, progress func(c6book.ProveProgress)) (ProveResult, error) {
	if err := opts.check(v); err != nil {
		return ProveResult{}, err
	}
	if err := bk.CheckWritable(ctx); err != nil { // read-only or damaged: before any verifier call
		return ProveResult{}, err
	}
	opts = opts.withDefaults()
	if _, err := bk.AutoNode(ctx, id, opts.Attacker); err != nil {
		return ProveResult{}, err
	}
	// A stored proof is re-checked from its certificates before it is
	// reported: one that does not check is derived again (see
	// Store.ConfirmProof) and, no longer proved, worked on like any open
	// one.
	confirmed, err := bk.ConfirmProof(ctx, id, opts.Attacker)
	if err != nil {
		return ProveResult{}, fmt.Errorf("prove: position %d: %w", id, err)
	}
	t := newBookTree(bk, v, opts)
	counter, err := newProvedCounter(ctx, bk, opts.Attacker)
	if err != nil {
		return ProveResult{}, err
	}
	sr, err := jobsearch.JobSearch[PosID](ctx, t, id, jobsearch.JobOptions{Jobs: opts.Jobs, MaxJobs: opts.MaxCalls, MaxTime: opts.MaxTime,
		Refresh: 30 * time.Second, Widen: opts.Widen, Finish: max(opts.Finish, 0)}, t.progress(ctx, counter, progress))
	status := proveStatus(sr.Status)
	if status == "" && ctx.Err() != nil {
		status = c6book.ProveStopped // stopped before the search said anything (during the first expansion)
	}
	if status == c6book.ProveProved && err == nil && !confirmed {
		// The proof found may rest on stored rows as well: re-checked too.
		ok, cerr := bk.ConfirmProof(ctx, id, opts.Attacker)
		switch {
		case cerr != nil:
			err = fmt.Errorf("prove: position %d: %w", id, cerr)
		case !ok:
			status = c6book.ProveStuck
			err = fmt.Errorf("prove: position %d: the proof found rested on rows changed outside the program; they were derived again: run prove again", id)
		}
	}
	res := t.result(sr, status)
	// The summary reads the book even when ctx is done.
	rctx := context.WithoutCancel(ctx)
	if n, now, cerr := counter.since(rctx); cerr == nil {
		res.Proved, res.BookProved = n, now
	} else if err == nil {
		err = cerr
	}
	if n, perr := bk.AutoNode(rctx, id, opts.Attacker); perr == nil {
		res.Proof = n.Proof
	}
	return res, err
}

// check refuses options Prove cannot run with (and a nil verifier).
func (opts ProveOptions) check(v verify.Verifier) error {
	if opts.Attacker != game.Black && opts.Attacker != game.White {
		return errors.New("prove: attacker must be Black or White")
	}
	if opts.Verify.Lambda != 2 && opts.Verify.Lambda != 3 {
		return fmt.Errorf("prove: lambda %d: want 2 or 3", opts.Verify.Lambda)
	}
	if v == nil {
		return errors.New("prove: no verifier")
	}
	return nil
}

// withDefaults is opts with each zero option (see ProveOptions) set to its
// default.
func (opts ProveOptions) withDefaults() ProveOptions {
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
		opts.GameZ = playerpkg.GameZ
	}
	if opts.Shapes == 0 {
		opts.Shapes = 8
	}
	if opts.ScreenNodes <= 0 {
		opts.ScreenNodes = DefaultScreenNodes
	}
	if opts.PlayerNodes <= 0 {
		opts.PlayerNodes = playerpkg.DefaultCandidateNodes
	}
	if opts.MaxPlayerNodes <= 0 {
		opts.MaxPlayerNodes = 16 * opts.PlayerNodes
	}
	if opts.Finish == 0 {
		opts.Finish = DefaultFinish
	}
	if opts.Widen <= 0 {
		opts.Widen = DefaultWiden
	}
	opts.Verify.ExpandSeminull = false // seminull items are positions of the book
	return opts
}

// progress is the job search's progress callback that reports the run's
// progress to progress (nil: none). The proved count is read from the
// book when a verdict has been stored since the last report (on the
// reporting goroutine).
func (t *bookTree) progress(ctx context.Context, counter *provedCounter, progress func(c6book.ProveProgress)) func(jobsearch.JobProgress[PosID]) {
	if progress == nil {
		return nil
	}
	lastCalls, newly := -1, 0
	return func(p jobsearch.JobProgress[PosID]) {
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
			PN: p.PN, DN: p.DN, InFlight: inflight, Working: t.work.of(inflight), Held: p.Held, Elapsed: p.Elapsed})
	}
}

// result is the run's result from the search's (sr) and the tree's
// counts, with status; the book's counts and the target's proof are the
// caller's.
func (t *bookTree) result(sr jobsearch.JobSearchResult[PosID], status c6book.ProveStatus) ProveResult {
	res := ProveResult{Status: status, Calls: sr.Jobs, Expanded: sr.Expanded, Finishing: sr.Finishing, Nodes: sr.Nodes, SearchProved: sr.Proved, Open: sr.Open, PN: sr.PN, DN: sr.DN, Elapsed: sr.Elapsed,
		Held: sr.Held, MaxHeld: sr.MaxHeld,
		Budgets: t.schedule, CallsAt: t.callsAt, Again: t.again, Added: int(t.added.Load())}
	for _, f := range sr.Frontier {
		why := f.Why
		if t.isRefused(f.Key) {
			why = jobsearch.FrontierRefused
		}
		res.Frontier = append(res.Frontier, Frontier{f.Key, f.PN, f.DN, why})
	}
	t.mu.Lock()
	res.Screened, res.ScreenProved = t.screened, t.screenProved
	res.FamilyJobs, res.FamilyCalls, res.FamilyProved = t.familyJobs, t.familyCalls, t.familyProved
	res.Promoted, res.Postponed = t.promoted, t.postponed
	if t.shapes != nil {
		res.Shapes, res.ShapesProved = t.shapes.Len(), t.shapes.Proved()
	}
	for id, err := range t.refused {
		res.Refused = append(res.Refused, Refused{id, err})
	}
	t.mu.Unlock()
	slices.SortFunc(res.Refused, func(x, y Refused) int { return cmp.Compare(x.ID, y.ID) })
	return res
}

// bookTree is the book as a jobsearch.JobTree. Look and the apply
// functions run on the search's goroutine; Run, and Expand (which the
// search may call from its workers, for different positions at once),
// run concurrently: every map below is guarded by mu.
type bookTree struct {
	bk   Store
	v    verify.Verifier
	opts ProveOptions
	a    game.Color
	// The tree lives in the book: the auto-pilot's moves with the player's
	// scores (the expected numbers of the positions they lead to,
	// priorOf) and the positions without further candidates
	// (autopilot_exhausted) are stored, so that a run killed and started
	// again sees what the killed one saw.
	added atomic.Int64 // positions stored, read by progress reports
	// work is how far the verifier calls in flight are, for the
	// progress reports.
	work *working
	// schedule is the node budgets of a position's verifications in
	// turn (BudgetSchedule, with the screen's budget first when the screen
	// is on); first is the step of a position's first verification by
	// the search (1 when the screen's budget is prepended: step 0 is the
	// screen's).
	schedule []int64
	first    int

	mu sync.Mutex
	// refused: positions whose verdict StoreVerdict refused (this run),
	// with the store's error.
	refused map[PosID]error
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
	// shapes is the run's shape table (nil: NoLearn); promoted counts the
	// candidates it put first, postponed the expansions that left the
	// player for later.
	shapes              *ShapeTable
	promoted, postponed int
	// cands is the candidate list of a few positions' latest expansion
	// (at most maxCachedCands positions: keepCands).
	cands map[PosID][]playerpkg.ScoredMove
}

func newBookTree(bk Store, v verify.Verifier, opts ProveOptions) *bookTree {
	sch := BudgetSchedule(opts.FirstNodes, opts.Verify.Limits.MaxNodes)
	first := 0
	if opts.Screen > 0 && (sch[0] <= 0 || opts.ScreenNodes < sch[0]) {
		sch = append([]int64{opts.ScreenNodes}, sch...)
		first = 1
	}
	var shapes *ShapeTable
	if !opts.NoLearn {
		shapes = opts.Learned
		if shapes == nil {
			shapes = NewShapeTable(0)
		}
	}
	return &bookTree{bk: bk, v: v, opts: opts, a: opts.Attacker, refused: map[PosID]error{}, shapes: shapes, work: newWorking(),
		widened: map[PosID]int{}, screen: map[PosID][2]int64{}, cands: map[PosID][]playerpkg.ScoredMove{},
		schedule: sch, first: first, step: map[PosID]int{}, callsAt: make([]int, len(sch))}
}

func (t *bookTree) isRefused(id PosID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.refused[id]
	return ok
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
func (t *bookTree) keepCands(id PosID, c []playerpkg.ScoredMove) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.cands) >= maxCachedCands {
		clear(t.cands)
	}
	t.cands[id] = c
}

// exhausted reports whether node n (an attacker-to-move position) has no
// further candidate moves among the first MaxCandidates the player ranks
// (stored by setExhausted, by this run or an earlier one with as many
// candidates).
func (t *bookTree) exhausted(n proofbook.AutoNode) bool {
	return n.Exhausted >= t.opts.MaxCandidates
}

// setExhausted stores that position id has no further candidate moves
// among the first MaxCandidates.
func (t *bookTree) setExhausted(ctx context.Context, id PosID) error {
	return t.bk.SetExhausted(ctx, id, t.opts.MaxCandidates)
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
			if u.Reason == threat.ReasonBudget {
				return true
			}
		}
	}
	return false
}

// vouched is the expected score of a move the expert or the games vouch
// for: the best level of player.ExpectedNumbers.
const vouched = playerpkg.EvalLevels * playerpkg.EvalUnit

// expected returns the expected numbers of position id (board b, may be
// nil: read when needed): its prior (priorOf), else the static evaluation.
func (t *bookTree) expected(ctx context.Context, id PosID, b *board.Board) (int64, int64, error) {
	s, ok, err := t.priorOf(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	if ok {
		pn, dn := playerpkg.ExpectedNumbers(s)
		return pn, dn, nil
	}
	if b == nil {
		var err error
		if b, err = t.bk.Board(ctx, id); err != nil {
			return 0, 0, err
		}
	}
	pn, dn := playerpkg.ExpectedNumbers(playerpkg.EvalScore(b, t.a))
	return pn, dn, nil
}

// Look implements jobsearch.JobTree.
func (t *bookTree) Look(ctx context.Context, id PosID) (jobsearch.JobNode[PosID], error) {
	bk, a := t.bk, t.a
	var n jobsearch.JobNode[PosID]
	pi, err := bk.AutoNode(ctx, id, a)
	if err != nil {
		return n, err
	}
	n.OR = pi.ToMove == a
	pr := pi.Proof
	switch {
	case pi.Winner == a || pr.Status == c6book.StatusProved:
		n.Result = jobsearch.JobProved
		return n, nil
	case pi.Winner == a.Opp() || pr.Status == c6book.StatusDisproved:
		n.Result = jobsearch.JobFailed
		return n, nil
	}
	if pi.Held || t.isRefused(id) {
		n.Result = jobsearch.JobExcluded
		return n, nil
	}
	if n.OR {
		kids, err := t.orChildren(ctx, id)
		if err != nil {
			return n, err
		}
		n.Children = kids
		if n.After, err = t.seminullAfter(ctx, id); err != nil {
			return n, err
		}
		if !t.exhausted(pi) {
			n.Work = jobsearch.JobExpand
			if len(kids) == 0 && !t.opts.NoFamily {
				if _, _, _, fam, err := t.familyPending(ctx, id); err != nil {
					return n, err
				} else if fam {
					// Its seminull family's job (runFamily): the answer
					// that proved the seminull position is stored as a
					// vouched move, and the position expects what that
					// move will (the static evaluation of a position
					// one stone short of its answer says little: on
					// Mickey Mouse, family jobs waited behind it at
					// verdicts with nothing else left).
					n.Work = jobsearch.JobRun
					n.PN, n.DN = playerpkg.ExpectedNumbers(vouched)
					return n, nil
				}
			}
		} else if len(kids) == 0 {
			n.Result = jobsearch.JobFailed
		}
		if len(kids) == 0 && n.Result == jobsearch.JobUnsettled {
			if n.PN, n.DN, err = t.expected(ctx, id, nil); err != nil {
				return n, err
			}
		}
		return n, nil
	}
	// Defender to move: verify unless the stored verdict counts. (The
	// certificate is not decoded here: StoreVerdict checked it.)
	vd, hasCert := pi.Verdict, pi.HasCert
	b, err := bk.Board(ctx, id)
	if err != nil {
		return n, err
	}
	tol, ok := b.DefenderDeficit(a)
	if !ok {
		n.Result = jobsearch.JobFailed // not a position of a's proofs
		return n, nil
	}
	switch {
	case vd == nil || vd.Attacker != a || !hasCert && !vd.AllUnsolved || vd.Tolerance != tol:
		n.Work = jobsearch.JobRun
		n.PN, n.DN, err = t.expected(ctx, id, b)
		return n, err
	case vd.AllUnsolved && vd.Status != c6book.StatusProved:
		if vd.Lambda < t.opts.Verify.Lambda || t.widens(id, vd) {
			// A lower-order verdict: try this order; or one at a budget
			// below the schedule's last: try a larger one.
			n.Work = jobsearch.JobRun
			if e, ok := t.screenNumbers(id); ok {
				n.PN, n.DN = e[0], e[1]
				return n, nil
			}
			n.PN, n.DN, err = t.expected(ctx, id, b)
			return n, err
		} else {
			n.Result = jobsearch.JobFailed // no zone bounds the defence: a dead end
		}
		return n, nil
	}
	items, err := bk.OpenItems(ctx, id, a, b, vd)
	if err != nil {
		return n, err
	}
	if len(items) == 0 {
		// Open, but nothing left to answer (proved positions were caught
		// above): a verdict without items that is not a proof.
		n.Result = jobsearch.JobFailed
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
		n.Work = jobsearch.JobRun // verified again, at a larger budget, when selected
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
// ones the worst (player.ExpectedNumbers' levels).
func (t *bookTree) orChildren(ctx context.Context, id PosID) ([]PosID, error) {
	moves, err := t.bk.AutoMoves(ctx, id, t.a)
	if err != nil {
		return nil, err
	}
	type kid struct {
		id    PosID
		class int
		key   float64 // within a class, smallest first
	}
	var kids []kid
	for _, e := range moves {
		k := kid{id: e.Child}
		k.class, k.key = t.moveClass(e)
		kids = append(kids, k)
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
// games (GameLCB), 2 the auto-pilot's (by its rank), 3 the other
// imported ones; key orders a class, smallest first.
func (t *bookTree) moveClass(e proofbook.AutoEdge) (int, float64) {
	bw, ww := e.Games.BlackWins, e.Games.WhiteWins
	wins := bw
	if t.a == game.White {
		wins = ww
	}
	switch lcb := playerpkg.WilsonLower(wins, bw+ww, t.opts.GameZ); {
	case e.Auto:
		return 2, float64(e.Rank)
	case e.Games.Games == 0:
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
	parents, err := t.bk.AutoParents(ctx, id)
	if err != nil {
		return 0, false, err
	}
	best, ok := 0.0, false
	for _, e := range parents {
		if e.ParentToMove != t.a {
			continue
		}
		var v float64
		switch c, _ := t.moveClass(e); {
		case c == 0 || c == 1:
			v = vouched
		case c == 3:
			v = -vouched
		case e.Scored:
			v = e.Score
		default:
			continue
		}
		if !ok || v > best {
			best, ok = v, true
		}
	}
	return best, ok, nil
}

// Expand implements jobsearch.JobTree: the next batch of candidate moves.
// It is safe to call for different positions at once.
//
// The candidates, in order: the moves that proved the position less one
// defender stone (twinMoves), the zone-reuse proposals and the moves that
// proved a sibling of the position (firstMoves: siblingMoves, another
// defender reply to the same position, a closed seminull item's answer
// first of all), then the player's winning move, then a shape move
// (player.ShapeCandidates) and a player move in turn
// (player.MixCandidates), those whose local shape proved before in the
// run first (the shape table, learn.go). With Postpone, at a position's
// first expansion with first moves the player is not asked (it is most
// of an expansion's time): the batch is the first moves and the shape
// moves, and the player comes at the next widening. The player's budget grows fourfold
// with each expansion of the position in this run (its first moves
// failed, or look worse than asking for more), up to MaxPlayerNodes. With
// the screen on, the new moves are screened (screenKids).
func (t *bookTree) Expand(ctx context.Context, id PosID) (int, error) {
	b, err := t.bk.Board(ctx, id)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	w := t.widened[id]
	t.widened[id] = w + 1
	t.mu.Unlock()
	first, err := t.firstMoves(ctx, id, b)
	if err != nil {
		return 0, err
	}
	// With Postpone, moves that proved a sibling or a zone-mate are
	// tried (with the shape moves) before the player is asked.
	postpone := t.opts.Postpone && w == 0 && len(first) > 0
	for {
		cands, err := t.candidates(ctx, b, first, w, postpone)
		if err != nil {
			return 0, err
		}
		t.keepCands(id, cands)
		added, err := t.addBatches(ctx, id, cands)
		if err != nil || added > 0 {
			if added > 0 && postpone {
				t.mu.Lock()
				t.postponed++
				t.mu.Unlock()
			}
			return added, err
		}
		if !postpone {
			return 0, t.setExhausted(ctx, id)
		}
		postpone = false // every postponed move is stored already: ask the player now
	}
}

// firstMoves are the moves tried first at position id (board b): the
// moves that proved the position less one defender stone (twinMoves), the
// zone-reuse proposals, then the moves that proved a sibling.
func (t *bookTree) firstMoves(ctx context.Context, id PosID, b *board.Board) ([]game.Move, error) {
	var sib []game.Move
	var err error
	if !t.opts.NoSiblings {
		if sib, err = siblingMoves(ctx, t.bk, id, t.a); err != nil {
			return nil, err
		}
	}
	if !t.opts.NoReuse {
		reuse, err := zoneReuseMoves(ctx, t.bk, id, b, t.a)
		if err != nil {
			return nil, err
		}
		sib = append(reuse, sib...) // zone-reuse proposals first
	}
	if !t.opts.NoTwins {
		twins, err := twinMoves(ctx, t.bk, b, t.a)
		if err != nil {
			return nil, err
		}
		sib = append(twins, sib...) // twin moves first of all
	}
	return sib, nil
}

// candidates is the candidate list of an expansion at b, the w-th at its
// position: the first moves, then the player's moves (budget growing
// fourfold with each widening; none when postponed) mixed with the shape
// moves, those whose shape proved before (the shape table) first.
func (t *bookTree) candidates(ctx context.Context, b *board.Board, first []game.Move, w int, postpone bool) ([]playerpkg.ScoredMove, error) {
	var player []playerpkg.ScoredMove
	if !postpone {
		nodes := t.opts.PlayerNodes
		for i := 0; i < w && nodes < t.opts.MaxPlayerNodes; i++ {
			nodes *= 4
		}
		nodes = min(nodes, t.opts.MaxPlayerNodes)
		var err error
		if player, err = playerpkg.PlayerCandidates(ctx, b, t.opts.MaxCandidates, nodes); err != nil {
			return nil, err
		}
	}
	var shapes []playerpkg.ShapeMove
	if t.opts.Shapes > 0 {
		shapes = playerpkg.ShapeCandidates(b, t.opts.Shapes)
	}
	cands := playerpkg.MixCandidates(player, shapes, t.opts.MaxCandidates)
	if t.shapes != nil {
		var n int
		cands, n = t.shapes.promote(b, t.a, cands)
		t.mu.Lock()
		t.promoted += n
		t.mu.Unlock()
	}
	if len(first) == 0 {
		return cands, nil
	}
	out := make([]playerpkg.ScoredMove, 0, len(first)+len(cands))
	for _, m := range first {
		out = append(out, playerpkg.ScoredMove{Move: m, Score: vouched})
	}
	return uniqueMoves(append(out, cands...)), nil
}

// addBatches stores the first of cands at position id as its new attacker
// moves: Candidates of them, doubling while none is new, up to
// MaxCandidates; a move the screen proves is a proof at once. It returns
// how many were new (0: every one was stored before).
func (t *bookTree) addBatches(ctx context.Context, id PosID, cands []playerpkg.ScoredMove) (int, error) {
	for n := t.opts.Candidates; ; n *= 2 {
		n = min(n, t.opts.MaxCandidates)
		batch := cands[:min(n, len(cands))]
		moves := make([]game.Move, len(batch))
		scores := make([]float64, len(batch)) // the attacker's side: the mover's
		for i, c := range batch {
			moves[i], scores[i] = c.Move, c.Score
		}
		added, positions, kids, err := t.bk.AddAutoMoves(ctx, id, moves, scores)
		if err != nil {
			return 0, err
		}
		t.added.Add(int64(positions))
		if added > 0 {
			if t.opts.Screen > 0 {
				var fresh []PosID
				for _, k := range kids {
					if k != 0 {
						fresh = append(fresh, k)
					}
				}
				if err := t.screenKids(ctx, id, fresh); err != nil {
					return added, err
				}
			}
			return added, nil
		}
		if n >= t.opts.MaxCandidates {
			return 0, nil
		}
	}
}

// uniqueMoves keeps the first of equal moves.
func uniqueMoves(ms []playerpkg.ScoredMove) []playerpkg.ScoredMove {
	seen := map[game.Move]bool{}
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
		return 1 + playerpkg.EvalLevels, 1
	}
	hard := int64(0)
	for _, u := range vd.Unsolved {
		if u.Reason != threat.ReasonBudget {
			hard++
		}
	}
	for _, u := range vd.OpenSeminull {
		if u.Reason != threat.ReasonBudget {
			hard += 2
		}
	}
	return 1 + min(playerpkg.EvalLevels, hard), 1 + playerpkg.EvalLevels - min(playerpkg.EvalLevels, hard)
}

// screenKids is the screen: up to opts.Screen of the positions kids (new
// attacker moves' positions, defender to move) without a verdict for the
// attacker are verified at once, each solver call at the screen's budget
// (schedule[0]), through the auto-pilot's verifier (the worker pool, the
// queue's workers). Each verdict is stored with StoreVerdict, re-checked
// by proofcheck: a proved one proves its move. The others count with the
// numbers screenRank gives them until the search verifies them again at
// the schedule's budgets.
func (t *bookTree) screenKids(ctx context.Context, job PosID, kids []PosID) error {
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
	if len(todo) == 0 {
		return nil
	}
	t.work.start(job, len(todo))
	defer t.work.done(job)
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for i, k := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = t.screenOne(ctx, job, k, int64(i))
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// needsVerdict reports whether position k (defender to move) has no
// verdict for the attacker and is not decided.
func (t *bookTree) needsVerdict(ctx context.Context, k PosID) (bool, error) {
	pi, err := t.bk.AutoNode(ctx, k, t.a)
	if err != nil {
		return false, err
	}
	if pi.ToMove == t.a || pi.Winner != game.Empty {
		return false, nil
	}
	vd := pi.Verdict
	return vd == nil || vd.Attacker != t.a, nil
}

// screenOne verifies position k, the screen's rank-th candidate, at the
// screen's budget and stores the verdict (the expansion job of job's).
func (t *bookTree) screenOne(ctx context.Context, job, k PosID, rank int64) error {
	vo := t.verifyOptions(ctx, t.schedule[0], rank)
	res, err := t.bk.Verify(ctx, k, t.v, vo, t.work.report(job))
	t.work.finished(job)
	var se *proofbook.StoreError
	if why, ok := refusal(ctx, err); ok {
		t.refuse(k, why)
		return nil
	} else if errors.As(err, &se) {
		return fmt.Errorf("position %d: %w", k, se.Err)
	} else if err != nil {
		return err
	}
	t.added.Add(int64(res.Positions))
	t.learnFrom(ctx, k, res.Verdict.Status == c6book.StatusProved)
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

// refusal reports whether err, from Store.Verify, is the store's refusal
// of the verdict (its certificate does not check, or it forgets a
// defender move), and returns why. Nothing was stored: the run leaves the
// position alone and says so (refuse), the others go on. A busy or
// read-only book, or a stop, is not a refusal.
func refusal(ctx context.Context, err error) (error, bool) {
	var se *proofbook.StoreError
	if !errors.As(err, &se) || ctx.Err() != nil || proofbook.IsBusy(err) || errors.Is(err, proofbook.ErrReadOnly) {
		return nil, false
	}
	return se.Err, true
}

// refuse records that the store refused position id's verdict.
func (t *bookTree) refuse(id PosID, why error) {
	t.mu.Lock()
	t.refused[id] = why
	t.mu.Unlock()
}

// verifyOptions are the run's verifier options at a node budget, with the
// priority of the job or expansion whose context is ctx (the search's
// order, jobsearch.Selected, plus rank among its calls made at once): a
// worker that has several jobs gives its cores to the search's first
// choice first. It changes no verdict.
func (t *bookTree) verifyOptions(ctx context.Context, nodes int64, rank int64) verify.VerifyOptions {
	vo := t.opts.Verify
	vo.Limits.MaxNodes = nodes
	if at, ok := jobsearch.Selected(ctx); ok {
		vo.Priority = at + rank
	}
	return vo
}

// Run implements jobsearch.JobTree: verify position id and store the verdict
// (Store.Verify: proofbook.Book.Verify).
//
// The node budget of its solver calls is the schedule's first, or, for a
// position verified in this run, the next one (BudgetSchedule).
func (t *bookTree) Run(ctx context.Context, id PosID) (func(), error) {
	if pi, err := t.bk.AutoNode(ctx, id, t.a); err != nil {
		return nil, err
	} else if pi.ToMove == t.a {
		return t.runFamily(ctx, id) // an attacker-to-move position's job: its family's
	}
	step, before := t.nextStep(id)
	vo := t.verifyOptions(ctx, t.schedule[step], 0)
	t.work.start(id, 0)
	defer t.work.done(id)
	res, err := t.bk.Verify(ctx, id, t.v, vo, t.work.report(id))
	var se *proofbook.StoreError
	if why, ok := refusal(ctx, err); ok {
		return func() { t.refuse(id, why) }, nil
	} else if errors.As(err, &se) {
		return nil, fmt.Errorf("position %d: %w", id, se.Err)
	} else if err != nil {
		return nil, err
	}
	t.added.Add(int64(res.Positions))
	t.learnFrom(ctx, id, res.Verdict.Status == c6book.StatusProved)
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

// maxSiblingMoves bounds siblingMoves, maxSiblingParents the parents it
// looks at.
const maxSiblingMoves, maxSiblingParents = 4, 4

// siblingMoves returns the attacker moves that proved a sibling of the
// attacker-to-move position id (a position another defender reply reaches
// from a parent of id), in id's canonical frame, legal at id, at most
// maxSiblingMoves: a killer move, since the answer that beat one reply
// often beats the next. The answers of the parents' seminull items (one
// defender stone) come first: the items (s, x) of a closed seminull item
// s are the position D+s with one more defender stone inside the zone of
// D+s's proof, and the move that proved D+s usually wins them too. They
// are only candidates: each is verified like any other move.
func siblingMoves(ctx context.Context, bk Store, id PosID, a game.Color) ([]game.Move, error) {
	b, err := bk.Board(ctx, id)
	if err != nil {
		return nil, err
	}
	r := b.Rules()
	ups, err := bk.AutoParents(ctx, id)
	if err != nil {
		return nil, err
	}
	ups = ups[:min(len(ups), maxSiblingParents)]
	// frameOf is the symmetry that maps the parent's frame (board pb) to
	// the canonical frame of the child that defender move m reaches.
	frameOf := func(pb *board.Board, m game.Move) int {
		for i := 0; i < m.Len(); i++ {
			pb.Place(m.At(i), a.Opp())
		}
		_, sym := pb.CanonicalKey()
		for i := m.Len() - 1; i >= 0; i-- {
			pb.Remove(m.At(i))
		}
		return sym
	}
	var out []game.Move
	seen := map[game.Move]bool{}
	for _, u := range ups {
		if u.ParentToMove != a.Opp() {
			continue
		}
		pb, err := bk.Board(ctx, u.Parent)
		if err != nil {
			return nil, err
		}
		toID := frameOf(pb, u.Move)
		sibs, err := bk.AutoMoves(ctx, u.Parent, a)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(sibs, func(x, y proofbook.AutoEdge) int { return x.Move.Len() - y.Move.Len() })
		for _, sib := range sibs {
			if sib.Child == id || sib.Proof.Status != c6book.StatusProved || sib.Proof.How != c6book.HowMove {
				continue
			}
			answers, err := bk.AutoMoves(ctx, sib.Child, a)
			if err != nil {
				return nil, err
			}
			var best *proofbook.AutoEdge
			for i := range answers {
				c := &answers[i]
				if c.Proof.Status == c6book.StatusProved && (best == nil || c.Proof.Order < best.Proof.Order) {
					best = c
				}
			}
			if best == nil {
				continue
			}
			fromSib := game.InverseSymmetry(frameOf(pb, sib.Move))
			sq := make([]game.Square, best.Move.Len())
			legal := best.Move.Len() == r.P
			for i := range sq {
				sq[i] = r.Transform(toID, r.Transform(fromSib, best.Move.At(i)))
				legal = legal && b.At(sq[i]) == game.Empty
			}
			m := game.NewMove(sq...)
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
