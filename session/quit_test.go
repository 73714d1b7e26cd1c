package session_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"c6book/session"
)

// A flood of reports from a worker (100,000) reaches the UI goroutine
// coalesced: never more than one delivery waits in the queue, so the
// window repaints a few times and shows the last report, instead of
// crawling through a backlog of old counts.
func TestJobProgressFloodCoalesced(t *testing.T) {
	f := newFixture(t, nil, true)
	const reports = 100_000
	var shown []string
	ended := false
	f.s.Start(session.JobSpec{
		Kind: session.JobBook,
		Run: func(ctx context.Context, _ session.BookStore, progress func(session.Progress)) error {
			for i := 1; i <= reports; i++ {
				progress(session.Progress{Done: i, Total: reports, Text: fmt.Sprint(i)})
			}
			return nil
		},
		OnProgress: func(p session.Progress) { shown = append(shown, p.Text) },
		OnDone:     func(error) { ended = true },
	})
	ran := 0
	for !ended || len(f.queue) > 0 { // go test's -timeout is the guard
		// One progress delivery and the job's end at most.
		if n := len(f.queue); n > 2 {
			t.Fatalf("%d deliveries queued at once", n)
		}
		(<-f.queue)()
		ran++
	}
	if len(shown) == 0 || shown[len(shown)-1] != fmt.Sprint(reports) {
		t.Fatalf("last report shown %v, want %d", shown[max(0, len(shown)-3):], reports)
	}
	if len(shown) >= ran+1 || len(shown) > reports/10 {
		t.Fatalf("%d reports shown for %d queued functions run", len(shown), ran)
	}
	t.Logf("%d reports: %d shown, %d functions run on the UI goroutine", reports, len(shown), ran)
}

// Abort, from another goroutine, cancels the running jobs and those
// started after it; Close then finds them returned.
func TestAbortCancelsJobs(t *testing.T) {
	f := newFixture(t, nil, true)
	started := make(chan struct{})
	var end error
	ended := 0
	run := func(ctx context.Context, _ session.BookStore, _ func(session.Progress)) error {
		if started != nil {
			close(started)
		}
		<-ctx.Done()
		return ctx.Err()
	}
	f.s.Start(session.JobSpec{Kind: session.JobBook, Run: run, OnDone: func(err error) { end = err; ended++ }})
	<-started
	started = nil
	go f.s.Abort()
	f.pumpUntil("the job's end", func() bool { return ended == 1 })
	if !errors.Is(end, context.Canceled) {
		t.Fatalf("job ended with %v", end)
	}
	// A job started after Abort is cancelled at once.
	f.s.Start(session.JobSpec{Kind: session.JobBook, Run: run, OnDone: func(err error) { end = err; ended++ }})
	f.pumpUntil("the second job's end", func() bool { return ended == 2 })
	if !errors.Is(end, context.Canceled) || len(f.s.Jobs()) != 0 {
		t.Fatalf("second job ended with %v, %d jobs", end, len(f.s.Jobs()))
	}
}
