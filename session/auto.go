package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"c6book"
	"c6book/engine/game"
)

// The auto-pilot in the workbench: the book's proof loop (AutoProver) run
// as a job below the shown position. (The expert's "leave to me" is an
// edit: History.ToggleHold; what Next found stuck on its line: Cursor.)

// autoState is the Prover's auto-pilot (UI goroutine only).
type autoState struct {
	job       *Job
	last      c6book.ProveProgress // the latest progress delivered, or the run's result
	line      []game.Move          // the line to the position it works below
	attacker  game.Color
	lambda    int
	reloading bool   // a read of the shown position for it is queued
	text      string // how the last run ended
}

// CanAuto reports whether the book can run the auto-pilot.
func (p *Prover) CanAuto() bool {
	_, ok := p.s.store.(AutoProver)
	return ok && p.s.readOnly == ""
}

// StartAuto runs the auto-pilot below the shown position for the attacker
// and λ chosen, with jobs verifier jobs at once and a time budget (0: none),
// as a job: StopAuto (or opening another book) stops it; every verdict it
// stored stays. The shown position is read again as verdicts land.
func (p *Prover) StartAuto(jobs int, budget time.Duration) {
	s, c := p.s, &p.s.cursor
	if p.auto.job != nil {
		return
	}
	ap, ok := s.store.(AutoProver)
	if !ok {
		s.fail(errors.New("this book cannot run the auto-pilot"))
		return
	}
	if s.refuseEdit("auto-pilot (its verdicts are stored)") {
		return
	}
	if w := c.pos.Winner(); w != game.Empty {
		s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	// λ3 always, as c6 book prove: the λ chosen in the window is Verify's.
	opts := AutoOptions{Attacker: c.attacker, Lambda: 3, Jobs: max(1, jobs), MaxTime: budget}
	b := c.pos.Clone()
	var res AutoResult
	sum := &RunSummary{Kind: jobAuto, Line: c.prefix(), Attacker: opts.Attacker, Lambda: opts.Lambda}
	var job *Job
	job = s.Start(JobSpec{
		Kind: jobAuto,
		Run: func(ctx context.Context, store BookStore, progress func(Progress)) error {
			return summaryRun(ctx, store, b, sum, true, func() error {
				var err error
				// (Reports may come after AutoProve returned, when cancelled:
				// the job delivers none after its end.)
				res, err = ap.AutoProve(ctx, b, opts, func(ap c6book.ProveProgress) {
					progress(Progress{Phase: phaseAuto, Done: ap.Calls, Elapsed: ap.Elapsed, Auto: ap})
				})
				return err
			})
		},
		OnProgress: func(pr Progress) {
			if job != p.auto.job {
				return
			}
			if pr.Auto.Calls != p.auto.last.Calls {
				p.reloadShown()
			}
			p.auto.last = pr.Auto
			s.changed(ChangeAuto)
		},
		OnDone: func(err error) {
			if job == p.auto.job && job.store == s.store {
				sum.Calls, sum.Proved, sum.Open, sum.Added = res.Calls, res.Proved, res.Open, res.Added
				if !sum.ended(err) {
					sum.Stop = autoStop(res.Status)
				}
				p.summary = sum
			}
			p.finishAuto(job, res, err)
		},
	})
	p.auto.job, p.auto.last, p.auto.text = job, c6book.ProveProgress{}, ""
	p.summary = nil
	p.auto.line, p.auto.attacker, p.auto.lambda = c.prefix(), opts.Attacker, opts.Lambda
	s.changed(ChangeAuto)
}

func (p *Prover) finishAuto(job *Job, res AutoResult, err error) {
	s, c := p.s, &p.s.cursor
	if job != p.auto.job || job.store != s.store {
		// Another book was opened meanwhile (the switch cancelled this
		// job and waited for it).
		if err != nil && !errors.Is(err, context.Canceled) {
			s.fail(fmt.Errorf("auto-pilot (previous book): %w", err))
		}
		return
	}
	p.auto.job = nil
	p.auto.last = res.ProveProgress
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		p.auto.text = "auto-pilot: error"
		s.fail(fmt.Errorf("auto-pilot: %w", err))
	case res.Status == "" || res.Status == c6book.ProveStopped || err != nil:
		p.auto.text = "auto-pilot stopped after " + Plural(res.Calls, "call", "calls")
	default:
		p.auto.text = fmt.Sprintf("auto-pilot %s after %s", autoStatusText(res.Status), Plural(res.Calls, "call", "calls"))
	}
	if p.auto.text != "auto-pilot: error" {
		// The positions proved during the run (the book's count).
		p.auto.text += fmt.Sprintf(", %s proved", Plural(res.Proved, "position", "positions"))
	}
	c.status = nil
	c.nkids = nil
	c.refresh(true)
	s.changed(ChangeAuto)
}

// autoStop is the summary's reason for how an auto-pilot run ended.
func autoStop(st c6book.ProveStatus) stopReason {
	switch st {
	case c6book.ProveProved:
		return stopProved
	case c6book.ProveFailed:
		return stopFailed
	case c6book.ProveBudget:
		return stopBudget
	case c6book.ProveStuck:
		return stopStuck
	}
	return stopCancelled // ProveStopped, or no status
}

func autoStatusText(st c6book.ProveStatus) string { return st.Describe() }

// StopAuto stops the auto-pilot; what it stored stays.
func (p *Prover) StopAuto() {
	if p.auto.job != nil {
		p.auto.job.Cancel()
	}
}

// AutoRunning reports whether the auto-pilot runs.
func (p *Prover) AutoRunning() bool { return p.auto.job != nil }

// AutoJob is the running auto-pilot (nil when none).
func (p *Prover) AutoJob() *Job { return p.auto.job }

// AutoProgress is the running (or last) run's latest progress.
func (p *Prover) AutoProgress() c6book.ProveProgress { return p.auto.last }

// AutoText says what the auto-pilot does or how its last run ended ("" when
// it never ran on this book).
func (p *Prover) AutoText() string {
	if p.auto.job == nil {
		return p.auto.text
	}
	pr := p.auto.last
	where := "here"
	if !slices.Equal(p.auto.line, p.s.cursor.prefix()) {
		where = "below " + game.FormatTurns(p.s.rules, p.auto.line)
		if len(p.auto.line) == 0 {
			where = "below the root"
		}
	}
	// pr.Proved: the positions the book holds proved now and did not when
	// the run began.
	// The longest verifier call in flight says how far it is: on the far
	// atlas rows one call takes minutes.
	flight := fmt.Sprintf("%d in flight", len(pr.InFlight))
	var long *c6book.VerifyWork
	for i := range pr.Working {
		if w := &pr.Working[i]; long == nil || w.Elapsed > long.Elapsed {
			long = w
		}
	}
	if long != nil {
		flight += " (" + long.Describe() + ")"
	}
	return fmt.Sprintf("auto-pilot (%s, λ%d, %s): %s, %d proved, %d open, %d added, %s, %s",
		ColourName(p.auto.attacker), p.auto.lambda, where, Plural(pr.Calls, "call", "calls"), pr.Proved, pr.Open, pr.Added, flight,
		pr.Elapsed.Round(time.Second))
}

// reloadShown reads the shown position and the line's statuses again as
// the auto-pilot's verdicts land, one read queued at a time.
func (p *Prover) reloadShown() {
	if p.auto.reloading {
		return
	}
	p.auto.reloading = true
	p.s.cursor.reloadShown(func() { p.auto.reloading = false })
}
