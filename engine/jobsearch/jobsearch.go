package jobsearch

import (
	"context"
	"errors"
	"slices"
	"sort"
	"time"

	"c6book/internal/latest"
)

// Job-level proof-number search (JL-PNS): a proof-number search whose leaf
// expansions are jobs (verifier calls) that run for seconds or minutes,
// several at once. It is one algorithm over a small tree interface, JobTree,
// that knows nothing of what the tree's nodes stand for.
//
// The numbers are the usual ones, computed by the search over the tree the
// JobTree shows it: an OR node (attacker to move) has pn = min, dn = sum of
// its children's; an AND node (defender to move) pn = sum, dn = min; a
// frontier node (work to do) is 1/1 or its expected numbers (below); a
// proved node 0/∞, a failed one ∞/0.
// An OR node that can get more candidate moves has one more, virtual,
// child whose proof number is the count of its moves not failed, times
// JobOptions.Widen (progressive widening): new moves are asked for when
// none is left, or when the best move's proof number has grown past that.
//
// Evaluation-based initialisation: a frontier node's numbers are the
// ones its JobNode expects (PN, DN, from an evaluation of the position),
// 1/1 when it says nothing. A node may also say how much work will follow
// its proof before it counts (JobNode.After): that much is added to its
// proof number while it is unsettled, whatever its children say.
//
// A job may be run again: an AND node with children whose JobNode says
// JobRun (say, a verifier call again at a larger node budget) counts by its children like any AND node, and selection
// reaching it runs its job instead of descending into them. Its value
// still comes only from its Result and its children.
//
// Parallel jobs follow virtual equivalence with flagging, the policy the
// job-level PNS paper (Wu et al.) measured best: a node whose job is
// running is "in flight"; until its job ends it counts with the numbers it
// had when the job started (its expected outcome: equivalence, neither a
// virtual win nor a virtual loss), so its ancestors' numbers do not move,
// and it is flagged: selection never takes it again. A node all of whose
// selectable descendants are flagged is flagged too for the selection
// pass, and selection, descending from the root by the most-proving child,
// takes the next most-proving unflagged child instead.
//
// An expansion (an OR node's new candidate moves: the player, a screen of
// verifier calls) is a job too: it runs in a worker goroutine beside the
// verifier jobs and takes one of the Jobs slots. While it runs, the
// node's virtual child "more candidate moves" is in flight (it counts
// with the number it had when the expansion started, and is flagged);
// the node's moves stored before stay selectable, so a slow expansion
// at the root does not idle the other slots.
//
// Memory: the tree lives in the JobTree (its store); the search holds a
// cache of at most JobOptions.CacheNodes nodes of it (DefaultCacheNodes),
// whatever the run's length and the number of jobs. A cached node keeps
// its children's numbers as last evaluated, so a child dropped from the
// cache still counts in its parent; the search reads a dropped node again
// when selection descends into it. The least recently used nodes are
// dropped first; the nodes on the selection path of a job in flight are
// kept (they are the ones its result changes). Evaluation is incremental:
// a job's end marks its node and the node's cached ancestors stale, and
// only they are read again.

// JobWork is what a node of a JobTree needs.
type JobWork int

// Kinds of work.
const (
	JobNone   JobWork = iota // nothing: the node's value follows from its children (or its Result)
	JobRun                   // a job (a verifier call): JobTree.Run, in a worker
	JobExpand                // new children (candidate moves): JobTree.Expand, in a worker like a job
)

// JobResult is a node's settled value as the tree knows it.
type JobResult int

// Node results.
const (
	JobUnsettled JobResult = iota
	JobProved              // proved (pn 0)
	JobFailed              // disproved, or a dead end for the search (pn ∞)
	JobExcluded            // marked by the tree as not to be worked on: never selected (counts 1/1)
)

// JobNode is what a JobTree says about one node.
type JobNode[K comparable] struct {
	OR     bool      // attacker to move
	Result JobResult // settled value, if any
	// Children are the node's children in the tree's preferred order (ties
	// in the numbers keep it: hand-made moves first, then by rank). Under
	// an AND node only the moves still to prove need to be listed.
	Children []K
	// Work is the node's own work: a frontier node's job, or (OR node)
	// more candidate moves. An OR node's JobExpand is a virtual child whose
	// proof number is the number of its moves that have not failed (at
	// least 1): new moves are asked for when there are none, when every
	// move failed, or when the best move's proof number exceeds that count
	// (progressive widening). Expand returning 0 must turn Work to JobNone.
	// An AND node with children and Work JobRun is a node whose job may be
	// run again (say, a verifier call again at a larger node budget): it
	// counts by its children, and selection
	// reaching it runs its job instead of descending.
	Work JobWork
	// PN and DN are a frontier node's expected numbers (evaluation-based
	// initialisation; 0: 1). They order the search only: a node is proved
	// or failed by its Result and its children, never by these.
	PN, DN int64
	// After is work known to follow the node's proof before it counts for
	// its parent (say, the full moves a seminull position's proof leaves
	// to prove): added to the proof number of the node while it is
	// unsettled, whatever its children say. It orders the search only.
	After int64
}

// plusAfter is proof number pn of an unsettled node with n.After added.
func (n JobNode[K]) plusAfter(pn int64) int64 {
	if n.After <= 0 || pn <= 0 || pn >= jobInf {
		return pn
	}
	return min(pn+n.After, jobInf-1)
}

// frontier returns the numbers of a frontier node: its expected ones,
// each at least 1 and finite.
func (n JobNode[K]) frontier() (int64, int64) {
	pn, dn := n.PN, n.DN
	if pn <= 0 {
		pn = 1
	}
	if dn <= 0 {
		dn = 1
	}
	return min(pn, jobInf-1), min(dn, jobInf-1)
}

// JobTree is the tree a job-level proof-number search runs over. Look and
// the apply functions Run returns are called on the search's goroutine
// only. Run and Expand run in worker goroutines, several at once (never
// two for the same node), concurrently with each other and with Look: a
// JobTree must be safe for that. Run must not change what Look reports
// until its apply function is called (a tree that stores results itself,
// in a store, may); Expand's new children may show in Look as
// soon as they are stored.
type JobTree[K comparable] interface {
	// Look reports node k. After a job or an expansion the search looks
	// again at the node and its ancestors on the selection path.
	Look(ctx context.Context, k K) (JobNode[K], error)
	// Expand adds children to OR node k (Work JobExpand); it returns how
	// many it added (0: no more candidates, the node has failed). It runs
	// in a worker goroutine (see above).
	Expand(ctx context.Context, k K) (int, error)
	// Run does node k's job (Work JobRun). apply, when not nil, is called
	// on the search's goroutine with the job's result.
	Run(ctx context.Context, k K) (apply func(), err error)
}

// JobOptions configure JobSearch.
type JobOptions struct {
	Jobs     int           // jobs at once, expansions included (0: 1)
	MaxJobs  int           // jobs started at most (0: no limit)
	MaxTime  time.Duration // (0: no limit) the search stops starting jobs and cancels the ones in flight
	Interval time.Duration // progress reports at most this often besides one per finished job (0: 1 s)
	// Refresh drops the search's view of the tree this often (0: never),
	// so that changes made by others (new nodes, results stored by another
	// search) are seen; otherwise a node is looked at again only after a
	// job or an expansion below it.
	Refresh time.Duration
	// CacheNodes bounds the nodes of the tree the search holds (0:
	// DefaultCacheNodes; at least the nodes on the paths of the jobs in
	// flight are held).
	CacheNodes int
	// Widen is the proof number of an OR node's virtual child "more
	// candidate moves" per move not failed (0: 1): new moves are asked for
	// when the best move's proof number exceeds Widen times the number of
	// moves. Above 1 the search digs deeper into the moves it has before
	// it widens.
	Widen int
	// Finish: every Finish-th job or expansion (0: none) is selected
	// below a near-closed node instead of below the root: a held AND
	// node, not the root, with a proof number of at most FinishPN, whose
	// held ancestors up to the root are all unsettled; the one with the
	// smallest proof number, then the most nodes proved below it, then
	// the most recently used. The root's selection goes where the sum
	// of many siblings' proof numbers is smallest, so a node one or two
	// jobs from its proof deep in a wide tree can wait for ever; this
	// spends a share of the jobs on closing such nodes (AND nodes with
	// children: a frontier node's numbers are only expected). It changes only
	// the order of the work (a node is proved by its children alone).
	Finish int
}

// FinishPN is the largest proof number of a node the finishing rule
// (JobOptions.Finish) works on. In the book, a verdict whose last
// seminull item's position is proved waits for the item's family job
// (one job) and for the full moves that hold a stone of the answer (the
// job cannot play it there): 3 to 6; at 2 (the first bound measured) the
// rule never reached them.
const FinishPN = 4

// JobProgress is reported while JobSearch runs.
type JobProgress[K comparable] struct {
	Jobs     int // jobs finished
	Expanded int // expansions (candidate batches)
	// Proved counts the nodes of the tree proved and Open the frontier
	// nodes with work left, as the search last saw the tree, counted
	// along its lines (a node two lines reach counts twice).
	Proved   int
	Open     int
	PN, DN   int64
	InFlight []K // nodes whose job or expansion runs
	// Held is the number of nodes the search holds (its cache), MaxHeld
	// the most it held so far.
	Held, MaxHeld int
	Elapsed       time.Duration
}

// JobFrontier is a node where work stopped: an open leaf with its numbers,
// a node the tree excluded from the search, or one in flight when the search
// stopped.
type JobFrontier[K comparable] struct {
	Key    K
	PN, DN int64
	Why    FrontierReason // FrontierOpen, FrontierExcluded or FrontierStuck
}

// FrontierReason says why work stopped at a frontier node. Its values are
// the search's own words; callers say them in theirs.
type FrontierReason string

// Frontier reasons.
const (
	FrontierOpen     FrontierReason = "open"     // work left (a job to run, moves to add)
	FrontierExcluded FrontierReason = "excluded" // the tree excluded it (JobExcluded)
	FrontierStuck    FrontierReason = "stuck"    // no work the search can do
	// FrontierRefused: the tree refused the node's job result (a tree may
	// refuse a result it cannot check); the search itself never reports
	// it, a caller may.
	FrontierRefused FrontierReason = "refused"
)

// SearchStatus is how a JobSearch ended.
type SearchStatus string

// JobSearch outcomes.
const (
	SearchProved    SearchStatus = "proved"
	SearchDisproved SearchStatus = "disproved"
	SearchBudget    SearchStatus = "budget"  // jobs or time
	SearchStuck     SearchStatus = "stuck"   // nothing left the search can select
	SearchStopped   SearchStatus = "stopped" // ctx done
	SearchError     SearchStatus = "error"   // a job failed
)

// JobSearchResult is the outcome of JobSearch.
type JobSearchResult[K comparable] struct {
	// Status: "proved", "disproved", "budget" (jobs or time), "stuck"
	// (nothing left the search can select: every open leaf is excluded by
	// the tree or has no job) or "stopped" (ctx done).
	Status   SearchStatus
	PN, DN   int64
	Jobs     int // jobs finished (a cancelled one is not counted)
	Started  int
	Expanded int
	// Finishing counts the jobs and expansions the finishing rule
	// selected (JobOptions.Finish).
	Finishing int
	// Nodes counts the nodes the search read into its cache (a node the
	// cache dropped and read again counts again).
	Nodes int
	// Held is the nodes the search held at the end, MaxHeld the most it
	// held at once (at most JobOptions.CacheNodes, besides the paths of
	// the jobs in flight).
	Held, MaxHeld int
	Proved        int // nodes proved, as the search last saw the tree (see JobProgress)
	Open          int // frontier nodes with work left, likewise
	Elapsed       time.Duration
	// Frontier lists the most-proving open leaves (at most 20), smallest
	// proof number first.
	Frontier []JobFrontier[K]
}

// jobInf is the infinite proof number of JobSearch.
const jobInf = int64(1) << 40

// DefaultCacheNodes is the search's cache bound (JobOptions.CacheNodes):
// 65,536 nodes. A held node costs a few hundred bytes (its JobNode, its
// children's numbers), so the cache stays within a few tens of MB for any
// run. The search's working set is much smaller: each selection touches
// one path from the root (tens of nodes) and the children of the nodes on
// it, so a bound this size drops only the parts of the tree the search has
// left for a long time, and reads them again (from the tree) when it comes
// back to them.
const DefaultCacheNodes = 1 << 16

// jsKid is a child's numbers as its parent last evaluated them: they
// stand for the child while the cache does not hold it.
type jsKid struct {
	pn, dn       int64
	proved, open int
}

// unknownKid stands for a child whose numbers are to be computed.
var unknownKid = jsKid{pn: -1}

type jsNode[K comparable] struct {
	info   JobNode[K]
	pn, dn int64
	kids   []jsKid // info.Children's numbers, same order
	// proved and open count the node and the nodes below it (along the
	// tree's lines) that are proved, and that have work left.
	proved, open int
	// parents are the cached nodes that listed it among their children
	// when they were evaluated (some may have been dropped since).
	parents []K
	clean   bool   // pn, dn, kids are up to date
	stale   bool   // info is to be looked at again
	busy    bool   // on the evaluation's stack: not dropped
	used    uint64 // the search's clock when last used
}

// jsFlight is a node whose job or expansion runs.
type jsFlight[K comparable] struct {
	expand bool
	// pn, dn are the node's numbers when it started (virtual equivalence),
	// vp (expansion) its virtual child's.
	pn, dn, vp int64
	path       []K // the selection path from the root to the node
}

type jobSearch[K comparable] struct {
	tree    JobTree[K]
	root    K
	nodes   map[K]*jsNode[K]
	limit   int
	widenBy int64 // JobOptions.Widen, at least 1
	// finishBy is JobOptions.Finish; begun counts the jobs and expansions
	// started (the finishing rule's clock).
	finishBy, begun int
	clock           uint64 // ticks at every use of a node
	// refreshed is the clock at the last refresh.
	refreshed uint64
	inflight  map[K]*jsFlight[K]
	flagged   map[K]bool // selection pass: in flight, or nothing selectable below
	noMore    map[K]bool // OR nodes whose Expand added nothing
	res       JobSearchResult[K]
	proved    int
	open      int
}

type jobDone[K comparable] struct {
	k      K
	expand bool
	added  int // an expansion's new children
	apply  func()
	err    error
}

// JobSearch runs a job-level proof-number search below root. progress, when
// not nil, is called from a goroutine of its own with reports that are
// dropped rather than slowing the search. A done ctx stops it: jobs in flight
// are cancelled and waited for, and the result says "stopped" (with ctx's
// error).
func JobSearch[K comparable](ctx context.Context, tree JobTree[K], root K, opts JobOptions, progress func(JobProgress[K])) (JobSearchResult[K], error) {
	if opts.Jobs <= 0 {
		opts.Jobs = 1
	}
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	start := time.Now()
	s := newJobSearch(tree, root, opts.CacheNodes, opts.Widen)
	s.finishBy = max(opts.Finish, 0)
	prog := latest.NewReporter(progress)
	defer prog.Stop(ctx)

	// jctx bounds the jobs and the expansions: at MaxTime, or when ctx is
	// done, the ones in flight are cancelled.
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timeUp <-chan time.Time
	if opts.MaxTime > 0 {
		t := time.NewTimer(opts.MaxTime)
		defer t.Stop()
		timeUp = t.C
	}
	r := &jobRun[K]{s: s, tree: tree, opts: opts, start: start, prog: prog, ctx: ctx, jctx: jctx,
		ectx: context.WithoutCancel(ctx), done: make(chan jobDone[K], opts.Jobs)}
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	stopping := SearchStatus("") // why no new jobs start
	refreshed := start
	for {
		if err := s.evaluate(r.ectx); err != nil {
			cancel()
			r.wait()
			return s.finish(start), err
		}
		stopping = r.check(stopping)
		// Start jobs and expansions while slots are free.
		var err error
		if stopping, err = r.startJobs(stopping); err != nil {
			cancel()
			r.wait()
			return s.finish(start), err
		}
		if stopping == SearchBudget && len(s.inflight) > 0 && r.overTime() {
			cancel() // the time is up: the jobs in flight end too
			r.wait()
		}
		if (stopping == SearchProved || stopping == SearchDisproved) && len(s.inflight) > 0 {
			// The root is settled: what the jobs in flight would find is not
			// needed (their results are dropped, nothing half done is kept).
			cancel()
			r.wait()
		}
		if len(s.inflight) == 0 {
			if stopping == "" {
				stopping = SearchStuck
				if rn := s.nodes[root]; rn.pn == 0 {
					stopping = SearchProved
				} else if rn.dn == 0 {
					stopping = SearchDisproved
				}
			}
			break
		}
		r.report()
		select {
		case d := <-r.done:
			if stopping, err = r.finished(d, stopping); err != nil {
				cancel()
				r.wait()
				s.res.Status = SearchError
				return s.finish(start), err
			}
		case <-timeUp:
			stopping = SearchBudget
			cancel()
			r.wait()
		case <-ctx.Done():
			stopping = SearchStopped
			cancel()
			r.wait()
		case <-ticker.C:
			if opts.Refresh > 0 && time.Since(refreshed) >= opts.Refresh {
				s.refresh()
				refreshed = time.Now()
			}
		}
	}
	if err := s.evaluate(r.ectx); err != nil {
		return s.finish(start), err
	}
	s.res.Status = stopping
	r.report()
	res := s.finish(start)
	if stopping == SearchStopped {
		return res, ctx.Err()
	}
	return res, nil
}

// jobRun is one call of JobSearch: the search, its options, and the
// channel its jobs and expansions report on.
type jobRun[K comparable] struct {
	s     *jobSearch[K]
	tree  JobTree[K]
	opts  JobOptions
	start time.Time
	prog  *latest.Reporter[JobProgress[K]]
	// ctx is the caller's; jctx bounds the jobs (cancelled at MaxTime or
	// when ctx is done); ectx reads the tree, also while stopping.
	ctx, jctx, ectx context.Context
	done            chan jobDone[K]
	lastStamp       int64 // the latest Selected stamp handed out
}

// selectedKey is the context key of Selected.
type selectedKey struct{}

// Selected returns when the search selected the job or expansion whose
// context is ctx: a stamp in Unix nanoseconds, strictly increasing within a
// search, so that work the search chose first has the lower stamp. A tree
// may pass it on as the priority of its calls (verify.VerifyOptions.
// Priority), so that a worker runs the search's first choice first when
// several jobs wait for its cores; it changes no result.
func Selected(ctx context.Context) (int64, bool) {
	v, ok := ctx.Value(selectedKey{}).(int64)
	return v, ok
}

// stamped is jctx carrying the next Selected stamp.
func (r *jobRun[K]) stamped() context.Context {
	r.lastStamp = max(time.Now().UnixNano(), r.lastStamp+1)
	return context.WithValue(r.jctx, selectedKey{}, r.lastStamp)
}

func (r *jobRun[K]) overTime() bool {
	return r.opts.MaxTime > 0 && time.Since(r.start) >= r.opts.MaxTime
}

// report sends a progress report (when reports are wanted).
func (r *jobRun[K]) report() {
	if !r.prog.Active() {
		return
	}
	s := r.s
	p := JobProgress[K]{Jobs: s.res.Jobs, Expanded: s.res.Expanded, Proved: s.proved, Open: s.open, Elapsed: time.Since(r.start),
		Held: len(s.nodes), MaxHeld: s.res.MaxHeld}
	if n := s.nodes[s.root]; n != nil {
		p.PN, p.DN = n.pn, n.dn
	}
	for k := range s.inflight {
		p.InFlight = append(p.InFlight, k)
	}
	r.prog.Send(p)
}

// wait collects the jobs and expansions in flight (after a cancel: their
// errors are the cancellation's and are dropped). One that ended before
// the cancel reached it counts, and a job's apply runs: a tree may have
// stored its result already (the book does, and counts its calls in
// apply), and the search's view of the tree is not needed any more.
func (r *jobRun[K]) wait() {
	for len(r.s.inflight) > 0 {
		d := <-r.done
		delete(r.s.inflight, d.k)
		switch {
		case d.err != nil:
		case d.expand:
			r.s.res.Expanded++
		default:
			if d.apply != nil {
				d.apply()
			}
			r.s.res.Jobs++
		}
	}
}

// check is why no new job starts after an evaluation: the root settled,
// ctx done, the job budget spent, or stopping as it was.
func (r *jobRun[K]) check(stopping SearchStatus) SearchStatus {
	rn := r.s.nodes[r.s.root]
	switch {
	case rn.pn == 0:
		return SearchProved
	case rn.dn == 0:
		return SearchDisproved
	case r.ctx.Err() != nil:
		return SearchStopped
	case r.opts.MaxJobs > 0 && r.s.res.Started >= r.opts.MaxJobs && stopping == "":
		return SearchBudget
	}
	return stopping
}

// startJobs starts jobs and expansions while slots are free and nothing
// stops them, and returns what stops them now. Starting one changes no
// number (virtual equivalence), so the next selection needs no
// evaluation.
func (r *jobRun[K]) startJobs(stopping SearchStatus) (SearchStatus, error) {
	s, opts := r.s, r.opts
	for stopping == "" && len(s.inflight) < opts.Jobs && (opts.MaxJobs == 0 || s.res.Started < opts.MaxJobs) {
		// (The first job or expansion starts whatever the clock: the time
		// limit cancels it at once if the first evaluation took it all.)
		if r.overTime() && s.res.Started+s.res.Expanded+len(s.inflight) > 0 {
			return SearchBudget, nil
		}
		k, work, path, finishing, ok, err := s.selectNode(r.ectx)
		if err != nil {
			return stopping, err
		}
		if !ok {
			break
		}
		if finishing {
			s.res.Finishing++
		}
		s.begin(k, work, path)
		jctx := r.stamped()
		if work == JobExpand {
			go func(k K) {
				n, err := r.tree.Expand(jctx, k)
				r.done <- jobDone[K]{k: k, expand: true, added: n, err: err}
			}(k)
			continue
		}
		s.res.Started++
		go func(k K) {
			apply, err := r.tree.Run(jctx, k)
			r.done <- jobDone[K]{k: k, apply: apply, err: err}
		}(k)
	}
	return stopping, nil
}

// finished takes in the job or expansion d that ended. A cancelled one
// stops the search; the error of a failed one ends it.
func (r *jobRun[K]) finished(d jobDone[K], stopping SearchStatus) (SearchStatus, error) {
	s := r.s
	fl := s.inflight[d.k]
	delete(s.inflight, d.k)
	if d.err != nil {
		if r.ctx.Err() != nil || errors.Is(d.err, context.Canceled) && r.jctx.Err() != nil {
			return SearchStopped, nil
		}
		return stopping, d.err
	}
	if d.expand {
		s.res.Expanded++
		if d.added == 0 {
			s.noMore[d.k] = true // whatever the tree says next
		}
	} else {
		if d.apply != nil {
			d.apply()
		}
		s.res.Jobs++
	}
	s.invalidate(d.k, fl.path)
	return stopping, nil
}

func newJobSearch[K comparable](tree JobTree[K], root K, limit, widen int) *jobSearch[K] {
	if limit <= 0 {
		limit = DefaultCacheNodes
	}
	return &jobSearch[K]{tree: tree, root: root, nodes: map[K]*jsNode[K]{}, limit: limit, inflight: map[K]*jsFlight[K]{},
		noMore: map[K]bool{}, widenBy: int64(max(widen, 1))}
}

// begin puts node k (reached by path) in flight: flagged, and counted at
// its present numbers, its expected outcome, until its job ends (virtual
// equivalence); for an expansion, its virtual child is.
func (s *jobSearch[K]) begin(k K, work JobWork, path []K) {
	s.begun++
	fl := &jsFlight[K]{expand: work == JobExpand, path: path}
	if n := s.nodes[k]; n != nil {
		fl.pn, fl.dn = n.pn, n.dn
		fl.vp = s.widen(n)
	}
	s.inflight[k] = fl
}

// invalidate marks k, the nodes on path (the selection path to k) and
// everything that reaches k through the cache (its cached ancestors)
// stale, so that the next evaluation looks at them again. The tree may
// have changed more than k (a stored verdict propagates), so every cached
// ancestor is.
func (s *jobSearch[K]) invalidate(k K, path []K) {
	parents := func(x K) []K {
		var out []K
		if n := s.nodes[x]; n != nil {
			out = append(out, n.parents...)
		}
		// The selection path: x's parent on it, held or not.
		if i := slices.Index(path, x); i > 0 {
			out = append(out, path[i-1])
		} else if x == k && len(path) > 0 {
			out = append(out, path[len(path)-1])
		}
		return out
	}
	stack := []K{k}
	seen := map[K]bool{}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if n := s.nodes[x]; n != nil {
			n.stale, n.clean = true, false
		}
		for _, p := range parents(x) {
			// The parent's numbers for x are out of date: x is
			// evaluated again, held or not.
			if pn := s.nodes[p]; pn != nil {
				for i, c := range pn.info.Children {
					if c == x && i < len(pn.kids) {
						pn.kids[i] = unknownKid
					}
				}
			}
			stack = append(stack, p)
		}
	}
}

// linkParent records that cached node p lists node c among its children.
func (s *jobSearch[K]) linkParent(c, p K) {
	if cn := s.nodes[c]; cn != nil && !slices.Contains(cn.parents, p) {
		cn.parents = append(cn.parents, p)
	}
}

// refresh marks the cached nodes used since the last refresh stale
// (JobOptions.Refresh): the search's working set is looked at again,
// the rest of the cache when a job below it ends or the selection reads
// it again.
func (s *jobSearch[K]) refresh() {
	for _, n := range s.nodes {
		if n.used > s.refreshed {
			n.stale, n.clean = true, false
		}
	}
	s.refreshed = s.clock
}

// evaluate computes the numbers of the root, looking again at the nodes
// not cached or stale.
func (s *jobSearch[K]) evaluate(ctx context.Context) error {
	k, err := s.eval(ctx, s.root)
	s.proved, s.open = k.proved, k.open
	return err
}

// hold returns node k read into the cache (looked at when it is not held,
// or held but stale).
func (s *jobSearch[K]) hold(ctx context.Context, k K) (*jsNode[K], error) {
	n := s.nodes[k]
	if n != nil && !n.stale {
		s.clock++
		n.used = s.clock
		return n, nil
	}
	info, err := s.tree.Look(ctx, k)
	if err != nil {
		return nil, err
	}
	if info.Work == JobExpand && s.noMore[k] {
		info.Work = JobNone
	}
	if n == nil {
		n = &jsNode[K]{}
		s.nodes[k] = n
		s.res.Nodes++
		s.res.MaxHeld = max(s.res.MaxHeld, len(s.nodes))
	} else if !slices.Equal(n.info.Children, info.Children) {
		// The children's numbers of the last evaluation, by child, for
		// the children the cache no longer holds.
		old := map[K]jsKid{}
		for i, c := range n.info.Children {
			old[c] = n.kids[i]
		}
		n.kids = make([]jsKid, len(info.Children))
		for i, c := range info.Children {
			if kn, ok := old[c]; ok {
				n.kids[i] = kn
			} else {
				n.kids[i] = unknownKid // evaluated below
			}
		}
	}
	n.info, n.stale, n.clean = info, false, false
	if len(n.kids) != len(info.Children) {
		n.kids = make([]jsKid, len(info.Children))
	}
	s.clock++
	n.used = s.clock
	return n, nil
}

// eval returns the numbers of node k, computing them when the cache does
// not hold them up to date. A child the cache dropped counts with the
// numbers its parent kept, unless the parent's children changed.
func (s *jobSearch[K]) eval(ctx context.Context, k K) (jsKid, error) {
	if n := s.nodes[k]; n != nil && n.clean {
		s.clock++
		n.used = s.clock
		return jsKid{n.pn, n.dn, n.proved, n.open}, nil
	}
	fresh := s.nodes[k] == nil
	n, err := s.hold(ctx, k)
	if err != nil {
		return jsKid{}, err
	}
	n.busy = true
	defer func() { n.busy = false }()
	info := n.info
	out := func(pn, dn int64, proved, open int) (jsKid, error) {
		n.pn, n.dn, n.proved, n.open, n.clean = pn, dn, proved, open, true
		// Used after its children: the cache drops them before it.
		s.clock++
		n.used = s.clock
		s.evict()
		return jsKid{pn, dn, proved, open}, nil
	}
	switch info.Result {
	case JobProved:
		return out(0, jobInf, 1, 0)
	case JobFailed:
		return out(jobInf, 0, 0, 0)
	case JobExcluded:
		return out(1, 1, 0, 0)
	}
	fl := s.inflight[k]
	again := info.Work == JobRun && !info.OR && len(info.Children) > 0 // a job to run again
	if !again && (info.Work == JobRun || len(info.Children) == 0) {
		pn, dn := info.frontier()
		pn = info.plusAfter(pn)
		if fl != nil && (info.Work == JobRun || fl.expand && info.Work == JobExpand) {
			pn, dn = fl.pn, fl.dn // in flight: its expected outcome
		}
		open := 0
		if info.Work != JobNone {
			open = 1
		}
		return out(pn, dn, 0, open)
	}
	var sum, mn int64 = 0, jobInf
	proved, open := 0, 0
	for i, c := range info.Children {
		var kn jsKid
		if cn := s.nodes[c]; cn != nil || fresh || n.kids[i].pn < 0 {
			if kn, err = s.eval(ctx, c); err != nil {
				n.clean = false
				return jsKid{}, err
			}
			n.kids[i] = kn
			s.linkParent(c, k)
		} else {
			kn = n.kids[i] // dropped from the cache: as last evaluated
		}
		pn, dn := kn.pn, kn.dn
		proved += kn.proved
		open += kn.open
		if info.OR {
			pn, dn = dn, pn
		}
		// AND: sum the proof numbers, minimise the disproof numbers; OR
		// the other way round.
		sum = min(sum+pn, jobInf)
		mn = min(mn, dn)
	}
	pn, dn := sum, mn
	if info.OR {
		pn, dn = mn, sum
		if info.Work == JobExpand {
			// More candidate moves: a virtual child (progressive widening).
			vp := s.widen(n)
			if fl != nil && fl.expand {
				vp = fl.vp // in flight: as when the expansion started
			}
			pn, dn = min(mn, vp), min(sum+1, jobInf)
			if mn >= jobInf {
				open++ // every move failed: the node needs new ones
			}
		}
	}
	pn = info.plusAfter(pn)
	if again {
		open++
		if fl != nil {
			pn, dn = fl.pn, fl.dn // in flight: its expected outcome
		}
	}
	if pn == 0 {
		proved++
	}
	return out(pn, dn, proved, open)
}

// evict drops the least recently used nodes when the cache holds more than
// its bound, down to three quarters of it: never the root, a node on the
// stack of the evaluation or the selection, or one on the path of a job in
// flight. A node is used after its children (evaluation) and on every
// selection through it, so the nodes far from the search's recent paths
// go first.
func (s *jobSearch[K]) evict() {
	if len(s.nodes) <= s.limit {
		return
	}
	keep := map[K]bool{s.root: true}
	for k, fl := range s.inflight {
		keep[k] = true
		for _, p := range fl.path {
			keep[p] = true
		}
	}
	type aged struct {
		k    K
		used uint64
	}
	var old []aged
	for k, n := range s.nodes {
		if !keep[k] && !n.busy {
			old = append(old, aged{k, n.used})
		}
	}
	sort.Slice(old, func(i, j int) bool { return old[i].used < old[j].used })
	drop := len(s.nodes) - s.limit*3/4
	for _, a := range old[:min(drop, len(old))] {
		delete(s.nodes, a.k)
	}
}

// selectNode descends from the root to the most-proving node with work that
// is not flagged (in flight, or with nothing selectable below), and
// returns it with its path from the root (the root first, the node not
// included). The numbers it compares count in-flight nodes at their
// expected values (virtual equivalence), so starting a job changes no
// number and the search needs no evaluation between the jobs it starts
// at once. A node the cache dropped is read again when selection descends
// into it. On the finishing rule's turn (JobOptions.Finish) it descends
// from a near-closed node instead (finishing reports it), or from the
// root when there is none with work below it.
func (s *jobSearch[K]) selectNode(ctx context.Context) (K, JobWork, []K, bool, bool, error) {
	s.flagged = map[K]bool{}
	if s.finishBy > 0 && (s.begun+1)%s.finishBy == 0 {
		for _, c := range s.nearClosed() {
			path, ok := s.pathTo(c)
			if !ok {
				continue
			}
			k, w, path, ok, err := s.pick(ctx, c, path)
			if err != nil || ok {
				return k, w, path, ok, ok, err
			}
		}
	}
	k, w, path, ok, err := s.pick(ctx, s.root, nil)
	return k, w, path, false, ok, err
}

// nearClosed lists the held AND nodes with children (a frontier node's
// numbers are expectations, not what is left), the root aside, not in
// flight, with numbers up to date, unsettled and a proof number of at
// most FinishPN, best first: smallest proof number, then most nodes
// proved below, then most recently used. The finishing rule takes the
// first with a path from the root (pathTo) and work below it.
func (s *jobSearch[K]) nearClosed() []K {
	type cand struct {
		k K
		n *jsNode[K]
	}
	var cs []cand
	for k, n := range s.nodes {
		if k == s.root || n.info.OR || len(n.info.Children) == 0 || !n.clean || n.info.Result != JobUnsettled || n.pn <= 0 || n.pn > FinishPN || n.dn <= 0 {
			continue
		}
		if fl := s.inflight[k]; fl != nil {
			continue
		}
		cs = append(cs, cand{k, n})
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i].n, cs[j].n
		switch {
		case a.pn != b.pn:
			return a.pn < b.pn
		case a.proved != b.proved:
			return a.proved > b.proved
		}
		return a.used > b.used
	})
	out := make([]K, len(cs))
	for i, c := range cs {
		out[i] = c.k
	}
	return out
}

// pathTo returns a path from the root to held node k (the root first, k
// not included) through held, up-to-date, unsettled parents, none of them
// in flight (a path through a node whose job runs is no path: that node
// is worked on already); ok false when there is none, or k is no longer
// held.
func (s *jobSearch[K]) pathTo(k K) ([]K, bool) {
	var rev []K
	seen := map[K]bool{k: true}
	for x := k; x != s.root; {
		n := s.nodes[x]
		if n == nil {
			return nil, false
		}
		found := false
		for _, p := range n.parents {
			pn := s.nodes[p]
			if pn == nil || seen[p] || !pn.clean || pn.info.Result != JobUnsettled || pn.pn <= 0 || pn.dn <= 0 || !slices.Contains(pn.info.Children, x) {
				continue
			}
			if fl := s.inflight[p]; fl != nil && !fl.expand {
				continue
			}
			rev = append(rev, p)
			seen[p] = true
			x, found = p, true
			break
		}
		if !found {
			return nil, false
		}
	}
	slices.Reverse(rev)
	return rev, true
}

func (s *jobSearch[K]) pick(ctx context.Context, k K, path []K) (K, JobWork, []K, bool, error) {
	var zero K
	n := s.nodes[k]
	if n == nil || !n.clean {
		if _, err := s.eval(ctx, k); err != nil {
			return zero, JobNone, nil, false, err
		}
		n = s.nodes[k]
	}
	if len(path) > 0 {
		s.linkParent(k, path[len(path)-1])
	}
	s.clock++
	n.used = s.clock
	n.busy = true // the selection's path is not dropped under it
	defer func() { n.busy = false }()
	fl := s.inflight[k]
	if s.flagged[k] || fl != nil && !fl.expand || n.pn == 0 || n.dn == 0 || n.info.Result != JobUnsettled {
		return zero, JobNone, nil, false, nil
	}
	info := n.info
	if info.Work == JobRun {
		return k, JobRun, path, true, nil
	}
	vp := jobInf // the virtual child "more candidate moves"
	if info.OR && info.Work == JobExpand && fl == nil {
		vp = s.widen(n)
	}
	order := make([]int, len(info.Children))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := n.kids[order[i]], n.kids[order[j]]
		if info.OR {
			return a.pn < b.pn || a.pn == b.pn && a.dn > b.dn
		}
		return a.dn < b.dn || a.dn == b.dn && a.pn > b.pn
	})
	below := append(path[:len(path):len(path)], k)
	for _, i := range order {
		if vp < jobInf && n.kids[i].pn > vp {
			return k, JobExpand, path, true, nil
		}
		ck, w, cpath, ok, err := s.pick(ctx, info.Children[i], below)
		if err != nil || ok {
			return ck, w, cpath, ok, err
		}
	}
	if vp < jobInf {
		return k, JobExpand, path, true, nil
	}
	s.flagged[k] = true
	return zero, JobNone, nil, false, nil
}

// widen is the proof number of OR node n's virtual child "more candidate
// moves" (progressive widening): the number of its moves that have not
// failed times JobOptions.Widen, at least 1. A node whose moves all failed
// asks for new ones at once; one with many open moves digs into the best
// of them before it widens, and widens when their proof numbers grow past
// that.
func (s *jobSearch[K]) widen(n *jsNode[K]) int64 {
	c := int64(0)
	for _, kn := range n.kids {
		if kn.pn < jobInf {
			c++
		}
	}
	return max(c*s.widenBy, 1)
}

func allFailed(kids []jsKid) bool {
	for _, kn := range kids {
		if kn.pn < jobInf {
			return false
		}
	}
	return true
}

// finish fills the result's numbers and frontier.
func (s *jobSearch[K]) finish(start time.Time) JobSearchResult[K] {
	s.res.Elapsed = time.Since(start)
	s.res.Proved, s.res.Open = s.proved, s.open
	s.res.Held = len(s.nodes)
	if n := s.nodes[s.root]; n != nil {
		s.res.PN, s.res.DN = n.pn, n.dn
	}
	// The frontier: open leaves reachable through unsettled nodes (those
	// the cache holds).
	var fr []JobFrontier[K]
	seen := map[K]bool{}
	var walk func(k K)
	walk = func(k K) {
		n := s.nodes[k]
		if n == nil || seen[k] || n.pn == 0 || n.dn == 0 {
			return
		}
		seen[k] = true
		switch {
		case n.info.Result == JobExcluded:
			fr = append(fr, JobFrontier[K]{k, n.pn, n.dn, FrontierExcluded})
			return
		case n.info.Work == JobRun || n.info.Work == JobExpand && (len(n.info.Children) == 0 || allFailed(n.kids)):
			fr = append(fr, JobFrontier[K]{k, n.pn, n.dn, FrontierOpen})
			return
		case len(n.info.Children) == 0:
			fr = append(fr, JobFrontier[K]{k, n.pn, n.dn, FrontierStuck})
			return
		}
		for _, c := range n.info.Children {
			walk(c)
		}
	}
	walk(s.root)
	sort.SliceStable(fr, func(i, j int) bool { return fr[i].PN < fr[j].PN })
	if len(fr) > 20 {
		fr = fr[:20]
	}
	s.res.Frontier = fr
	return s.res
}
