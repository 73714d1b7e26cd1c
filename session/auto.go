package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"c6book"
	"c6book/engine"
)

// The auto-pilot in the workbench: the book's proof loop (AutoProver) run
// as a job below the shown position, the expert's "leave to me" (Holder)
// and what Next found on its line.

// ChangeAuto: the auto-pilot's state or progress, or the hold of the shown
// position.
const ChangeAuto = ChangeCandidates << 1

// autoState is the session's auto-pilot (UI goroutine only, but live).
type autoState struct {
	job       *Job
	live      *autoLive
	line      []engine.Move // the line to the position it works below
	attacker  engine.Color
	lambda    int
	calls     int    // Calls when the shown position was last read again
	reloading bool   // a read of the shown position for it is queued
	text      string // how the last run ended
	nextText  string // where Next's line is stuck
	nextVisit int    // Session.visit nextText is about
}

// autoLive is the latest progress, written by the auto-pilot's goroutine.
type autoLive struct {
	mu    sync.Mutex
	p     AutoProgress
	final bool // the run's result is in p: later reports are dropped
}

// set records a report (final: the run's result).
func (l *autoLive) set(p AutoProgress, final bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.final {
		l.p, l.final = p, final
	}
}

func (l *autoLive) get() AutoProgress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.p
}

// CanAuto reports whether the book can run the auto-pilot.
func (s *Session) CanAuto() bool {
	_, ok := s.store.(AutoProver)
	return ok && s.readOnly == ""
}

// StartAuto runs the auto-pilot below the shown position for the attacker
// and λ chosen, with jobs verifier jobs at once and a time budget (0: none),
// as a job: StopAuto (or opening another book) stops it; every verdict it
// stored stays. The shown position is read again as verdicts land.
func (s *Session) StartAuto(jobs int, budget time.Duration) {
	if s.auto.job != nil {
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
	if w := s.pos.Winner(); w != engine.Empty {
		s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	opts := AutoOptions{Attacker: s.attacker, Lambda: s.lambda, Jobs: max(1, jobs), MaxTime: budget}
	b, live := s.pos.Clone(), &autoLive{}
	var res AutoResult
	var job *Job
	job = s.Start(JobSpec{
		Kind: "auto",
		Run: func(ctx context.Context, store BookStore, progress func(Progress)) error {
			// Reports come at most ten a second (Start): a ticker sends
			// the latest again so that the last verdict is not missed.
			report := func() {
				p := live.get()
				progress(Progress{Phase: "auto", Done: p.Calls, Elapsed: p.Elapsed})
			}
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				t := time.NewTicker(300 * time.Millisecond)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						report()
					}
				}
			}()
			var err error
			res, err = ap.AutoProve(ctx, b, opts, func(p AutoProgress) {
				// May come after AutoProve returned, when cancelled.
				live.set(p, false)
				report()
			})
			return err
		},
		OnProgress: func(p Progress) {
			if job != s.auto.job {
				return
			}
			if p.Done != s.auto.calls {
				s.auto.calls = p.Done
				s.reloadShown()
			}
			s.changed(ChangeAuto)
		},
		OnDone: func(err error) { s.finishAuto(job, res, err) },
	})
	s.auto.job, s.auto.live, s.auto.calls, s.auto.text = job, live, 0, ""
	s.auto.line, s.auto.attacker, s.auto.lambda = s.prefix(), opts.Attacker, opts.Lambda
	s.changed(ChangeAuto)
}

func (s *Session) finishAuto(job *Job, res AutoResult, err error) {
	if job != s.auto.job || job.Store() != s.store {
		// Another book was opened meanwhile (the switch cancelled this
		// job and waited for it).
		if err != nil && !errors.Is(err, context.Canceled) {
			s.fail(fmt.Errorf("auto-pilot (previous book): %w", err))
		}
		return
	}
	s.auto.job = nil
	s.auto.live.set(res.AutoProgress, true)
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		s.auto.text = "auto-pilot: error"
		s.fail(fmt.Errorf("auto-pilot: %w", err))
	case res.Status == "" || res.Status == "stopped" || err != nil:
		s.auto.text = fmt.Sprintf("auto-pilot stopped after %d calls", res.Calls)
	default:
		s.auto.text = fmt.Sprintf("auto-pilot %s after %d calls", autoStatusText(res.Status), res.Calls)
	}
	s.status = nil
	s.nkids = nil
	s.refresh(true)
	s.changed(ChangeAuto)
}

func autoStatusText(st string) string {
	switch st {
	case "proved":
		return "proved the position"
	case "failed":
		return "failed: every attacker move it tried failed"
	case "budget":
		return "out of time"
	case "stuck":
		return "stuck: nothing left it may work on"
	}
	return st
}

// StopAuto stops the auto-pilot; what it stored stays.
func (s *Session) StopAuto() {
	if s.auto.job != nil {
		s.auto.job.Cancel()
	}
}

// AutoRunning reports whether the auto-pilot runs.
func (s *Session) AutoRunning() bool { return s.auto.job != nil }

// AutoJob is the running auto-pilot (nil when none).
func (s *Session) AutoJob() *Job { return s.auto.job }

// AutoProgress is the running (or last) run's latest progress.
func (s *Session) AutoProgress() AutoProgress {
	if s.auto.live == nil {
		return AutoProgress{}
	}
	return s.auto.live.get()
}

// AutoText says what the auto-pilot does or how its last run ended ("" when
// it never ran on this book).
func (s *Session) AutoText() string {
	if s.auto.job == nil {
		return s.auto.text
	}
	p := s.AutoProgress()
	where := "here"
	if !slices.Equal(s.auto.line, s.prefix()) {
		where = "below " + engine.FormatTurns(s.rules, s.auto.line)
		if len(s.auto.line) == 0 {
			where = "below the root"
		}
	}
	return fmt.Sprintf("auto-pilot (%s, λ%d, %s): %d calls, %d proved, %d open, %d added, %d in flight, %s",
		ColourName(s.auto.attacker), s.auto.lambda, where, p.Calls, p.Proved, p.Open, p.Added, p.InFlight,
		p.Elapsed.Round(time.Second))
}

// reloadShown reads the shown position and the line's statuses again (the
// auto-pilot stored verdicts), one read queued at a time, without
// disturbing what the user does meanwhile: the answer is dropped when the
// user moved on.
func (s *Session) reloadShown() {
	if s.auto.reloading {
		return
	}
	s.auto.reloading = true
	visit, key, a := s.visit, keyOf(s.pos), s.attacker
	pos := s.pos.Clone()
	reads, _ := s.lineReads(true)
	s.call(func(ctx context.Context, store BookStore) func() {
		info, err := store.Position(ctx, pos, a)
		var ch []Child
		if err == nil {
			ch, err = store.Children(ctx, pos, a)
		}
		st := make([]Position, 0, len(reads))
		for _, r := range reads {
			if err != nil {
				break
			}
			var p Position
			p, err = store.Position(ctx, r.b, a)
			st = append(st, p)
		}
		return func() {
			s.auto.reloading = false
			if err != nil {
				// The next report reads again; a lasting failure shows
				// when the user moves.
				return
			}
			if a != s.attacker {
				return
			}
			if s.status == nil {
				s.status = map[posKey]c6book.Status{} // dropped by an edit meanwhile
			}
			if s.nkids == nil {
				s.nkids = map[posKey]int{}
			}
			for i, p := range st {
				s.status[reads[i].key] = p.Status
			}
			if visit == s.visit && key == keyOf(s.pos) && s.loaded {
				s.info, s.children, s.verdict = info, ch, info.Verdict
				s.status[key] = info.Status
				s.nkids[key] = len(ch)
			}
			s.fillLine()
			s.changed(ChangePosition)
		}
	})
}

// CanHold reports whether the book stores the expert's "leave to me".
func (s *Session) CanHold() bool {
	_, ok := s.store.(Holder)
	return ok && s.readOnly == ""
}

// ToggleHold marks the shown position as left to the expert for the
// attacker ("leave to me": the auto-pilot skips it and everything below
// it), or gives it back; undoable.
func (s *Session) ToggleHold() {
	h, ok := s.store.(Holder)
	if !ok {
		s.fail(errors.New("this book cannot store “leave to me”"))
		return
	}
	if s.refuseEdit("leave to me") {
		return
	}
	on := !s.info.Held
	b, a, prefix := s.pos.Clone(), s.attacker, s.prefix()
	s.call(func(ctx context.Context, store BookStore) func() {
		err := h.SetHold(ctx, b, a, on)
		return func() {
			if err != nil {
				s.fail(err)
				return
			}
			what := "leave to me"
			if !on {
				what = "give back to the auto-pilot"
			}
			s.pushEdit(Edit{What: "hold", Line: prefix, Attacker: a, Held: !on, Describe: what})
			if keyOf(s.pos) == keyOf(b) {
				s.refresh(false)
			}
		}
	})
}

// undoHold stores back the hold an edit replaced.
func undoHold(ctx context.Context, store BookStore, b *engine.Board, e Edit) error {
	h, ok := store.(Holder)
	if !ok {
		return errors.New("this book cannot store “leave to me”")
	}
	return h.SetHold(ctx, b, e.Attacker, e.Held)
}

// HoldText says what the expert or the auto-pilot left at the shown
// position, and where Next's line is stuck ("" when nothing).
func (s *Session) HoldText() string {
	var parts []string
	switch {
	case s.info.Held:
		parts = append(parts, "Left to you: the auto-pilot skips this position and everything below it.")
	case s.info.Stuck == "dead end":
		parts = append(parts, "The auto-pilot's dead end: the verdict leaves every defender move open.")
	}
	if s.auto.nextText != "" && s.auto.nextVisit == s.visit {
		parts = append(parts, s.auto.nextText)
	}
	return strings.Join(parts, "\n")
}

// stuckText describes where the auto-pilot is stuck on Next's line.
func stuckText(r engine.Rules, e Entry) string {
	if len(e.Stuck) == 0 {
		return ""
	}
	var parts []string
	for _, st := range e.Stuck {
		where := "the start"
		if st.Ply > 0 && st.Ply <= len(e.Line) {
			where = "after " + engine.FormatTurns(r, e.Line[:st.Ply])
		}
		if st.Ply == len(e.Line) {
			where = "here"
		}
		what := "left to the expert"
		if st.Why == "dead end" {
			what = "a verifier dead end (every defender move open)"
		}
		parts = append(parts, where+": "+what)
	}
	return "Next: the auto-pilot is stuck on this line — " + strings.Join(parts, "; ") + "."
}
