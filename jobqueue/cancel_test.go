package jobqueue

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"c6book/internal/testenv"
)

// waitLog waits until the log holds sub, however long that takes (go
// test's -timeout is the guard).
func waitLog(t *testing.T, l *testLog, sub string) {
	t.Helper()
	for !l.contains(sub) {
		time.Sleep(10 * time.Millisecond)
	}
}

// A caller that gives a job up stops it: a queued job leaves the queue, a
// running one stops on its worker (terminated, no result, not run by
// another), and asking for the same job again runs it to its verdict.
func TestCancelStopsJob(t *testing.T) {
	testenv.Heavy(t)
	var wlog testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, Solvers: 1, WorkerLogf: wlog.logf})
	ctx := t.Context()
	q := e.Client().q

	long := c6Cases[2] // seconds of work
	lb, lo := long.board(t), long.withTol(t)
	ljob, _ := newJob(lb, lo)
	lid := ljob.id()
	lctx, lcancel := context.WithCancel(ctx)
	ldone := make(chan error, 1)
	go func() {
		_, err := e.Verify(lctx, lb, lo, nil)
		ldone <- err
	}()
	waitLog(t, &wlog, "job "+lid+": start")

	// A second job waits behind it; its caller gives up: it leaves the queue.
	short := smallCases[0]
	sb, so := short.board(t), short.withTol(t)
	sjob, _ := newJob(sb, so)
	sid := sjob.id()
	sctx, scancel := context.WithCancel(ctx)
	sdone := make(chan error, 1)
	go func() {
		_, err := e.Verify(sctx, sb, so, nil)
		sdone <- err
	}()
	for { // until it is queued
		if _, err := q.stream.GetLastMsgForSubject(ctx, jobSubject+sid); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	scancel()
	if err := <-sdone; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled queued job's Verify: %v", err)
	}
	if _, err := q.stream.GetLastMsgForSubject(ctx, jobSubject+sid); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("the cancelled queued job is still queued: %v", err)
	}

	// The running job: its worker stops it and stores nothing.
	lcancel()
	if err := <-ldone; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled running job's Verify: %v", err)
	}
	waitLog(t, &wlog, "job "+lid+": cancelled by its caller")
	if _, err := q.results.Get(ctx, lid); err == nil {
		t.Fatal("the cancelled job has a result")
	}
	if _, err := q.stream.GetLastMsgForSubject(ctx, jobSubject+lid); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("the cancelled job is still in the queue: %v", err)
	}
	if wlog.contains("job " + sid + ": start") {
		t.Fatal("the job cancelled while queued was run")
	}

	// Asked again (within the queue's duplicate window): it runs, to the
	// verdict a local run gives.
	vd, err := e.Verify(ctx, lb, lo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := comparable(t, vd), localVerdicts(t, []testCase{long})[0]; string(got) != string(want) {
		t.Fatalf("the job asked again: %s", summary(vd))
	}
}
