package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
)

// c6 book prove: the auto-pilot (proofbook.Prove) below a position.

type proveOpts struct {
	lambda     int
	jobs       int
	maxTime    time.Duration
	maxCalls   int
	maxNodes   int64
	timeout    time.Duration
	workers    int
	candidates int
	queue      proveQueueFlags
}

func proveFlags(fs *flag.FlagSet) bookRun {
	var o proveOpts
	fs.IntVar(&o.lambda, "lambda", 3, "verifier order: 2 or 3")
	fs.IntVar(&o.jobs, "jobs", 1, "verifier jobs at once, on different positions")
	fs.DurationVar(&o.maxTime, "time", 0, "stop after this long (0: no limit); jobs in flight are cancelled")
	fs.IntVar(&o.maxCalls, "max-calls", 0, "stop after this many verifier calls (0: no limit)")
	fs.Int64Var(&o.maxNodes, "max-nodes", 200000, "nodes per solver call")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget of each solver call (0: none)")
	fs.IntVar(&o.workers, "workers", 0, "parallel solver calls inside each job (0: the cores shared among the jobs)")
	fs.IntVar(&o.candidates, "candidates", 4, "attacker moves added at a position at first (doubled when they all fail, up to 8 times as many)")
	o.queue.register(fs)
	return bookRun{
		check: func(*bookEnv) error {
			if err := checkVerifyFlags(o.lambda, o.maxNodes, o.timeout, o.workers); err != nil {
				return err
			}
			if err := o.queue.check(); err != nil {
				return err
			}
			switch {
			case o.jobs < 1:
				return fmt.Errorf("--jobs %d: want 1 or more", o.jobs)
			case o.maxCalls < 0:
				return fmt.Errorf("--max-calls %d: want 0 (no limit) or more", o.maxCalls)
			case o.maxTime < 0:
				return fmt.Errorf("--time %v: want a positive duration (0: no limit)", o.maxTime)
			case o.candidates < 1:
				return fmt.Errorf("--candidates %d: want 1 or more", o.candidates)
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookProve(e, o) },
	}
}

type frontierJSON struct {
	ID    int64  `json:"id"`
	Turns string `json:"turns"`
	PN    int64  `json:"pn"`
	DN    int64  `json:"dn"`
	Why   string `json:"why"`
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
	if e.f.attacker == "" && b.Stones(engine.Black)+b.Stones(engine.White) == 0 {
		// Nobody has moved: the attacker is the side to move (Black), the
		// only side a first move can prove a win for.
		a = b.ToMove()
	}
	workers := o.workers
	if workers == 0 {
		workers = max(1, runtime.NumCPU()/o.jobs)
	}
	opts := proofbook.ProveOptions{Attacker: a, Jobs: o.jobs, MaxCalls: o.maxCalls, MaxTime: o.maxTime,
		Candidates: o.candidates, MaxCandidates: 8 * o.candidates,
		Verify: engine.VerifyOptions{Lambda: o.lambda, Workers: workers, Limits: engine.Limits{MaxNodes: o.maxNodes, Timeout: o.timeout}}}
	// Every verifier call goes through the queue: the embedded one beside
	// the book (opened by the first call) or --nats.
	pq := openProveQueue(o.queue, bk.Path(), o.jobs, workers, e.stderr)
	var progress func(c6book.ProveProgress)
	tty := isTerminalWriter(e.stderr)
	if tty {
		progress = func(p c6book.ProveProgress) {
			fmt.Fprintf(e.stderr, "\r\033[K%s  calls %d  proved %d  open %d  added %d  pn %s  in flight %v%s",
				p.Elapsed.Round(time.Second), p.Calls, p.Proved, p.Open, p.Added, pnText(p.PN), p.InFlight, pq.line())
		}
	}
	res, err := bk.Prove(ctx, id, pq.lazy, opts, progress)
	qs := pq.close() // also on Ctrl-C: Prove has cancelled and waited for its jobs
	if tty {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
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
		fr = append(fr, frontierJSON{int64(f.ID), engine.FormatTurns(bk.Rules(), turns), f.PN, f.DN, f.Why})
	}
	perr := e.print(map[string]any{"id": int64(id), "attacker": a.String(), "result": res.Status,
		"status": res.Proof.Status.String(), "order": res.Proof.Order, "pn": res.PN, "dn": res.DN,
		"calls": res.Calls, "expansions": res.Expanded, "added": res.Added, "nodes": res.Nodes, "proved": res.Proved, "open": res.Open,
		"seconds": res.Elapsed.Seconds(), "frontier": fr, "refused": append([]string{}, res.Refused...), "queue": qs},
		func(w io.Writer) {
			fmt.Fprintf(w, "position %d for %s: %s (book status %s); %d verifier calls, %d positions added, %d looked at (%d proved, %d open), %s\n",
				id, a, res.Status, proofText(res.Proof), res.Calls, res.Added, res.Nodes, res.Proved, res.Open, res.Elapsed.Round(time.Millisecond))
			if len(fr) > 0 {
				fmt.Fprintf(w, "open frontier (most-proving first):\n")
			}
			for _, f := range fr {
				what := "open"
				switch f.Why {
				case "held":
					what = "left to the expert"
				case "stuck":
					what = "stuck: nothing the auto-pilot can do"
				case "refused":
					what = "verdict refused"
				}
				fmt.Fprintf(w, "  %8d  pn %-5s dn %-5s %-12s %s\n", f.ID, pnText(f.PN), pnText(f.DN), what, strings.TrimSpace(f.Turns))
			}
			for _, r := range res.Refused {
				fmt.Fprintln(w, "refused verdict:", r)
			}
			if qs.Where == "nats" || o.queue.listen != "" || qs.Rejected > 0 {
				fmt.Fprintf(w, "queue %s: %d workers (%d slots), %d jobs queued, %d running, %d done (%d in this run, %.2f jobs/s), %d results accepted, %d rejected and redone here\n",
					qs.URL, qs.Workers, qs.Slots, qs.Queued, qs.Running, qs.Done, qs.DoneHere, qs.Throughput, qs.Accepted, qs.Rejected)
			}
		})
	return perr // a stop (Ctrl-C) is not an error: the result says "stopped"
}

func pnText(n int64) string {
	if n >= c6book.Infinite {
		return "inf"
	}
	return fmt.Sprint(n)
}
