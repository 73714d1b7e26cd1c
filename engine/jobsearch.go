package engine

import (
	"context"
	"errors"
	"sort"
	"time"
)

// Job-level proof-number search (JL-PNS): a proof-number search whose leaf
// expansions are jobs (verifier calls) that run for seconds or minutes,
// several at once. It is one algorithm over a small tree interface, JobTree:
// the proof book's auto-pilot runs it over the stored positions.
//
// The numbers are the usual ones, computed by the search over the tree the
// JobTree shows it: an OR node (attacker to move) has pn = min, dn = sum of
// its children's; an AND node (defender to move) pn = sum, dn = min; a
// frontier node (work to do) is 1/1 or its expected numbers (below); a
// proved node 0/∞, a failed one ∞/0.
// An OR node that can get more candidate moves has one more, virtual,
// child whose proof number is the count of its moves not failed
// (progressive widening): new moves are asked for when none is left, or
// when the best move's proof number has grown past that count.
//
// Evaluation-based initialisation: a frontier node's numbers are the
// ones its JobNode expects (PN, DN, from an evaluation of the position),
// 1/1 when it says nothing.
//
// A job may be run again: an AND node with children whose JobNode says
// JobRun (the book's auto-pilot verifies a position again at a larger
// node budget) counts by its children like any AND node, and selection
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

// JobWork is what a node of a JobTree needs.
type JobWork int

// Kinds of work.
const (
	JobNone   JobWork = iota // nothing: the node's value follows from its children (or its Result)
	JobRun                   // a job (a verifier call): JobTree.Run, in a worker
	JobExpand                // new children (candidate moves): JobTree.Expand, on the search goroutine
)

// JobResult is a node's settled value as the tree knows it.
type JobResult int

// Node results.
const (
	JobUnsettled JobResult = iota
	JobProved              // proved (pn 0)
	JobFailed              // disproved, or a dead end for the search (pn ∞)
	JobHeld                // left to the expert: never selected (counts 1/1)
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
	// run again (the book's auto-pilot verifies a position again at a
	// larger node budget): it counts by its children, and selection
	// reaching it runs its job instead of descending.
	Work JobWork
	// PN and DN are a frontier node's expected numbers (evaluation-based
	// initialisation; 0: 1). They order the search only: a node is proved
	// or failed by its Result and its children, never by these.
	PN, DN int64
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

// JobTree is the tree a job-level proof-number search runs over. Look,
// Expand and the apply functions Run returns are called on the search's
// goroutine only; Run runs in a worker goroutine, several at once for
// different nodes, and must not change what Look reports until its apply
// function is called (a tree that stores results itself, like the proof
// book, may).
type JobTree[K comparable] interface {
	// Look reports node k. After a job or an expansion the search looks
	// again at the node and its ancestors on the selection path.
	Look(ctx context.Context, k K) (JobNode[K], error)
	// Expand adds children to OR node k (Work JobExpand); it returns how
	// many it added (0: no more candidates, the node has failed).
	Expand(ctx context.Context, k K) (int, error)
	// Run does node k's job (Work JobRun). apply, when not nil, is called
	// on the search's goroutine with the job's result.
	Run(ctx context.Context, k K) (apply func(), err error)
}

// JobOptions configure JobSearch.
type JobOptions struct {
	Jobs     int           // jobs at once (0: 1)
	MaxJobs  int           // jobs started at most (0: no limit)
	MaxTime  time.Duration // (0: no limit) the search stops starting jobs and cancels the ones in flight
	Interval time.Duration // progress reports at most this often besides one per finished job (0: 1 s)
	// Refresh drops the search's view of the tree this often (0: never),
	// so that changes made by others (an expert's moves, another prover's
	// verdicts) are seen; otherwise a node is looked at again only after a
	// job or an expansion below it.
	Refresh time.Duration
}

// JobProgress is reported while JobSearch runs.
type JobProgress[K comparable] struct {
	Jobs     int // jobs finished
	Expanded int // expansions (candidate batches)
	Proved   int // nodes of the tree proved (as the search last saw it)
	Open     int // frontier nodes with work left
	PN, DN   int64
	InFlight []K
	Elapsed  time.Duration
}

// JobFrontier is a node where work stopped: an open leaf with its numbers,
// a node left to the expert, or one in flight when the search stopped.
type JobFrontier[K comparable] struct {
	Key    K
	PN, DN int64
	Why    FrontierReason // FrontierOpen, FrontierHeld or FrontierStuck
}

// FrontierReason says why work stopped at a frontier node. Its bytes are
// what the CLI prints and its JSON writes.
type FrontierReason string

// Frontier reasons.
const (
	FrontierOpen  FrontierReason = "open"  // work left (a job to run, moves to add)
	FrontierHeld  FrontierReason = "held"  // left to the expert
	FrontierStuck FrontierReason = "stuck" // no work the search can do
	// FrontierRefused: the tree refused the node's job result (the book's
	// auto-pilot refuses a verdict whose certificate does not check); the
	// search itself never reports it.
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
	// (nothing left the search can select: every open leaf is left to the
	// expert or has no job) or "stopped" (ctx done).
	Status   SearchStatus
	PN, DN   int64
	Jobs     int // jobs finished (a cancelled one is not counted)
	Started  int
	Expanded int
	Nodes    int // distinct nodes looked at
	Proved   int // nodes proved, as the search last saw the tree
	Open     int // frontier nodes with work left, likewise
	Elapsed  time.Duration
	// Frontier lists the most-proving open leaves (at most 20), smallest
	// proof number first.
	Frontier []JobFrontier[K]
}

// jobInf is the infinite proof number of JobSearch.
const jobInf = int64(1) << 40

type jsNode[K comparable] struct {
	info   JobNode[K]
	pn, dn int64
	gen    int // evaluation pass of pn, dn
}

type jobSearch[K comparable] struct {
	tree     JobTree[K]
	root     K
	nodes    map[K]*jsNode[K]
	inflight map[K]bool
	// expect holds the numbers an in-flight node had when its job started
	// (virtual equivalence): it counts with them until the job ends.
	expect  map[K][2]int64
	gen     int
	flagged map[K]bool // selection pass: in flight, or nothing selectable below
	looked  map[K]bool // every node looked at
	noMore  map[K]bool // OR nodes whose Expand added nothing
	res     JobSearchResult[K]
	proved  int
	open    int
}

type jobDone[K comparable] struct {
	k     K
	apply func()
	err   error
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
	s := newJobSearch(tree, root)
	prog := startReporter(progress)
	defer prog.stop(ctx)

	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timeUp <-chan time.Time
	// xctx bounds the expansions, which run on this goroutine: at MaxTime
	// one in progress is cancelled (jobs are cancelled through jctx).
	xctx := ctx
	if opts.MaxTime > 0 {
		t := time.NewTimer(opts.MaxTime)
		defer t.Stop()
		timeUp = t.C
		var xcancel context.CancelFunc
		xctx, xcancel = context.WithDeadline(ctx, start.Add(opts.MaxTime))
		defer xcancel()
	}
	overTime := func() bool { return opts.MaxTime > 0 && time.Since(start) >= opts.MaxTime }
	done := make(chan jobDone[K], opts.Jobs)
	ticker := time.NewTicker(opts.Interval)
	defer ticker.Stop()
	report := func() {
		if !prog.active() {
			return
		}
		p := JobProgress[K]{Jobs: s.res.Jobs, Expanded: s.res.Expanded, Proved: s.proved, Open: s.open, Elapsed: time.Since(start)}
		if n := s.nodes[root]; n != nil {
			p.PN, p.DN = n.pn, n.dn
		}
		for k := range s.inflight {
			p.InFlight = append(p.InFlight, k)
		}
		prog.send(p)
	}
	// wait collects the jobs in flight (after a cancel: their errors are the
	// cancellation's and are dropped).
	wait := func() {
		for len(s.inflight) > 0 {
			d := <-done
			delete(s.inflight, d.k)
			delete(s.expect, d.k)
		}
	}
	stopping := SearchStatus("") // why no new jobs start
	refreshed := start
	ectx := context.WithoutCancel(ctx) // reads of the tree while stopping
	for {
		if err := s.evaluate(ectx); err != nil {
			cancel()
			wait()
			return s.finish(start), err
		}
		rn := s.nodes[root]
		switch {
		case rn.pn == 0:
			stopping = SearchProved
		case rn.dn == 0:
			stopping = SearchDisproved
		case ctx.Err() != nil:
			stopping = SearchStopped
		case opts.MaxJobs > 0 && s.res.Started >= opts.MaxJobs && stopping == "":
			stopping = SearchBudget
		}
		// Start jobs while slots are free.
		// Expansions run here, one after another: the clock is read before
		// each, so that a run of them (an AND node's children asking for
		// candidates one by one) ends at MaxTime like the jobs do.
		for stopping == "" && len(s.inflight) < opts.Jobs && (opts.MaxJobs == 0 || s.res.Started < opts.MaxJobs) {
			if overTime() {
				stopping = SearchBudget
				break
			}
			k, work, ok := s.selectNode()
			if !ok {
				break
			}
			if work == JobExpand {
				n, err := tree.Expand(xctx, k)
				if err != nil && ctx.Err() == nil && xctx.Err() != nil {
					stopping = SearchBudget // the time limit cancelled it
					break
				}
				if err != nil {
					cancel()
					wait()
					return s.finish(start), err
				}
				s.res.Expanded++
				if n == 0 {
					s.noMore[k] = true // whatever the tree says next
				}
				s.invalidate(k)
				if err := s.evaluate(ectx); err != nil {
					cancel()
					wait()
					return s.finish(start), err
				}
				if rn := s.nodes[root]; rn.pn == 0 || rn.dn == 0 {
					break
				}
				continue
			}
			s.begin(k)
			s.res.Started++
			go func(k K) {
				apply, err := tree.Run(jctx, k)
				done <- jobDone[K]{k, apply, err}
			}(k)
		}
		if stopping == SearchBudget && len(s.inflight) > 0 && overTime() {
			cancel() // the time is up: the jobs in flight end too
			wait()
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
		report()
		select {
		case d := <-done:
			delete(s.inflight, d.k)
			delete(s.expect, d.k)
			if d.err != nil {
				if ctx.Err() != nil || errors.Is(d.err, context.Canceled) && jctx.Err() != nil {
					stopping = SearchStopped
					continue
				}
				cancel()
				wait()
				s.res.Status = SearchError
				return s.finish(start), d.err
			}
			if d.apply != nil {
				d.apply()
			}
			s.res.Jobs++
			s.invalidate(d.k)
		case <-timeUp:
			stopping = SearchBudget
			cancel()
			wait()
		case <-ctx.Done():
			stopping = SearchStopped
			cancel()
			wait()
		case <-ticker.C:
			if opts.Refresh > 0 && time.Since(refreshed) >= opts.Refresh {
				clear(s.nodes)
				refreshed = time.Now()
			}
		}
	}
	if err := s.evaluate(ectx); err != nil {
		return s.finish(start), err
	}
	s.res.Status = stopping
	report()
	res := s.finish(start)
	if stopping == SearchStopped {
		return res, ctx.Err()
	}
	return res, nil
}

func newJobSearch[K comparable](tree JobTree[K], root K) *jobSearch[K] {
	return &jobSearch[K]{tree: tree, root: root, nodes: map[K]*jsNode[K]{}, inflight: map[K]bool{}, expect: map[K][2]int64{},
		looked: map[K]bool{}, noMore: map[K]bool{}}
}

// begin puts node k in flight: flagged, and counted at its present
// numbers, its expected outcome, until its job ends (virtual equivalence).
func (s *jobSearch[K]) begin(k K) {
	s.inflight[k] = true
	if n := s.nodes[k]; n != nil {
		s.expect[k] = [2]int64{n.pn, n.dn}
	}
}

// invalidate drops the cached view of k and of everything that can reach
// it through the cache (its ancestors), so that the next evaluation looks
// at them again. The tree may have changed more than k (a stored verdict
// propagates), so every cached ancestor is dropped.
func (s *jobSearch[K]) invalidate(k K) {
	parents := map[K][]K{}
	for p, n := range s.nodes {
		for _, c := range n.info.Children {
			parents[c] = append(parents[c], p)
		}
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
		delete(s.nodes, x)
		stack = append(stack, parents[x]...)
	}
}

// evaluate computes the numbers of every node reachable from the root,
// looking at the nodes not cached.
func (s *jobSearch[K]) evaluate(ctx context.Context) error {
	s.gen++
	s.proved, s.open = 0, 0
	_, _, err := s.eval(ctx, s.root)
	return err
}

func (s *jobSearch[K]) eval(ctx context.Context, k K) (int64, int64, error) {
	n := s.nodes[k]
	if n != nil && n.gen == s.gen {
		return n.pn, n.dn, nil
	}
	if n == nil {
		info, err := s.tree.Look(ctx, k)
		if err != nil {
			return 0, 0, err
		}
		if info.Work == JobExpand && s.noMore[k] {
			info.Work = JobNone
		}
		n = &jsNode[K]{info: info}
		s.nodes[k] = n
		if !s.looked[k] {
			s.looked[k] = true
			s.res.Nodes++
		}
	}
	n.gen = s.gen
	info := n.info
	switch info.Result {
	case JobProved:
		n.pn, n.dn = 0, jobInf
		s.proved++
		return n.pn, n.dn, nil
	case JobFailed:
		n.pn, n.dn = jobInf, 0
		return n.pn, n.dn, nil
	case JobHeld:
		n.pn, n.dn = 1, 1
		return 1, 1, nil
	}
	again := info.Work == JobRun && !info.OR && len(info.Children) > 0 // a job to run again
	if !again && (info.Work == JobRun || len(info.Children) == 0) {
		n.pn, n.dn = info.frontier()
		if e, ok := s.expect[k]; ok && info.Work == JobRun {
			n.pn, n.dn = e[0], e[1] // in flight: its expected outcome
		}
		if info.Work != JobNone {
			s.open++
		}
		return n.pn, n.dn, nil
	}
	var sum, mn int64 = 0, jobInf
	for _, c := range info.Children {
		pn, dn, err := s.eval(ctx, c)
		if err != nil {
			return 0, 0, err
		}
		if info.OR {
			pn, dn = dn, pn
		}
		// AND: sum the proof numbers, minimise the disproof numbers; OR
		// the other way round.
		sum = min(sum+pn, jobInf)
		mn = min(mn, dn)
	}
	if info.OR {
		n.pn, n.dn = mn, sum
		if info.Work == JobExpand {
			// More candidate moves: a virtual child (progressive widening).
			vp := s.widen(info.Children)
			n.pn, n.dn = min(mn, vp), min(sum+1, jobInf)
			if mn >= jobInf {
				s.open++ // every move failed: the node needs new ones
			}
		}
	} else {
		n.pn, n.dn = sum, mn
		if again {
			s.open++
			if e, ok := s.expect[k]; ok {
				n.pn, n.dn = e[0], e[1] // in flight: its expected outcome
			}
		}
	}
	if n.pn == 0 {
		s.proved++
	}
	return n.pn, n.dn, nil
}

// selectNode descends from the root to the most-proving node with work that
// is not flagged (in flight, or with nothing selectable below). The
// numbers it compares count in-flight nodes at their expected values
// (virtual equivalence), so starting a job changes no number and the
// search needs no evaluation between the jobs it starts at once.
func (s *jobSearch[K]) selectNode() (K, JobWork, bool) {
	s.flagged = map[K]bool{}
	return s.pick(s.root)
}

func (s *jobSearch[K]) pick(k K) (K, JobWork, bool) {
	var zero K
	n := s.nodes[k]
	if n == nil || s.flagged[k] || s.inflight[k] || n.pn == 0 || n.dn == 0 || n.info.Result != JobUnsettled {
		return zero, JobNone, false
	}
	info := n.info
	if info.Work == JobRun {
		return k, JobRun, true
	}
	vp := jobInf // the virtual child "more candidate moves"
	if info.OR && info.Work == JobExpand {
		vp = s.widen(info.Children)
	}
	kids := append([]K(nil), info.Children...)
	sort.SliceStable(kids, func(i, j int) bool {
		a, b := s.nodes[kids[i]], s.nodes[kids[j]]
		if info.OR {
			return a.pn < b.pn || a.pn == b.pn && a.dn > b.dn
		}
		return a.dn < b.dn || a.dn == b.dn && a.pn > b.pn
	})
	for _, c := range kids {
		if vp < jobInf && s.nodes[c].pn > vp {
			return k, JobExpand, true
		}
		if ck, w, ok := s.pick(c); ok {
			return ck, w, true
		}
	}
	if vp < jobInf {
		return k, JobExpand, true
	}
	s.flagged[k] = true
	return zero, JobNone, false
}

// widen is the proof number of an OR node's virtual child "more candidate
// moves" (progressive widening): the number of its moves that have not
// failed, at least 1. A node whose moves all failed asks for new ones at
// once; one with many open moves digs into the best of them before it
// widens, and widens when their proof numbers grow past the count.
func (s *jobSearch[K]) widen(kids []K) int64 {
	n := int64(0)
	for _, c := range kids {
		if cn := s.nodes[c]; cn == nil || cn.pn < jobInf {
			n++
		}
	}
	return max(n, 1)
}

func (s *jobSearch[K]) allFailed(kids []K) bool {
	for _, c := range kids {
		if n := s.nodes[c]; n == nil || n.pn < jobInf {
			return false
		}
	}
	return true
}

// finish fills the result's numbers and frontier.
func (s *jobSearch[K]) finish(start time.Time) JobSearchResult[K] {
	s.res.Elapsed = time.Since(start)
	s.res.Proved, s.res.Open = s.proved, s.open
	if n := s.nodes[s.root]; n != nil {
		s.res.PN, s.res.DN = n.pn, n.dn
	}
	// The frontier: open leaves reachable through unsettled nodes.
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
		case n.info.Result == JobHeld:
			fr = append(fr, JobFrontier[K]{k, n.pn, n.dn, FrontierHeld})
			return
		case n.info.Work == JobRun || n.info.Work == JobExpand && (len(n.info.Children) == 0 || s.allFailed(n.info.Children)):
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
