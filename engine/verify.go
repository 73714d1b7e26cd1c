package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// EngineVersion names the prover build; stored with every verdict.
const EngineVersion = "c6book-engine/0.1"

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// Lambda is 2 (the null move must be refuted by VCDT) or 3 (VCST is
	// allowed for the null move and failed seminull positions become open
	// items of their own). Zero means 2.
	Lambda int
	// Limits bound each solver call.
	Limits Limits
	// Workers run independent solver calls in parallel (0: all cores).
	Workers int
	// Free is the free-stone policy of the solvers.
	Free FreePolicy
	// Progress, when set, receives reports from a separate goroutine; it
	// never slows the verification.
	Progress func(VerifyProgress)
}

// VerifyProgress is reported while verifying.
type VerifyProgress struct {
	Phase   string // "null", "seminull", "moves"
	Done    int    // solver calls finished
	Total   int    // solver calls known so far
	Nodes   int64
	Elapsed time.Duration
}

// Verdict statuses.
const (
	StatusProved = "proved"
	StatusOpen   = "open"
)

// UnsolvedMove is a defender move the solvers could not refute.
type UnsolvedMove struct {
	Move   Move
	Reason string // ReasonBudget, ReasonExhausted, ReasonLoss, ReasonCancelled
}

// CoveredMove is a defender reply the verifier refuted, with the winning
// line (the attacker's answer first).
type CoveredMove struct {
	Move     Move
	Seminull bool
	Mode     Mode
	Line     []Move
	Zone     []Square  // for seminull replies: the zone that covers (s, s')
	Tree     *Strategy // the attacker's full strategy from there
}

// SeminullZone is the zone of a refuted seminull reply s: every defender
// move (s, s') with s' outside Zone is refuted by the same strategy.
type SeminullZone struct {
	Stone Square
	Zone  []Square
	Tree  *Strategy
}

// Verdict is the result of Verify on a position with the defender to move.
type Verdict struct {
	Status   string // StatusProved or StatusOpen
	Order    int    // λ order proved (1, 2 or 3); 0 when open
	Attacker Color
	Threats  int // attacker threats in the verified position
	// Unsolved lists every defender move (deduplicated, sorted) that is not
	// refuted. AllUnsolved is set instead when the null move is not refuted:
	// then no zone bounds the defence and every move is open.
	Unsolved     []UnsolvedMove
	AllUnsolved  bool
	OpenSeminull []Move // λ3: seminull positions for the expert to answer
	// The zone argument: moves outside NullZone are refuted by the null
	// move's strategy; (s, s') with s' outside the zone of s by seminull s.
	NullZone      []Square
	NullMode      Mode
	NullLine      []Move
	NullTree      *Strategy
	SeminullZones []SeminullZone
	Covered       []CoveredMove
	Calls         int
	Nodes         int64
	Elapsed       time.Duration
	Engine        string
	Note          string
}

// Verify tries to prove that the attacker (the player who just moved) wins
// the position b, where the defender is to move, following Wu & Lin's
// relevance-zone-oriented proof search. It returns every defender move it
// could not refute.
func Verify(ctx context.Context, b *Board, opts VerifyOptions) (Verdict, error) {
	if b.rules.P > 2 {
		return Verdict{}, ErrUnsupported
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
	if b.Winner() != Empty {
		return Verdict{}, fmt.Errorf("verify: the game is over (%s has won)", b.Winner())
	}
	v := &verifier{ctx: ctx, opts: opts, start: time.Now(), b: b.Clone()}
	v.d = b.ToMove()
	v.a = v.d.Opp()
	v.verdict = Verdict{Attacker: v.a, Engine: EngineVersion}
	if opts.Progress != nil {
		v.prog = make(chan VerifyProgress, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for pr := range v.prog {
				opts.Progress(pr)
			}
		}()
		defer func() { close(v.prog); <-done }()
	}
	err := v.run()
	v.verdict.Elapsed = time.Since(v.start)
	v.verdict.Nodes = v.nodes.Load()
	if err != nil {
		return v.verdict, err
	}
	if ctx.Err() != nil {
		return v.verdict, ctx.Err()
	}
	vd := &v.verdict
	sort.Slice(vd.Unsolved, func(i, j int) bool { return moveLess(vd.Unsolved[i].Move, vd.Unsolved[j].Move) })
	sort.Slice(vd.Covered, func(i, j int) bool { return moveLess(vd.Covered[i].Move, vd.Covered[j].Move) })
	if len(vd.Unsolved) == 0 && !vd.AllUnsolved && len(vd.OpenSeminull) == 0 && vd.Status == "" {
		vd.Status = StatusProved
	}
	if vd.Status != StatusProved {
		vd.Status = StatusOpen
		vd.Order = 0
	}
	return *vd, nil
}

func moveLess(a, b Move) bool {
	if a.Len() != b.Len() {
		return a.Len() < b.Len()
	}
	for i := 0; i < a.Len(); i++ {
		if a.At(i) != b.At(i) {
			return a.At(i) < b.At(i)
		}
	}
	return false
}

type verifier struct {
	ctx     context.Context
	opts    VerifyOptions
	start   time.Time
	b       *Board
	a, d    Color
	verdict Verdict
	nodes   atomic.Int64
	done    atomic.Int64
	total   atomic.Int64
	phase   string
	prog    chan VerifyProgress
}

// job is one solver call: the defender stones added to the verified
// position (attacker to move after them) and the tolerance of its zone.
type job struct {
	def  Move
	tol  int
	vcst bool // allow VCST (else VCDT only)
	res  Result
	mode Mode
	err  error
}

func (v *verifier) report() {
	if v.prog == nil {
		return
	}
	pr := VerifyProgress{Phase: v.phase, Done: int(v.done.Load()), Total: int(v.total.Load()), Nodes: v.nodes.Load(), Elapsed: time.Since(v.start)}
	select {
	case v.prog <- pr:
	default:
	}
}

// runJobs solves the jobs in parallel; results land in the jobs (order kept).
func (v *verifier) runJobs(jobs []*job) {
	v.total.Add(int64(len(jobs)))
	v.report()
	next := atomic.Int64{}
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
				v.solve(jobs[i])
				v.done.Add(1)
				v.report()
			}
		}()
	}
	wg.Wait()
	v.verdict.Calls += len(jobs)
}

// solve runs VCDT and, when allowed and needed, VCST on a job.
func (v *verifier) solve(j *job) {
	b := v.b.Clone()
	for i := 0; i < j.def.Len(); i++ {
		b.Place(j.def.At(i), v.d)
	}
	b.SetToMove(v.a)
	modes := []Mode{VCDT}
	if j.vcst {
		modes = append(modes, VCST)
	}
	for _, m := range modes {
		res, err := Solve(v.ctx, b, Params{Mode: m, Tolerance: j.tol, Limits: v.opts.Limits, Free: v.opts.Free})
		if err != nil {
			err = fmt.Errorf("after defender %s: %w\n%s", MoveName(b.rules, j.def), err, dumpBoard(b))
		}
		v.nodes.Add(res.Nodes)
		j.res, j.mode, j.err = res, m, err
		if err != nil || res.Outcome == Win {
			return
		}
	}
}

func (v *verifier) run() error {
	b := v.b
	p := b.rules.P
	vd := &v.verdict
	if b.HasThreat(v.d) {
		vd.AllUnsolved = true
		vd.Note = "the defender makes k in a row at once"
		return nil
	}
	t := b.Threats(v.a)
	vd.Threats = t
	order := 1
	if t > p {
		vd.Order = 1
		vd.Status = StatusProved
		vd.Note = "the attacker's threats cannot all be blocked"
		return nil
	}
	var full []Move // defender moves to refute one by one
	switch {
	case t >= 1:
		normal, relaxed := b.CriticalDefences(v.a)
		if t == p {
			full = append(full, normal...)
		} else {
			// Single threat: seminull at each normal defence square.
			v.phase = "seminull"
			var jobs []*job
			for _, m := range normal {
				jobs = append(jobs, &job{def: m, tol: 1, vcst: true})
			}
			v.runJobs(jobs)
			for _, j := range jobs {
				if j.err != nil {
					return j.err
				}
				full = append(full, v.afterSeminull(j, v.opts.Lambda == 3)...)
			}
			full = append(full, relaxed...)
		}
	default:
		// No threat: the null move first.
		v.phase = "null"
		nj := &job{def: Move{}, tol: p, vcst: v.opts.Lambda == 3}
		v.runJobs([]*job{nj})
		if nj.err != nil {
			return nj.err
		}
		if nj.res.Outcome != Win {
			vd.AllUnsolved = true
			vd.Note = fmt.Sprintf("the null move is not refuted (%s): not a λ%d move", nj.res.Reason, v.opts.Lambda)
			return nil
		}
		vd.NullZone = nj.res.Zone
		vd.NullMode = nj.mode
		vd.NullLine = nj.res.Line
		vd.NullTree = nj.res.Tree
		if nj.mode == VCST {
			order = 3
		} else {
			order = 2
		}
		if p == 1 {
			// One stone a turn: the zone's squares are the defender's moves.
			for _, s := range nj.res.Zone {
				if b.cells[s] == Empty {
					full = append(full, NewMove(s))
				}
			}
			break
		}
		v.phase = "seminull"
		var jobs []*job
		for _, s := range nj.res.Zone {
			if b.cells[s] == Empty {
				jobs = append(jobs, &job{def: NewMove(s), tol: 1, vcst: true})
			}
		}
		v.runJobs(jobs)
		for _, j := range jobs {
			if j.err != nil {
				return j.err
			}
			full = append(full, v.afterSeminull(j, v.opts.Lambda == 3)...)
		}
	}
	// Full defender moves, deduplicated.
	seen := make(map[Move]bool)
	var jobs []*job
	for _, m := range full {
		if seen[m] {
			continue
		}
		seen[m] = true
		jobs = append(jobs, &job{def: m, tol: 0, vcst: true})
	}
	v.phase = "moves"
	v.runJobs(jobs)
	for _, j := range jobs {
		if j.err != nil {
			return j.err
		}
		if j.res.Outcome == Win {
			vd.Covered = append(vd.Covered, CoveredMove{Move: j.def, Mode: j.mode, Line: j.res.Line, Tree: j.res.Tree})
			if j.mode == VCST && order < 2 {
				order = 2
			}
		} else {
			vd.Unsolved = append(vd.Unsolved, UnsolvedMove{Move: j.def, Reason: j.res.Reason})
		}
	}
	vd.Order = order
	return nil
}

// afterSeminull records a seminull job and returns the full defender moves
// it leaves to refute: (s, s') for s' in its zone when it was refuted; every
// (s, s') when it was not (λ2), or none with an open seminull item (λ3).
func (v *verifier) afterSeminull(j *job, lambda3 bool) []Move {
	vd := &v.verdict
	s := j.def.At(0)
	var out []Move
	if j.res.Outcome == Win {
		vd.SeminullZones = append(vd.SeminullZones, SeminullZone{Stone: s, Zone: j.res.Zone, Tree: j.res.Tree})
		vd.Covered = append(vd.Covered, CoveredMove{Move: j.def, Seminull: true, Mode: j.mode, Line: j.res.Line, Zone: j.res.Zone, Tree: j.res.Tree})
		for _, s2 := range j.res.Zone {
			if s2 != s && v.b.cells[s2] == Empty {
				out = append(out, NewMove(s, s2))
			}
		}
		return out
	}
	if lambda3 {
		vd.OpenSeminull = append(vd.OpenSeminull, j.def)
		return nil
	}
	for s2, c := range v.b.cells {
		if Square(s2) != s && c == Empty {
			out = append(out, NewMove(s, Square(s2)))
		}
	}
	return out
}

// ErrNotDefenderToMove is returned by callers that need a verifiable position.
var ErrNotDefenderToMove = errors.New("verify: the position must have the defender to move")
