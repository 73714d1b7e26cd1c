package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/game"
	"c6book/engine/jobsearch"
	"c6book/proofbook"
	"c6book/service"
)

// BookProveCommand is c6 book prove: the auto-pilot (autopilot.Prove)
// below a position.
type BookProveCommand struct{ o proveOpts }

func (c *BookProveCommand) flags(fs *flag.FlagSet) {
	c.o.register(fs)
	fs.DurationVar(&c.o.maxTime, "time", 0, "stop after this long (0: no limit); jobs in flight are cancelled")
}

// register registers the auto-pilot's flags that prove and atlas share
// (all but the time limit, which each names its own way), with the
// defaults of service.ProveDefaults.
func (o *proveOpts) register(fs *flag.FlagSet) {
	d := service.ProveDefaults()
	fs.IntVar(&o.lambda, "lambda", d.Verify.Lambda, "verifier order: 2 or 3")
	fs.IntVar(&o.jobs, "jobs", d.Jobs, "verifier jobs at once, on different positions")
	fs.IntVar(&o.maxCalls, "max-calls", 0, "stop after this many verifier calls (0: no limit)")
	fs.Int64Var(&o.maxNodes, "max-nodes", d.Verify.MaxNodes, "nodes per solver call at most: the last budget of the schedule (see --first-nodes)")
	fs.Int64Var(&o.firstNodes, "first-nodes", 0, "nodes per solver call of a position's first verification, e.g. 25000; verified again when selected again while a move is unsolved for want of budget, at 4 times the budget, up to --max-nodes (0, the default: every call at --max-nodes)")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget of each solver call (0: none)")
	fs.IntVar(&o.workers, "workers", 0, "parallel solver calls inside each job (0: the cores shared among the jobs)")
	fs.IntVar(&o.candidates, "candidates", d.Candidates, "attacker moves added at a position at first (doubled when they all fail, up to 8 times as many)")
	fs.Int64Var(&o.playerNodes, "player-nodes", d.PlayerNodes, "node budget of the player choosing the attacker's moves at a position")
	fs.Float64Var(&o.gameLCB, "game-lcb", d.GameLCB, "an imported attacker move is tried before the player's when the lower confidence bound of the attacker's win rate in its games is at least this (0: every imported move; above 1: none)")
	fs.Float64Var(&o.gameZ, "game-z", d.GameZ, "the confidence of --game-lcb, in standard deviations (Wilson interval; 1.645: one-sided 95%)")
	fs.IntVar(&o.shapes, "shapes", d.Shapes, "shape moves (the triangles of Connect(6,2,3) and other compact shapes of the attacker's stones) mixed with the player's moves at a position (0: none)")
	fs.IntVar(&o.screen, "screen", d.Screen, "new attacker moves at a position verified at once at --screen-nodes (the screen: a move it proves is proved at once, the others are ordered by what they leave; 0: no screen)")
	fs.Int64Var(&o.screenNodes, "screen-nodes", d.ScreenNodes, "nodes per solver call of the screen")
	fs.Int64Var(&o.maxPlayerNodes, "max-player-nodes", d.MaxPlayerNodes, "the player's budget grows fourfold with each widening at a position up to this (0: 16 times --player-nodes)")
	fs.BoolVar(&o.noLearn, "no-learn", false, "do not learn the local shapes of attacker moves that proved, nor try candidates of those shapes first (for measurements)")
	fs.BoolVar(&o.postpone, "postpone", false, "at a position's first expansion, try the moves that proved a sibling and the shape moves before asking the player (off by default: on the position measured it made the proof longer)")
	fs.IntVar(&o.widen, "widen", d.Widen, "a position asks for new attacker moves when its best move's proof number exceeds this many times the moves it has that have not failed (1: widen soonest; more: dig deeper into the moves it has first)")
	fs.IntVar(&o.finish, "finish", d.Finish, fmt.Sprintf("every this many-th verifier job is spent below a near-closed position (a verdict with a proof number of at most %d) instead of the most-proving one (0: never)", jobsearch.FinishPN))
	fs.IntVar(&o.seminullItemFrom, "seminull-item-from", d.SeminullItemFrom, "λ3: a seminull stone the solvers refuted whose full moves leave this many unsolved or more is left as one open seminull item, proved once with its family of full moves; the verdict is then labelled order 3 though the stone was refuted (0: never)")
	fs.IntVar(&o.seminullWeight, "seminull-weight", d.SeminullWeight, "λ3: the proof number a seminull position (an open seminull item) counts beyond its own, for the full moves its proof will leave open; the run's family jobs replace it by their mean (0: none)")
	fs.DurationVar(&o.progressEvery, "progress-every", 0, "when standard error is not a terminal (a log file), write a progress line this often, e.g. 1m (0: none; a terminal shows the latest progress in place)")
	o.queue.register(fs)
}

// validate checks the flags before the book is opened.
func (c *BookProveCommand) validate(*bookEnv) error {
	if c.o.maxTime < 0 {
		return fmt.Errorf("--time %v: want a positive duration (0: no limit)", c.o.maxTime)
	}
	return c.o.validate()
}

// validate checks the auto-pilot's shared flags (register's).
func (o *proveOpts) validate() error {
	if o.progressEvery < 0 {
		return fmt.Errorf("--progress-every %v: want a positive duration (0: no progress lines off a terminal)", o.progressEvery)
	}
	if err := o.verifyLimits.Validate(); err != nil {
		return err
	}
	if err := o.queue.check(); err != nil {
		return err
	}
	return o.settings().Validate()
}

func (c *BookProveCommand) run(e *bookEnv) error { return bookProve(e, c.o) }

type proveOpts struct {
	verifyLimits // --lambda, --max-nodes, --timeout, --workers
	jobs         int
	maxTime      time.Duration
	maxCalls     int
	candidates   int
	firstNodes   int64 // autopilot.ProveOptions.FirstNodes
	// The player's options (autopilot.ProveOptions PlayerNodes, GameLCB,
	// GameZ).
	playerNodes int64
	gameLCB     float64
	gameZ       float64
	// The candidates' options (autopilot.ProveOptions Shapes, Screen,
	// ScreenNodes, MaxPlayerNodes).
	shapes           int
	screen           int
	screenNodes      int64
	maxPlayerNodes   int64
	noLearn          bool
	postpone         bool
	widen            int
	finish           int
	seminullItemFrom int
	seminullWeight   int
	// progressEvery: when stderr is not a terminal, a progress line this
	// often (0: none); on a terminal the line is redrawn in place.
	progressEvery time.Duration
	queue         proveQueueFlags
}

// settings are the auto-pilot's settings of the flags o.
func (o proveOpts) settings() service.ProveSettings {
	return service.ProveSettings{Verify: o.verifyLimits.settings(), Jobs: o.jobs, MaxTime: o.maxTime, MaxCalls: o.maxCalls,
		FirstNodes: o.firstNodes, Candidates: o.candidates, PlayerNodes: o.playerNodes, GameLCB: o.gameLCB, GameZ: o.gameZ,
		Shapes: o.shapes, Screen: o.screen, ScreenNodes: o.screenNodes, MaxPlayerNodes: o.maxPlayerNodes,
		NoLearn: o.noLearn, Postpone: o.postpone, Widen: o.widen, Finish: o.finish,
		SeminullItemFrom: o.seminullItemFrom, SeminullWeight: o.seminullWeight}
}

// settingsWith are the flags' settings with workers solver calls in each
// job.
func (o proveOpts) settingsWith(workers int) service.ProveSettings {
	ps := o.settings()
	ps.Verify.Workers = workers
	return ps
}

// options are the auto-pilot's options for the flags o, with workers
// solver calls in each job.
func (o proveOpts) options(a game.Color, workers int) autopilot.ProveOptions {
	return o.settingsWith(workers).Options(a)
}

func bookProve(e *bookEnv, o proveOpts) error {
	ctx, bk := e.ctx, e.bk
	id, b, _, err := e.f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	a, err := e.f.attackerFor(b)
	if err != nil {
		return err
	}
	if e.f.attacker == "" && b.Stones(game.Black)+b.Stones(game.White) == 0 {
		// Nobody has moved: the attacker is the side to move (Black), the
		// only side a first move can prove a win for.
		a = b.ToMove()
	}
	workers := o.settings().SolverWorkers()
	opts := o.options(a, workers)
	// Every verifier call goes through the queue: the embedded one beside
	// the book (opened by the first call) or --nats.
	pq := openProveQueue(o.queue, bk.Path(), o.jobs, workers, e.stderr)
	res, err := proveWith(e, pq, id, opts, "", o.progressEvery)
	qs := pq.close() // also on Ctrl-C: Prove has cancelled and waited for its jobs
	if err != nil && !errors.Is(err, ctx.Err()) {
		return err
	}
	// The summary is printed after Ctrl-C too: what is stored stays.
	rctx := context.WithoutCancel(ctx)
	fr := []frontierJSON{}
	for _, f := range res.Frontier {
		turns, lerr := bk.StableTurns(rctx, f.ID) // as search and open print a position
		if lerr != nil {
			return lerr
		}
		fr = append(fr, frontierJSON{int64(f.ID), game.FormatTurns(bk.Rules(), turns), f.PN, f.DN, frontierWhy(f.Why)})
	}
	perr := e.print(bookProveJSON{ID: int64(id), Attacker: a.String(), Result: string(res.Status),
		Status: res.Proof.Status.String(), Order: res.Proof.Order, PN: res.PN, DN: res.DN,
		Calls: res.Calls, Expansions: res.Expanded, Finishing: res.Finishing, Family: familyJSON{Jobs: res.FamilyJobs, Calls: res.FamilyCalls, Proved: res.FamilyProved},
		Learn: learnJSON{Shapes: res.Shapes, ShapesProved: res.ShapesProved, Promoted: res.Promoted, Postponed: res.Postponed}, Added: res.Added, Nodes: res.Nodes, Proved: res.Proved, ProvedDuringRun: res.Proved, BookProved: res.BookProved, SearchProved: res.SearchProved, Open: res.Open, Held: res.Held, MaxHeld: res.MaxHeld,
		Seconds: res.Elapsed.Seconds(), Schedule: scheduleJSONOf(res), Again: res.Again, Frontier: fr, Refused: refusedText(res), Queue: qs},
		func(w io.Writer) {
			fmt.Fprintf(w, "position %d for %s: %s (book status %s); %d verifier calls, %d positions added, %d proved during the run (%d in the book for %s), %d looked at (%d open), %s\n",
				id, a, res.Status, proofText(res.Proof), res.Calls, res.Added, res.Proved, res.BookProved, a, res.Nodes, res.Open, res.Elapsed.Round(time.Millisecond))
			fmt.Fprintf(w, "node budget per solver call: %s (%d verified again)\n", scheduleText(res), res.Again)
			if res.Finishing > 0 {
				fmt.Fprintf(w, "finishing rule: %d jobs below near-closed positions\n", res.Finishing)
			}
			if res.FamilyJobs > 0 {
				fmt.Fprintf(w, "seminull family jobs: %d (%d verifier calls, %d of them proved; each job counts as one call above)\n", res.FamilyJobs, res.FamilyCalls, res.FamilyProved)
			}
			if res.Shapes > 0 || res.Postponed > 0 {
				fmt.Fprintf(w, "learned shapes: %d (%d proved), %d candidates tried first for their shape; %d expansions tried sibling moves before the player\n", res.Shapes, res.ShapesProved, res.Promoted, res.Postponed)
			}
			if len(fr) > 0 {
				fmt.Fprintf(w, "open frontier (most-proving first):\n")
			}
			for _, f := range fr {
				what := "open"
				switch f.Why {
				case frontierWhy(jobsearch.FrontierExcluded):
					what = c6book.StuckHeld.Describe()
				case string(jobsearch.FrontierStuck):
					what = c6book.ProveStuck.Describe()
				case string(jobsearch.FrontierRefused):
					what = "verdict refused"
				}
				fmt.Fprintf(w, "  %8d  pn %-5s dn %-5s %-12s %s\n", f.ID, pnText(f.PN), pnText(f.DN), what, strings.TrimSpace(f.Turns))
			}
			for _, r := range refusedText(res) {
				fmt.Fprintln(w, "refused verdict:", r)
			}
			if qs.Where == "nats" || o.queue.listen != "" || qs.Rejected > 0 {
				fmt.Fprintf(w, "queue %s: %d workers (%d slots), %d jobs queued, %d running, %d done (%d in this run, %.2f jobs/s), %d results accepted, %d rejected and redone here\n",
					qs.URL, qs.Workers, qs.Slots, qs.Queued, qs.Running, qs.Done, qs.DoneHere, qs.Throughput, qs.Accepted, qs.Rejected)
			}
		})
	return perr // a stop (Ctrl-C) is not an error: the result says "stopped"
}

// proveWith runs the auto-pilot (autopilot.Prove) below position id
// with the queue pq, showing its progress on a terminal (label first); the
// one place the CLI proves, for prove and atlas.
func proveWith(e *bookEnv, pq *proveQueue, id proofbook.PosID, opts autopilot.ProveOptions, label string, every time.Duration) (autopilot.ProveResult, error) {
	var progress func(c6book.ProveProgress)
	line := func(p c6book.ProveProgress) string {
		return fmt.Sprintf("%s%s  calls %d  proved %d  open %d  added %d  held %d  pn %s  in flight %s%s",
			label, p.Elapsed.Round(time.Second), p.Calls, p.Proved, p.Open, p.Added, p.Held, pnText(p.PN), inFlightText(p), pq.line())
	}
	tty := isTerminalWriter(e.stderr)
	switch {
	case tty:
		progress = func(p c6book.ProveProgress) { fmt.Fprintf(e.stderr, "\r\033[K%s", line(p)) }
	case every > 0:
		// A log: a line at most every `every` (the reports come from one
		// goroutine, so next needs no lock).
		var next time.Duration
		progress = func(p c6book.ProveProgress) {
			if p.Elapsed < next {
				return
			}
			next = p.Elapsed + every
			fmt.Fprintln(e.stderr, line(p))
		}
	}
	res, err := autopilot.Prove(e.ctx, e.bk, id, pq.lazy, opts, progress)
	if tty {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	return res, err
}

// refusedText is the verdicts a prove run's store refused, one line each
// ("position 12: ..."), sorted as text.
func refusedText(res autopilot.ProveResult) []string {
	out := []string{}
	for _, r := range res.Refused {
		out = append(out, fmt.Sprintf("position %d: %s", r.ID, r.Err))
	}
	slices.Sort(out)
	return out
}

func pnText(n int64) string {
	if n >= c6book.Infinite {
		return "inf"
	}
	return fmt.Sprint(n)
}

// scheduleJSONOf is the node budgets of a prove run with its calls at each.
func scheduleJSONOf(res autopilot.ProveResult) []budgetJSON {
	out := []budgetJSON{}
	for i, b := range res.Budgets {
		out = append(out, budgetJSON{Nodes: b, Calls: res.CallsAt[i]})
	}
	return out
}

// scheduleText is the node budgets of a prove run with its calls at each,
// e.g. "25000 (12 calls), 100000 (3), 200000 (1)".
func scheduleText(res autopilot.ProveResult) string {
	var parts []string
	for i, b := range res.Budgets {
		unit := ""
		if i == 0 {
			unit = " calls"
		}
		parts = append(parts, fmt.Sprintf("%d (%d%s)", b, res.CallsAt[i], unit))
	}
	return strings.Join(parts, ", ")
}

// frontierWhy is the word the command line says for a frontier reason: a
// position the search excluded is one left to the expert ("held").
func frontierWhy(r jobsearch.FrontierReason) string {
	if r == jobsearch.FrontierExcluded {
		return "held"
	}
	return string(r)
}

// inFlightText lists the positions in flight, each with how far its
// verifier call is when it runs one: "[42 (moves 1200/3552, 12 unsolved)
// 44]".
func inFlightText(p c6book.ProveProgress) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, id := range p.InFlight {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprint(&sb, id)
		for _, w := range p.Working {
			if w.ID == id {
				fmt.Fprintf(&sb, " (%s)", w.Describe())
				break
			}
		}
	}
	sb.WriteByte(']')
	return sb.String()
}
