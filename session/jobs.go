package session

import (
	"context"
	"sync"
	"time"
)

// Job is long work run off the UI goroutine on the session's book: the
// verifier, the engine's candidates and player, the auto-pilot (Prover);
// an SGF export, an import, a book check (the app). Its progress comes
// back on the UI goroutine coalesced to the latest report (one delivery
// pending at a time, at most ten a second, the latest never lost), and its
// end after it. A job belongs to the book it was started on: switching
// books cancels it and waits until it has returned.
type Job struct {
	Kind  JobKind
	store BookStore

	cancel context.CancelFunc
	done   chan struct{} // closed when Run has returned

	latest latest[Progress]

	ended bool // OnDone has run (UI goroutine)
}

// JobKind is what a job does.
type JobKind string

// Job kinds: the prover's jobs, and the app's book work (an SGF export,
// an import, a book check) run behind a progress dialog.
const (
	jobVerify  JobKind = "verify"
	jobSuggest JobKind = "suggest"
	jobPlay    JobKind = "play"
	jobAuto    JobKind = "auto"
	JobBook    JobKind = "book"
)

// JobSpec describes a job for Start.
type JobSpec struct {
	Kind JobKind
	// Run does the work on its own goroutine; progress may be called from
	// any goroutine and never blocks. A cancelled job's Run returns the
	// context's error.
	Run func(ctx context.Context, store BookStore, progress func(Progress)) error
	// OnProgress and OnDone run on the UI goroutine (OnProgress may be nil).
	// OnProgress gets the latest report; OnDone runs once, after Run has
	// returned, with Run's error, and no report is delivered after it.
	OnProgress func(Progress)
	OnDone     func(err error)
}

// Cancel asks the job to stop; OnDone still runs.
func (j *Job) Cancel() { j.cancel() }

// Wait blocks until the job's Run has returned.
func (j *Job) Wait() { <-j.done }

// Progress is the job's latest progress report.
func (j *Job) Progress() Progress { return j.latest.get() }

// progressGap is the least time between two progress deliveries of a job.
const progressGap = 100 * time.Millisecond

// Start runs a job on the current book.
func (s *Session) Start(spec JobSpec) *Job {
	ctx, cancel := context.WithCancel(s.jobsCtx)
	j := &Job{Kind: spec.Kind, store: s.store, cancel: cancel, done: make(chan struct{})}
	j.latest.gap = progressGap
	s.jobs = append(s.jobs, j)
	do, store := s.do, s.store
	progress := func(p Progress) {
		if spec.OnProgress == nil {
			j.latest.set(p)
			return
		}
		j.latest.put(p, do, func(p Progress) {
			if !j.ended {
				spec.OnProgress(p)
			}
		})
	}
	s.spawn(func() func() {
		err := spec.Run(ctx, store, progress)
		close(j.done)
		return func() {
			// The last report may still wait for its gap: show it first.
			if p, ok := j.latest.take(); ok && spec.OnProgress != nil {
				spec.OnProgress(p)
			}
			j.ended = true
			cancel()
			s.jobs = removeJob(s.jobs, j)
			if spec.OnDone != nil {
				spec.OnDone(err)
			}
		}
	})
	return j
}

// Jobs lists the jobs running (started and not yet ended).
func (s *Session) Jobs() []*Job { return append([]*Job(nil), s.jobs...) }

// cancelJobs cancels every job and waits until each Run has returned (their
// OnDone still comes, later, through Do).
func (s *Session) cancelJobs() {
	for _, j := range s.jobs {
		j.Cancel()
	}
	for _, j := range s.jobs {
		j.Wait()
	}
}

func removeJob(list []*Job, j *Job) []*Job {
	for i, x := range list {
		if x == j {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// latest keeps the latest report of a job and delivers it to the UI
// goroutine, one delivery pending at a time: reports that arrive while one
// is pending replace its content (coalesced), and the reporter never
// waits. With a gap, a delivery comes at least gap after the previous one
// (later, by a timer, rather than dropped).
type latest[P any] struct {
	mu      sync.Mutex
	p       P
	pending bool
	gap     time.Duration
	sent    time.Time // when the last delivery ran
}

// set records a report without delivering it.
func (l *latest[P]) set(p P) {
	l.mu.Lock()
	l.p = p
	l.mu.Unlock()
}

// take returns the latest report if its delivery is still pending, for
// the caller to deliver it now: the end of a job, which must not lose its
// last report to the gap's timer (the job drops that delivery when it
// comes after the end).
func (l *latest[P]) take() (P, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.pending {
		var zero P
		return zero, false
	}
	l.pending = false
	l.sent = time.Now()
	return l.p, true
}

func (l *latest[P]) get() P {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.p
}

// put records a report and makes sure a delivery of the latest one is
// pending.
func (l *latest[P]) put(p P, do func(func()), deliver func(P)) {
	l.mu.Lock()
	l.p = p
	queued := l.pending
	l.pending = true
	wait := l.gap - time.Since(l.sent)
	l.mu.Unlock()
	if queued {
		return
	}
	send := func() {
		do(func() {
			l.mu.Lock()
			p := l.p
			l.pending = false
			l.sent = time.Now()
			l.mu.Unlock()
			deliver(p)
		})
	}
	if l.gap > 0 && wait > 0 {
		time.AfterFunc(wait, send)
		return
	}
	send()
}
