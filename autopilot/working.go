package autopilot

import (
	"sync"

	"c6book"
	"c6book/engine/verify"
)

// working is what the verifier calls of the jobs in flight report, for the
// run's progress (ProveProgress.Working): a verify of the far atlas rows
// can take minutes, and the line should say how far it is. The verifier's
// reports arrive on its own goroutines (through the queue's, remotely);
// each one only takes the lock to keep the latest, so a report never waits
// for the search, and the search's reports read a copy.
type working struct {
	mu   sync.Mutex
	jobs map[PosID]*c6book.VerifyWork
}

func newWorking() *working { return &working{jobs: map[PosID]*c6book.VerifyWork{}} }

// start notes that job runs (up to) calls verifier calls (0: one); done
// ends it.
func (w *working) start(job PosID, calls int) {
	w.mu.Lock()
	w.jobs[job] = &c6book.VerifyWork{ID: int64(job), Verifies: calls}
	w.mu.Unlock()
}

func (w *working) done(job PosID) {
	w.mu.Lock()
	delete(w.jobs, job)
	w.mu.Unlock()
}

// report is the progress callback of a verifier call of job: it keeps the
// call's latest report.
func (w *working) report(job PosID) func(verify.VerifyProgress) {
	return func(p verify.VerifyProgress) {
		w.mu.Lock()
		if j := w.jobs[job]; j != nil {
			j.Phase, j.Done, j.Total, j.Unsolved, j.Elapsed = string(p.Phase), p.Done, p.Total, p.Unsolved, p.Elapsed
		}
		w.mu.Unlock()
	}
}

// finished counts a verifier call of job that has returned; at says that
// job, making its calls one after the other, has finished i of them. Both
// clear the last call's report.
func (w *working) finished(job PosID) { w.between(job, func(j *c6book.VerifyWork) { j.Finished++ }) }

func (w *working) at(job PosID, i int) { w.between(job, func(j *c6book.VerifyWork) { j.Finished = i }) }

func (w *working) between(job PosID, count func(*c6book.VerifyWork)) {
	w.mu.Lock()
	if j := w.jobs[job]; j != nil {
		count(j)
		j.Phase, j.Done, j.Total, j.Unsolved, j.Elapsed = "", 0, 0, 0, 0
	}
	w.mu.Unlock()
}

// of returns the work of the jobs ids that run a verifier call, in their
// order.
func (w *working) of(ids []int64) []c6book.VerifyWork {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []c6book.VerifyWork
	for _, id := range ids {
		if j := w.jobs[PosID(id)]; j != nil {
			out = append(out, *j)
		}
	}
	return out
}
