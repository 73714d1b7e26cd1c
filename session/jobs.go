package session

import (
	"context"
	"sync"
	"time"
)

// Job is long work run off the UI goroutine on the session's book: the
// verifier; an SGF export, an import, a book check; the auto-prover later.
// Its progress (at most ten reports a second) and its end come back on the
// UI goroutine. A job belongs to the book it was started on: switching
// books cancels it and waits until it has returned.
type Job struct {
	Kind  string // "verify", "export"…
	store BookStore

	cancel context.CancelFunc
	done   chan struct{} // closed when Run has returned

	mu   sync.Mutex
	last Progress
	sent time.Time

	ended bool // OnDone has run (UI goroutine)
}

// JobSpec describes a job for Start.
type JobSpec struct {
	Kind string
	// Run does the work on its own goroutine; progress may be called from
	// any goroutine and never blocks. A cancelled job's Run returns the
	// context's error.
	Run func(ctx context.Context, store BookStore, progress func(Progress)) error
	// OnProgress and OnDone run on the UI goroutine (OnProgress may be nil).
	// OnDone runs once, after Run has returned, with Run's error.
	OnProgress func(Progress)
	OnDone     func(err error)
}

// Store is the book the job works on.
func (j *Job) Store() BookStore { return j.store }

// Cancel asks the job to stop; OnDone still runs.
func (j *Job) Cancel() { j.cancel() }

// Wait blocks until the job's Run has returned.
func (j *Job) Wait() { <-j.done }

// Progress is the job's latest progress report.
func (j *Job) Progress() Progress {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last
}

// Start runs a job on the current book.
func (s *Session) Start(spec JobSpec) *Job {
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{Kind: spec.Kind, store: s.store, cancel: cancel, done: make(chan struct{})}
	s.jobs = append(s.jobs, j)
	do := s.do
	progress := func(p Progress) {
		j.mu.Lock()
		j.last = p
		now := time.Now()
		send := now.Sub(j.sent) >= 100*time.Millisecond
		if send {
			j.sent = now
		}
		j.mu.Unlock()
		if send && spec.OnProgress != nil {
			do(func() {
				if !j.ended {
					spec.OnProgress(p)
				}
			})
		}
	}
	store := s.store
	go func() {
		err := spec.Run(ctx, store, progress)
		close(j.done)
		do(func() {
			j.ended = true
			cancel()
			s.jobs = removeJob(s.jobs, j)
			if spec.OnDone != nil {
				spec.OnDone(err)
			}
		})
	}()
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
