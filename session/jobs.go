package session

import (
	"context"
	"time"

	"c6book/internal/latest"
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

	latest latest.Box[Progress]

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
func (j *Job) Progress() Progress { p, _ := j.latest.Last(); return p }

// progressGap is the least time between two progress deliveries of a job.
const progressGap = 100 * time.Millisecond

// Start runs a job on the current book.
func (s *Session) Start(spec JobSpec) *Job {
	ctx, cancel := context.WithCancel(s.jobsCtx)
	j := &Job{Kind: spec.Kind, store: s.store, cancel: cancel, done: make(chan struct{})}
	if spec.OnProgress != nil {
		j.latest = latest.Box[Progress]{Run: s.do, Gap: progressGap, Deliver: func(p Progress) {
			if !j.ended {
				spec.OnProgress(p)
			}
		}}
	}
	s.jobs = append(s.jobs, j)
	store := s.store
	progress := j.latest.Put
	s.spawn(func() func() {
		err := spec.Run(ctx, store, progress)
		close(j.done)
		return func() {
			// The last report may still wait for its gap: show it first.
			if p, ok := j.latest.Take(); ok && spec.OnProgress != nil {
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
