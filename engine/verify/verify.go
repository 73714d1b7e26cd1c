package verify

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/internal/latest"
)

// EngineVersion names the prover build; stored with every verdict.
const EngineVersion = "c6book-engine/0.2"

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// Lambda is 2 (the null move must be refuted by VCDT; a seminull move
	// the solvers cannot refute leaves all of its full moves to be solved
	// one by one) or 3 (VCST may refute the null move, and a seminull move
	// the solvers cannot refute becomes an open item of its own). Zero
	// means 2.
	Lambda int
	// Limits bound each solver call.
	Limits threat.Limits
	// Workers run independent solver calls in parallel (0: all cores). The
	// verdict does not depend on it (except through Limits.Timeout).
	Workers int
	// Gate, when not nil, is shared with other verifications running at
	// once: each solver call takes one of its slots first, the calls of
	// the lowest Priority first (see Gate). Neither changes the verdict.
	Gate     *Gate
	Priority int64
	// Free is the free-stone policy of the solvers.
	Free board.FreePolicy
	// ExpandSeminull (λ3 only): a seminull move s the solvers cannot refute
	// is not returned as an open item; every full move (s, s') is solved
	// one by one instead, as in λ2 (for a caller that needs plain
	// positions to work on; the book's auto-pilot stores seminull items
	// as positions instead and leaves it off).
	ExpandSeminull bool
	// SeminullItemFrom (λ3 at tolerance 0, without ExpandSeminull; 0:
	// never): a seminull stone s the solvers refuted, whose full moves
	// (s, s') leave this many unsolved or more, becomes an open seminull
	// item instead, and none of the moves containing s is listed (see
	// seminullItems). The book then proves the seminull position D+s once
	// and its full moves through one family job, instead of working on
	// each unsolved move from scratch. Such an item makes the verdict's
	// order 3 like any open item (proofcheck cannot tell it from a stone
	// the solvers could not refute), though the verifier refuted s.
	SeminullItemFrom int
	// Tolerance is the number of extra defender stones the verdict's zone
	// must tolerate: the position's defender stone deficit (0 for a
	// position reached by full turns, 1 below a seminull move, p below a
	// null move). Every solver call runs with it added to its own: p+t for
	// the null move, 1+t for a seminull move, t for a full move.
	Tolerance int
	// trace, a test hook, sees every solver call.
	trace *verifyTrace
	// solveOpenSeminullMoves (tests): solve the full moves that contain
	// an open seminull stone too, as the verifier did before (their
	// failures listed in Unsolved, their wins in Covered).
	solveOpenSeminullMoves bool
	// noSymmetry (tests): solve every defender move, also those that a
	// symmetry of the position maps onto one solved already.
	noSymmetry bool
}

// verifyTrace is a test hook on Verify's solver calls: start (when set) is
// called before a job's search and returns the search's keyHook; done after
// it. Both are called from the workers, concurrently.
type verifyTrace struct {
	start func(def game.Move, tol int) (func(key uint64), func(b *board.Board))
	done  func(def game.Move, tol int, res threat.Result)
}

// VerifyPhase is the part of its work the verifier is in.
type VerifyPhase string

// Verifier phases.
const (
	PhaseNull     VerifyPhase = "null"     // the null move
	PhaseSeminull VerifyPhase = "seminull" // the seminull moves (one defender stone)
	PhaseMoves    VerifyPhase = "moves"    // the full defender moves, one by one
)

// VerifyProgress is reported while verifying.
type VerifyProgress struct {
	Phase    VerifyPhase
	Done     int // jobs (defender moves) finished
	Total    int // jobs known so far
	Calls    int // solver calls so far
	Nodes    int64
	Unsolved int // defender moves found unsolved so far
	Elapsed  time.Duration
}

// VerdictStatus is a Verdict's status: StatusProved or StatusOpen. Its
// bytes travel in the job queue's verdict encoding.
type VerdictStatus string

// Verdict statuses.
const (
	StatusProved VerdictStatus = "proved"
	StatusOpen   VerdictStatus = "open"
)

// UnsolvedMove is a defender move the solvers could not refute.
type UnsolvedMove struct {
	Move   game.Move
	Reason threat.UnsolvedReason // ReasonBudget, ReasonExhausted, ReasonLoss or ReasonCancelled
}

// CoveredMove is a full defender move the verifier refuted one by one, with
// the winning line (the attacker's answer first) and the whole strategy.
type CoveredMove struct {
	Move game.Move
	Mode threat.Mode
	Line []game.Move
	Tree *threat.Strategy
}

// SeminullZone is the zone of a refuted seminull move s: every defender
// move (s, s') with s' outside Zone is refuted by Tree (attacker to move
// after the defender's stones); the moves with s' inside Zone are refuted
// one by one (Covered) or listed unsolved.
type SeminullZone struct {
	Stone game.Square
	Zone  []game.Square
	Mode  threat.Mode
	Line  []game.Move
	Tree  *threat.Strategy
}

// Verdict is the result of Verify on a position with the defender to move.
//
// Every defender move is accounted for, by exactly the first of these that
// applies (see Verdict.Argument):
//   - AllUnsolved: nothing is refuted;
//   - the move leaves an attacker threat window unblocked (Threats > 0):
//     the attacker makes k in a row at once;
//   - it is listed in Unsolved, or contains the stone of an OpenSeminull item;
//   - it is in Covered (refuted one by one);
//   - it contains the stone s of a SeminullZones entry and its other stone
//     is outside that zone: refuted by that seminull strategy;
//   - none of its stones is in NullZone: refuted by the null-move strategy.
type Verdict struct {
	Status VerdictStatus // StatusProved or StatusOpen
	// Order is the λ order of the verdict's argument: 1 when the attacker
	// wins by double threats alone (more than p threats, or p threats and
	// every critical defence refuted by a VCDT); 2 when it needs single
	// threats (1..p-1 threats) or the null move is refuted by a VCDT; 3
	// when the null move needs a VCST or a seminull item is left open (it
	// is proved one order lower). An open verdict keeps the order of what
	// it refuted (its items may raise it); 0 when nothing is refuted.
	Order    int
	Lambda   int // the mode asked for (2 or 3)
	Attacker game.Color
	Threats  int // attacker threats in the verified position (p+1: unstoppable)
	// Tolerance is VerifyOptions.Tolerance: the extra defender stones the
	// zone tolerates.
	Tolerance int
	// Zone is the verdict's relevance zone at Tolerance: the attacker's
	// threat windows, the defender's windows that Tolerance+p stones could
	// fill, and the zones of the null, seminull and covered strategies.
	// With the zones of the items' proofs (Unsolved, OpenSeminull) it bounds
	// where extra defender stones may matter. Empty when AllUnsolved.
	Zone []game.Square
	// Unsolved lists every defender move (deduplicated, sorted) the
	// solvers could not refute, with the reason. A move containing the
	// stone of an OpenSeminull item is not solved, and so never listed
	// here or in Covered: the item stands for it.
	Unsolved []UnsolvedMove
	// AllUnsolved is set when no zone bounds the defence (the null move is
	// not refuted, or the defender wins at once): every move is open.
	AllUnsolved bool
	// OpenSeminull (λ3) lists one-stone defender moves s the solvers could
	// not refute: every defender move containing s is open, and the expert
	// proposes the attacker's answer to the seminull position.
	OpenSeminull []UnsolvedMove
	// The zone argument.
	NullZone      []game.Square
	NullMode      threat.Mode
	NullLine      []game.Move
	NullTree      *threat.Strategy
	SeminullZones []SeminullZone
	Covered       []CoveredMove
	Calls         int // solver calls
	Jobs          int // positions handed to the solvers
	Nodes         int64
	Elapsed       time.Duration
	Engine        string
	Note          string
}

// Argument kinds returned by Verdict.Argument.
const (
	ArgAllOpen      = "all-open"
	ArgImmediate    = "immediate"
	ArgUnsolved     = "unsolved"
	ArgOpenSeminull = "open-seminull"
	ArgExplicit     = "explicit"
	ArgSeminull     = "seminull"
	ArgNull         = "null"
	ArgTrivial      = "unstoppable" // the attacker has more than p threats
)

// Argument says how the verdict accounts for defender move dm played on b
// (the verified position): one of the Arg* kinds and, for the refuting
// kinds, the attacker's strategy after dm. The result "" means the verdict
// does not account for dm, which would be a bug.
func (vd *Verdict) Argument(b *board.Board, dm game.Move) (kind string, st *threat.Strategy) {
	if vd.AllUnsolved {
		return ArgAllOpen, nil
	}
	nb := b.Clone()
	for i := 0; i < dm.Len(); i++ {
		nb.Place(dm.At(i), vd.Attacker.Opp())
	}
	if nb.HasThreat(vd.Attacker) {
		if vd.Threats > b.Rules().P {
			return ArgTrivial, nil
		}
		return ArgImmediate, nil
	}
	for _, u := range vd.Unsolved {
		if u.Move == dm {
			return ArgUnsolved, nil
		}
	}
	for _, u := range vd.OpenSeminull {
		if dm.Contains(u.Move.At(0)) {
			return ArgOpenSeminull, nil
		}
	}
	for i := range vd.Covered {
		if vd.Covered[i].Move == dm {
			return ArgExplicit, vd.Covered[i].Tree
		}
	}
	for i := range vd.SeminullZones {
		sz := &vd.SeminullZones[i]
		if !dm.Contains(sz.Stone) {
			continue
		}
		if dm.Len() == 1 {
			return ArgSeminull, sz.Tree
		}
		other := dm.At(0)
		if other == sz.Stone {
			other = dm.At(1)
		}
		if !squareIn(sz.Zone, other) {
			return ArgSeminull, sz.Tree
		}
	}
	if vd.NullTree != nil {
		inside := false
		for i := 0; i < dm.Len(); i++ {
			inside = inside || squareIn(vd.NullZone, dm.At(i))
		}
		if !inside {
			return ArgNull, vd.NullTree
		}
	}
	return "", nil
}

func squareIn(sq []game.Square, s game.Square) bool {
	for _, x := range sq {
		if x == s {
			return true
		}
	}
	return false
}

// Verify tries to prove that the attacker (the player who just moved) wins
// position b, where the defender is to move, by Wu & Lin's relevance-zone-
// oriented proof search, and returns every defender move it could not
// refute. progress, when not nil, is called from a separate goroutine with
// reports that are dropped rather than slowing the search, one call at a
// time; unless ctx is done, it is never called after Verify returns (a
// cancelled Verify returns even if the callback is stuck). Cancelling ctx
// stops the solvers; Verify then returns the context's error.
//
// The search runs in the position's canonical frame (CanonicalKey's
// symmetry) and the verdict is mapped back, so every orientation of a
// position gets the same verdict up to symmetry.
//
// Defender moves that a symmetry of the position (a board symmetry mapping
// every stone onto a stone of its colour) maps onto each other need one
// solver call: the first in the verifier's order is solved, and the result
// of each image is the solved one mapped by the symmetry (its strategy,
// line and zone), which is a winning strategy there because the position
// is the same. The verdict carries the mapped strategies like any other,
// so its certificate is checked move by move as before.
func Verify(ctx context.Context, b *board.Board, opts VerifyOptions, progress func(VerifyProgress)) (Verdict, error) {
	cb, sym := b.Canonical()
	vd, err := verifyFrame(ctx, cb, opts, progress)
	if sym == 0 {
		return vd, err
	}
	return vd.Transform(b.Rules(), game.InverseSymmetry(sym)), err
}

// verifyFrame is Verify in b's own frame.
func verifyFrame(ctx context.Context, b *board.Board, opts VerifyOptions, progress func(VerifyProgress)) (Verdict, error) {
	if b.Rules().P > 2 {
		return Verdict{}, threat.ErrUnsupported
	}
	if opts.Lambda == 0 {
		opts.Lambda = 2
	}
	if opts.Lambda != 2 && opts.Lambda != 3 {
		return Verdict{}, fmt.Errorf("verify: lambda %d: want 2 or 3", opts.Lambda)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Tolerance < 0 || opts.Tolerance > 2*game.MaxPerTurn {
		return Verdict{}, fmt.Errorf("verify: tolerance %d out of range (0..%d)", opts.Tolerance, 2*game.MaxPerTurn)
	}
	if b.Winner() != game.Empty {
		return Verdict{}, fmt.Errorf("verify: the game is over (%s has won)", b.Winner())
	}
	v := &verifier{ctx: ctx, opts: opts, start: time.Now(), b: b.Clone()}
	v.d = b.ToMove()
	v.a = v.d.Opp()
	if !opts.noSymmetry {
		v.stab = v.b.Stabilizer()[1:]
	}
	v.verdict = Verdict{Attacker: v.a, Engine: EngineVersion, Lambda: opts.Lambda, Tolerance: opts.Tolerance}
	v.prog = latest.NewReporter(progress)
	defer v.prog.Stop(ctx)
	err := v.run()
	vd := &v.verdict
	vd.Elapsed = time.Since(v.start)
	vd.Nodes = v.nodes.Load()
	vd.Calls = int(v.calls.Load())
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		vd.Status = StatusOpen
		vd.Order = 0
		vd.Zone = nil
		return *vd, err
	}
	sort.Slice(vd.Unsolved, func(i, j int) bool { return game.MoveLess(vd.Unsolved[i].Move, vd.Unsolved[j].Move) })
	sort.Slice(vd.Covered, func(i, j int) bool { return game.MoveLess(vd.Covered[i].Move, vd.Covered[j].Move) })
	if len(vd.Unsolved) == 0 && !vd.AllUnsolved && len(vd.OpenSeminull) == 0 {
		vd.Status = StatusProved
	} else {
		vd.Status = StatusOpen
		if vd.AllUnsolved {
			vd.Order = 0
		}
	}
	v.report()
	return *vd, nil
}

type verifier struct {
	ctx      context.Context
	opts     VerifyOptions
	start    time.Time
	b        *board.Board
	stab     []int // the symmetries of b other than the identity (stabilizer)
	a, d     game.Color
	verdict  Verdict
	nodes    atomic.Int64
	calls    atomic.Int64
	done     atomic.Int64
	total    atomic.Int64
	unsolved atomic.Int64
	phase    atomic.Pointer[VerifyPhase]
	prog     *latest.Reporter[VerifyProgress]
}

// job is one position for the solvers: the defender stones added to the
// verified position (attacker to move after them) and the number of extra
// defender stones its zone must tolerate.
type job struct {
	def  game.Move
	tol  int
	vcst bool // allow VCST (else VCDT only)
	res  threat.Result
	mode threat.Mode
	err  error
	// src, when set, is the job this one is the image of under symmetry
	// sym of the position (def is src.def mapped by sym): its result is
	// src's mapped, without a solver call.
	src *job
	sym int
}

// orbits marks every job that a symmetry of the position maps onto an
// earlier job with the same search (tolerance and mode) as that job's
// image, and returns the others: the jobs to solve, in their order.
func (v *verifier) orbits(jobs []*job) []*job {
	if len(v.stab) == 0 {
		return jobs
	}
	type key struct {
		m    game.Move
		tol  int
		vcst bool
	}
	reps := make(map[key]*job, len(jobs))
	run := make([]*job, 0, len(jobs))
	for _, j := range jobs {
		for _, s := range v.stab {
			// s maps j onto src: j is src mapped by s's inverse.
			if src, ok := reps[key{v.b.Rules().TransformMove(s, j.def), j.tol, j.vcst}]; ok {
				j.src, j.sym = src, game.InverseSymmetry(s)
				break
			}
		}
		if j.src == nil {
			reps[key{j.def, j.tol, j.vcst}] = j
			run = append(run, j)
		}
	}
	return run
}

// derive sets the result of job j, the image of j.src under j.sym, from
// src's: the strategy, line and zone mapped; no nodes of its own.
func (v *verifier) derive(j *job) {
	r := v.b.Rules()
	res := j.src.res
	res.Move = r.TransformMove(j.sym, res.Move)
	res.Line = game.TransformLine(r, j.sym, res.Line)
	res.Tree = res.Tree.Transform(r, j.sym)
	res.Zone = game.TransformSquares(r, j.sym, res.Zone)
	res.Nodes, res.Evals, res.Elapsed = 0, 0, 0
	j.res, j.mode, j.err = res, j.src.mode, j.src.err
	if j.err != nil {
		j.err = fmt.Errorf("verify: after defender %s: %w", game.MoveName(r, j.def), errors.Unwrap(j.src.err))
	}
	v.countUnsolved(j)
}

func (v *verifier) report() {
	if !v.prog.Active() {
		return
	}
	var ph VerifyPhase
	if p := v.phase.Load(); p != nil {
		ph = *p
	}
	pr := VerifyProgress{Phase: ph, Done: int(v.done.Load()), Total: int(v.total.Load()), Calls: int(v.calls.Load()),
		Nodes: v.nodes.Load(), Unsolved: int(v.unsolved.Load()), Elapsed: time.Since(v.start)}
	v.prog.Send(pr)
}

// runJobs solves the jobs on the workers; each result lands in its job, so
// the order of the output never depends on the scheduling.
func (v *verifier) runJobs(phase VerifyPhase, jobs []*job) error {
	v.phase.Store(&phase)
	v.total.Add(int64(len(jobs)))
	v.verdict.Jobs += len(jobs)
	v.report()
	all := jobs
	jobs = v.orbits(all)
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := v.opts.Workers
	if workers > len(jobs) {
		workers = len(jobs)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) || v.ctx.Err() != nil {
					return
				}
				if g := v.opts.Gate; g != nil {
					if g.acquire(v.ctx, v.opts.Priority) != nil {
						return
					}
					v.solve(jobs[i])
					g.release()
				} else {
					v.solve(jobs[i])
				}
				v.done.Add(1)
				v.report()
			}
		}()
	}
	wg.Wait()
	if err := v.ctx.Err(); err != nil {
		return err
	}
	for _, j := range all {
		if j.src != nil {
			v.derive(j)
			v.done.Add(1)
		}
		if j.err != nil {
			return j.err
		}
	}
	v.report()
	return nil
}

// solve runs VCDT and, when allowed and VCDT fails, VCST on a job.
func (v *verifier) solve(j *job) {
	b := v.b.Clone()
	for i := 0; i < j.def.Len(); i++ {
		b.Place(j.def.At(i), v.d)
	}
	b.SetToMove(v.a)
	// VCST's first stage is a VCDT search with the whole budget, and its
	// later stages run only when that one has exhausted its threat space:
	// one VCST call gives the result of a VCDT call followed, on failure,
	// by a VCST call, without searching the double threats twice. A win
	// of that first stage reports mode VCDT, as the VCDT call did.
	m := threat.VCDT
	if j.vcst {
		m = threat.VCST
	}
	v.calls.Add(1)
	sp := threat.Params{Mode: m, Tolerance: j.tol, Limits: v.opts.Limits, Free: v.opts.Free}
	if tr := v.opts.trace; tr != nil && tr.start != nil {
		sp.KeyHook, sp.ExpandHook = tr.start(j.def, j.tol)
	}
	res, err := threat.Solve(v.ctx, b, sp)
	if tr := v.opts.trace; tr != nil && tr.done != nil {
		tr.done(j.def, j.tol, res)
	}
	if err != nil {
		err = fmt.Errorf("verify: after defender %s: %w", game.MoveName(b.Rules(), j.def), err)
	}
	v.nodes.Add(res.Nodes)
	if res.Outcome == threat.Win {
		m = res.Mode
	}
	j.res, j.mode, j.err = res, m, err
	v.countUnsolved(j)
}

// countUnsolved counts job j for the progress reports when it leaves a
// defender move unsolved.
func (v *verifier) countUnsolved(j *job) {
	if j.err != nil || j.res.Outcome == threat.Win {
		return
	}
	if j.def.Len() == v.b.Rules().P || j.tol == 0 {
		v.unsolved.Add(1)
	}
}

func (v *verifier) run() error {
	b := v.b
	p := b.Rules().P
	tol := v.opts.Tolerance
	vd := &v.verdict
	if b.HasThreat(v.d) {
		vd.AllUnsolved = true
		vd.Note = fmt.Sprintf("the defender makes %d in a row at once", b.Rules().K)
		return nil
	}
	t := b.Threats(v.a)
	vd.Threats = t
	if t > p {
		vd.Order = 1
		vd.Note = "the attacker's threats cannot all be blocked"
		vd.Zone = v.zone(nil)
		return nil
	}
	order := 1
	var full []game.Move // defender moves to refute one by one
	switch {
	case t == p:
		// Every defender move that does not hit all threat windows loses
		// at once; with t == p the ones that do are the normal critical
		// defences.
		normal, _ := b.CriticalDefences(v.a)
		full = normal
	case t >= 1:
		// Single threat (p = 2): a move must contain a normal critical
		// defence square s (seminull search at s, then (s, s') for s' in
		// the zone of s) or be a relaxed critical defence (two stones that
		// block together).
		normal, relaxed := b.CriticalDefences(v.a)
		var jobs []*job
		for _, m := range normal {
			jobs = append(jobs, &job{def: m, tol: 1 + tol, vcst: true})
		}
		if err := v.runJobs(PhaseSeminull, jobs); err != nil {
			return err
		}
		// Fewer than p threats: the defender keeps a free stone, so the
		// win needs single threats (λ2) whatever the solvers found.
		order = 2
		for _, j := range jobs {
			full = append(full, v.afterSeminull(j)...)
		}
		full = append(full, relaxed...)
	default:
		// No threat: the null move first.
		var ok bool
		var err error
		if full, order, ok, err = v.afterNullMove(); err != nil || !ok {
			return err
		}
	}
	jobs := v.fullMoveJobs(full)
	if err := v.runJobs(PhaseMoves, jobs); err != nil {
		return err
	}
	jobs = v.seminullItems(jobs)
	var covered [][]game.Square
	for _, j := range jobs {
		if j.res.Outcome == threat.Win {
			covered = append(covered, j.res.Zone)
			vd.Covered = append(vd.Covered, CoveredMove{Move: j.def, Mode: j.mode, Line: j.res.Line, Tree: j.res.Tree})
			if j.mode == threat.VCST && order < 2 {
				order = 2
			}
		} else {
			vd.Unsolved = append(vd.Unsolved, UnsolvedMove{Move: j.def, Reason: j.res.Reason})
		}
	}
	if len(vd.OpenSeminull) > 0 {
		order = 3 // an open seminull item is proved one order lower
	}
	vd.Order = order
	vd.Zone = v.zone(covered)
	return nil
}

// seminullItems applies VerifyOptions.SeminullItemFrom to the full-move
// jobs once they have run: while some refuted seminull stone s has that
// many unsolved moves containing it (not counting moves of stones made
// items already), the one with the most (the smallest square on a tie)
// becomes an open seminull item: its SeminullZones entry is dropped and
// the jobs of the moves containing it are left out of the verdict
// (neither covered nor unsolved: the item stands for them, as for an
// item the solvers could not refute). It returns the jobs that stay.
//
// The verdict says less than it could (the seminull strategy and the
// moves it covered are not kept), never more: a move containing s is
// answered only when the book proves D+s and the full moves in that
// proof's zone (proofcheck's coverage rule for open seminull stones).
func (v *verifier) seminullItems(jobs []*job) []*job {
	n, vd := v.opts.SeminullItemFrom, &v.verdict
	if n <= 0 || v.opts.Lambda != 3 || v.opts.ExpandSeminull || v.opts.Tolerance != 0 || len(vd.SeminullZones) == 0 {
		return jobs
	}
	refuted := make(map[game.Square]bool, len(vd.SeminullZones))
	for _, sz := range vd.SeminullZones {
		refuted[sz.Stone] = true
	}
	items := map[game.Square]threat.UnsolvedReason{}
	hasItem := func(m game.Move) bool {
		for i := 0; i < m.Len(); i++ {
			if _, ok := items[m.At(i)]; ok {
				return true
			}
		}
		return false
	}
	for {
		count := map[game.Square]int{}
		first := map[game.Square]threat.UnsolvedReason{}
		for _, j := range jobs {
			if j.res.Outcome == threat.Win || hasItem(j.def) {
				continue
			}
			for i := 0; i < j.def.Len(); i++ {
				if s := j.def.At(i); refuted[s] {
					if count[s] == 0 {
						first[s] = j.res.Reason
					}
					count[s]++
				}
			}
		}
		best, most := game.Square(0), 0
		for s, c := range count {
			if c > most || c == most && s < best {
				best, most = s, c
			}
		}
		if most < n {
			break
		}
		items[best] = first[best]
	}
	if len(items) == 0 {
		return jobs
	}
	stones := make([]game.Square, 0, len(items))
	for s := range items {
		stones = append(stones, s)
	}
	slices.Sort(stones)
	for _, s := range stones {
		vd.OpenSeminull = append(vd.OpenSeminull, UnsolvedMove{Move: game.NewMove(s), Reason: items[s]})
	}
	vd.SeminullZones = slices.DeleteFunc(vd.SeminullZones, func(sz SeminullZone) bool {
		_, ok := items[sz.Stone]
		return ok
	})
	return slices.DeleteFunc(jobs, func(j *job) bool { return hasItem(j.def) })
}

// afterNullMove verifies a position without attacker threats: the null
// move first (not refuted: ok false, the verdict says so), then the
// seminull moves in its zone (p >= 2). It returns the full defender moves
// left to refute one by one and the order the null move's win gives.
func (v *verifier) afterNullMove() (full []game.Move, order int, ok bool, err error) {
	b, vd := v.b, &v.verdict
	p, tol := b.Rules().P, v.opts.Tolerance
	nj := &job{def: game.Move{}, tol: p + tol, vcst: v.opts.Lambda == 3}
	if err := v.runJobs(PhaseNull, []*job{nj}); err != nil {
		return nil, 0, false, err
	}
	if nj.res.Outcome != threat.Win {
		vd.AllUnsolved = true
		vd.Note = fmt.Sprintf("the null move is not refuted (%s): not a λ%d move", nj.res.Reason, v.opts.Lambda)
		return nil, 0, false, nil
	}
	vd.NullZone = nj.res.Zone
	vd.NullMode = nj.mode
	vd.NullLine = nj.res.Line
	vd.NullTree = nj.res.Tree
	order = 2
	if nj.mode == threat.VCST {
		order = 3
	}
	var zone []game.Square
	for _, s := range nj.res.Zone {
		if b.At(s) == game.Empty {
			zone = append(zone, s)
		}
	}
	if p == 1 {
		// One stone a turn: the zone's squares are the defender's moves.
		for _, s := range zone {
			full = append(full, game.NewMove(s))
		}
		return full, order, true, nil
	}
	var jobs []*job
	for _, s := range zone {
		jobs = append(jobs, &job{def: game.NewMove(s), tol: 1 + tol, vcst: true})
	}
	if err := v.runJobs(PhaseSeminull, jobs); err != nil {
		return nil, 0, false, err
	}
	for _, j := range jobs {
		full = append(full, v.afterSeminull(j)...)
	}
	return full, order, true, nil
}

// fullMoveJobs are the jobs of the full defender moves, deduplicated, in a
// fixed order. A move (s, s') found in the zone of seminull s is left out
// when the seminull search at s' refuted it already (s outside the zone of
// s').
func (v *verifier) fullMoveJobs(full []game.Move) []*job {
	vd := &v.verdict
	semi := make(map[game.Square][]game.Square, len(vd.SeminullZones))
	for _, sz := range vd.SeminullZones {
		semi[sz.Stone] = sz.Zone
	}
	// A move containing the stone of an open seminull item (λ3) is not
	// solved either: the item already accounts for it (Argument, and the
	// checker's coverage rule), and the book needs such a move (s, x) only
	// once D+s is proved, for x inside that proof's zone. Most of these
	// calls fail at their budget (the defender's stone s already resisted
	// the seminull search); solving them cost most of an opening verify.
	openStone := make(map[game.Square]bool, len(vd.OpenSeminull))
	if !v.opts.solveOpenSeminullMoves {
		for _, u := range vd.OpenSeminull {
			openStone[u.Move.At(0)] = true
		}
	}
	seen := make(map[game.Move]bool)
	var jobs []*job
	for _, m := range full {
		if seen[m] {
			continue
		}
		seen[m] = true
		if openStone[m.At(0)] || (m.Len() == 2 && openStone[m.At(1)]) {
			continue
		}
		if m.Len() == 2 {
			if z, ok := semi[m.At(1)]; ok && !squareIn(z, m.At(0)) {
				continue
			}
			if z, ok := semi[m.At(0)]; ok && !squareIn(z, m.At(1)) {
				continue
			}
		}
		jobs = append(jobs, &job{def: m, tol: v.opts.Tolerance, vcst: true})
	}
	return jobs
}

// zone is the verdict's zone at its tolerance: the attacker's threat
// windows, the defender windows that p+tolerance stones could fill, and the
// zones of the null, seminull and covered strategies.
func (v *verifier) zone(covered [][]game.Square) []game.Square {
	b, vd := v.b, &v.verdict
	z := new(game.SqSet)
	b.AddThreatWindows(z, v.a)
	b.AddDefenderWindows(z, v.a, b.Rules().P+v.opts.Tolerance)
	add := func(list []game.Square) {
		for _, s := range list {
			z.Add(s)
		}
	}
	add(vd.NullZone)
	for _, sz := range vd.SeminullZones {
		add(sz.Zone)
	}
	for _, c := range covered {
		add(c)
	}
	return z.Squares()
}

// afterSeminull records a seminull job and returns the full defender moves
// it leaves to refute one by one: (s, s') for s' in its zone when it was
// refuted; when it was not, every (s, s') (λ2) or none, with an open
// seminull item (λ3).
func (v *verifier) afterSeminull(j *job) []game.Move {
	vd := &v.verdict
	s := j.def.At(0)
	var out []game.Move
	if j.res.Outcome == threat.Win {
		vd.SeminullZones = append(vd.SeminullZones, SeminullZone{Stone: s, Zone: j.res.Zone, Mode: j.mode, Line: j.res.Line, Tree: j.res.Tree})
		for _, s2 := range j.res.Zone {
			if s2 != s && v.b.At(s2) == game.Empty {
				out = append(out, game.NewMove(s, s2))
			}
		}
		return out
	}
	if v.opts.Lambda == 3 && !v.opts.ExpandSeminull {
		vd.OpenSeminull = append(vd.OpenSeminull, UnsolvedMove{Move: j.def, Reason: j.res.Reason})
		v.unsolved.Add(1)
		return nil
	}
	for s2 := range v.b.Rules().Squares() {
		c := v.b.At(game.Square(s2))
		if game.Square(s2) != s && c == game.Empty {
			out = append(out, game.NewMove(s, game.Square(s2)))
		}
	}
	return out
}
