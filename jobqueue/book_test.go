package jobqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
	"c6book/proofbook"
)

// The book-level tests: the auto-pilot (autopilot.Prove) with the queue as
// its verifier.

// bookRules and bookProve are a small proof: the empty 8×8 connect-5 board
// for Black at λ2 (as proofbook's TestProveTwoJobs).
var bookRules = game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}

func bookProve(jobs int) autopilot.ProveOptions {
	return autopilot.ProveOptions{Attacker: game.Black, Jobs: jobs, MaxCalls: 200,
		Verify: verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}}
}

func newTestBook(t *testing.T, name string) *proofbook.Book {
	t.Helper()
	bk, err := proofbook.Create(context.Background(), filepath.Join(t.TempDir(), name), bookRules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

// proveRoot proves the book's root with v and checks the book.
func proveRoot(t *testing.T, ctx context.Context, bk *proofbook.Book, v verify.Verifier, jobs int) autopilot.ProveResult {
	t.Helper()
	root, _ := bk.Root(ctx)
	res, err := autopilot.Prove(ctx, bk, root, v, bookProve(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "proved" {
		t.Fatalf("prove: %s after %d calls", res.Status, res.Calls)
	}
	rep, err := bk.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() { // what `c6 book check` says
		t.Fatalf("check: %v", rep.Problems)
	}
	return res
}

// verdictText is a stored verdict without what depends on the run (time,
// effort): its status, order, unsolved moves, zones and covered moves.
func verdictText(t *testing.T, v *c6book.Verdict) string {
	t.Helper()
	data, err := json.Marshal([]any{v.Attacker, v.Status, v.Order, v.Tolerance, v.Unsolved, v.OpenSeminull, v.NullZone, v.Covered})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// walkBook calls f for each position reachable from the root (at most
// 20000).
func walkBook(t *testing.T, ctx context.Context, bk *proofbook.Book, f func(proofbook.Position)) {
	t.Helper()
	root, _ := bk.Root(ctx)
	seen := map[proofbook.PosID]bool{root: true}
	todo := []proofbook.PosID{root}
	for len(todo) > 0 && len(seen) < 20000 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		p, err := bk.Position(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		f(p)
		kids, err := bk.Children(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range kids {
			if !seen[c.ID] {
				seen[c.ID] = true
				todo = append(todo, c.ID)
			}
		}
	}
}

// bookVerdicts is each verified position's verdict by position key.
func bookVerdicts(t *testing.T, ctx context.Context, bk *proofbook.Book) map[uint64]*c6book.Verdict {
	t.Helper()
	out := map[uint64]*c6book.Verdict{}
	walkBook(t, ctx, bk, func(p proofbook.Position) {
		if p.Verdict != nil {
			out[p.Key] = p.Verdict
		}
	})
	return out
}

// countingVerifier counts the Verify calls of each job (each call's verdict
// is stored once by Prove).
// is stored once by Prove) and keeps the jobs in the order they came.
type countingVerifier struct {
	v    verify.Verifier
	mu   sync.Mutex
	n    map[string]int
	jobs []jobSpec
}

func (c *countingVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	job, _ := newJob(b, opts)
	c.mu.Lock()
	c.jobs = append(c.jobs, job)
	c.mu.Unlock()
	vd, err := c.v.Verify(ctx, b, opts, progress)
	if err == nil {
		c.mu.Lock()
		c.n[job.id()]++
		c.mu.Unlock()
	}
	return vd, err
}

// The auto-pilot through the queue with three worker processes on
// 127.0.0.1: one worker is frozen mid-job (its job started, no result
// stored) and killed with SIGKILL, and the server is restarted; the proof
// completes, the book checks, every verdict equals the one a single
// process computes (and those of a single-process run of the same proof),
// and no job's verdict is stored twice. The auto-pilot runs one job at a
// time, so that the killed worker's job is one the proof needs: with more,
// the others may settle the root first, and the search then cancels the
// job instead of waiting for another worker to redo it.
func TestBookProveWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	ctx := t.Context()
	ref := newTestBook(t, "local.c6book")
	proveRoot(t, ctx, ref, verify.LocalVerifier{}, 1)
	want := bookVerdicts(t, ctx, ref)

	pq := startProcQueue(t, ctx, 3)
	client, workers := pq.client, pq.workers

	// Watch the workers: at a job's start, freeze its worker; if the job's
	// result is stored, let it go on and wait for another start. Otherwise
	// kill it (SIGKILL); once the server has taken in all it sent, its job
	// has a result only if one was on its way when it froze: a new worker
	// takes its place and the test waits for another start. Else it was
	// mid-job: restart the server.
	type start struct {
		w  *workerProc
		id string
	}
	starts := make(chan start, 1000)
	watch := func(w *workerProc, line string) {
		// "worker w1: job <id>: start (…)"
		if f := strings.Fields(line); len(f) >= 5 && f[2] == "job" && f[4] == "start" {
			select {
			case starts <- start{w, strings.TrimSuffix(f[3], ":")}:
			default:
			}
		}
	}
	wgs := []*sync.WaitGroup{watchWorkers(workers, watch)}
	cv := &countingVerifier{v: client, n: map[string]int{}}
	type outcome struct {
		res autopilot.ProveResult
		err error
	}
	bk := newTestBook(t, "queue.c6book")
	root, _ := bk.Root(ctx)
	done := make(chan outcome, 1)
	go func() {
		res, err := autopilot.Prove(ctx, bk, root, cv, bookProve(1), nil)
		done <- outcome{res, err}
	}()

	var victim *workerProc
	var victimJob string
	var out outcome
	finished := false
	guard := guardBeforeTimeout(t)
	for victim == nil && !finished {
		select {
		case <-guard:
			t.Fatalf("no job started before the test's time ran out")
		case s := <-starts:
			_ = s.w.cmd.Process.Signal(syscall.SIGSTOP)
			if _, err := client.q.results.Get(ctx, s.id); err == nil {
				_ = s.w.cmd.Process.Signal(syscall.SIGCONT) // finished already
				continue
			}
			_ = s.w.cmd.Process.Kill()
			<-s.w.done
			drainConn(t, ctx, pq.srv, client.q, s.w.name)
			if _, err := client.q.results.Get(ctx, s.id); err == nil {
				// Its result was on its way: not mid-job.
				nw := startWorkerProcess(t, pq.srv.url(), fmt.Sprintf("w%d", len(workers)), "")
				workers = append(workers, nw)
				wgs = append(wgs, watchWorkers([]*workerProc{nw}, watch))
				continue
			}
			victim, victimJob = s.w, s.id
		case out = <-done:
			finished = true
		}
	}
	if victim == nil {
		t.Fatalf("no worker could be killed mid-job (proof finished: %v)", finished)
	}
	pq.restart(t)
	select {
	case out = <-done: // the proof finished
	case <-guard:
		t.Fatalf("the proof did not finish before the test's time ran out (victim %s, job %s)", victim.name, victimJob)
	}
	if out.err != nil || out.res.Status != "proved" {
		t.Fatalf("prove through the queue: %s after %d calls, %v\nlog: %q", out.res.Status, out.res.Calls, out.err, pq.lg.lines)
	}
	rep, err := bk.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("check: %v %v", err, rep.Problems)
	}
	if pq.localCalls != 0 {
		t.Errorf("%d jobs verified in the book's process: %q", pq.localCalls, pq.lg.lines)
	}

	// The killed worker's job was finished by another worker.
	entry, err := client.q.results.Get(ctx, victimJob)
	if err != nil {
		t.Fatalf("the killed worker's job %s has no result: %v", victimJob, err)
	}
	if r, err := decodeResult(entry.Value()); err != nil || r.worker == victim.name {
		t.Errorf("job %s: result by %q (%v), killed worker %s", victimJob, r.worker, err, victim.name)
	}

	// Same verdicts as a single process; none stored twice.
	got := bookVerdicts(t, ctx, bk)
	if len(got) != len(cv.jobs) {
		t.Errorf("%d verdicts in the book, %d verifier calls", len(got), len(cv.jobs))
	}
	same := 0
	for key, v := range got {
		if w, ok := want[key]; ok {
			same++
			if verdictText(t, w) != verdictText(t, v) {
				t.Errorf("position %x: verdict %s through the queue, %s in the single-process run", key, verdictText(t, v), verdictText(t, w))
			}
		}
	}
	if same == 0 {
		t.Error("no position verified in both runs")
	}
	localSame(t, ctx, bk, want)
	cv.mu.Lock()
	for id, n := range cv.n {
		if n != 1 {
			t.Errorf("job %s verified %d times", id, n)
		}
	}
	cv.mu.Unlock()
	client.mu.Lock()
	for id, n := range client.accepted {
		if n != 1 {
			t.Errorf("result of job %s used %d times", id, n)
		}
	}
	client.mu.Unlock()
	for _, w := range workers {
		w.stop()
	}
	for _, wg := range wgs {
		wg.Wait()
	}
	t.Logf("%d calls through the queue (single process: %d verdicts, %d in common); worker %s killed in job %s", out.res.Calls, len(want), same, victim.name, victimJob)
}

// localSame re-verifies every position of bk with a verdict in this
// process and compares, but for the positions of known (verdicts computed
// in this process already, which the caller compared).
func localSame(t *testing.T, ctx context.Context, bk *proofbook.Book, known map[uint64]*c6book.Verdict) {
	t.Helper()
	walkBook(t, ctx, bk, func(p proofbook.Position) {
		if p.Verdict == nil || known[p.Key] != nil {
			return
		}
		b, err := p.Board(bookRules)
		if err != nil {
			t.Fatal(err)
		}
		vo := bookProve(1).Verify
		vo.Tolerance = p.Verdict.Tolerance
		vd, err := verify.Verify(ctx, b, vo, nil)
		if err != nil {
			t.Fatal(err)
		}
		local := c6book.FromEngine(bookRules, 0, vd, vo.Lambda)
		if verdictText(t, &local) != verdictText(t, p.Verdict) {
			t.Errorf("position %d: stored %s, local %s", p.ID, verdictText(t, p.Verdict), verdictText(t, &local))
		}
	})
}

// A forged result (a verdict whose certificate does not check) planted in
// the results bucket for a job the auto-pilot is about to ask for is
// rejected and logged, and the job is redone in the book's process: the
// position is then proved honestly, and the book is the one a single
// process makes (one job at a time: the same calls in the same order).
func TestBookProveForgedResult(t *testing.T) {
	testenv.Heavy(t)
	ctx := t.Context()
	ref := newTestBook(t, "local.c6book")
	rv := &countingVerifier{v: verify.LocalVerifier{}, n: map[string]int{}}
	proveRoot(t, ctx, ref, rv, 1)
	want := bookVerdicts(t, ctx, ref)

	// Forge the first job's result.
	job := rv.jobs[0]
	jb, jopts, err := job.board()
	if err != nil {
		t.Fatal(err)
	}
	forged, err := verify.Verify(ctx, jb, jopts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if forged.Status == verify.StatusProved && len(forged.NullZone) > 1 {
		forged.NullZone = forged.NullZone[:1] // a null zone that leaves out squares that matter
	} else {
		forged.Status, forged.Unsolved = verify.StatusProved, nil // a proof that forgets the defender's replies
	}
	if checkVerdict(ctx, jb, jopts, &forged) == nil {
		t.Fatal("the forged verdict checks: the forgery is not one")
	}
	data, err := encodeVerdict(&forged)
	if err != nil {
		t.Fatal(err)
	}

	var lg testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, Solvers: 1, Client: ClientConfig{Logf: lg.logf, Poll: 50 * time.Millisecond}})
	if _, err := e.Client().q.results.Create(ctx, job.id(), result{worker: "forger", verdict: data}.encode()); err != nil {
		t.Fatal(err)
	}
	bk := newTestBook(t, "queue.c6book")
	cv := &countingVerifier{v: e, n: map[string]int{}}
	proveRoot(t, ctx, bk, cv, 1)
	if !lg.contains(`from worker "forger" rejected`) {
		t.Errorf("no log line for the forged result: %q", lg.lines)
	}
	st, err := e.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rejected != 1 || st.Accepted != len(cv.jobs)-1 {
		t.Errorf("stats %+v: want 1 result rejected and %d accepted", st, len(cv.jobs)-1)
	}
	if len(cv.jobs) == 0 || cv.jobs[0].id() != job.id() {
		t.Fatal("the auto-pilot did not start with the forged job")
	}
	got := bookVerdicts(t, ctx, bk)
	if len(got) != len(want) {
		t.Errorf("%d verdicts through the queue, %d in a single process", len(got), len(want))
	}
	for key, w := range want {
		if v, ok := got[key]; !ok || verdictText(t, v) != verdictText(t, w) {
			t.Errorf("position %x: verdict through the queue %v, single process %s", key, v, verdictText(t, w))
		}
	}
	for id, n := range cv.n {
		if n != 1 {
			t.Errorf("job %s verified %d times", id, n)
		}
	}
}

// A proof book's queue (OpenBookQueue) leaves the certificate check to the
// book's store, the trust boundary: a forged result from a worker (right
// in shape, its certificate does not check) passes the client, and the
// book's Verify refuses it and stores nothing. (A client that checks
// certificates itself rejects it: TestForgedResultRejected.)
func TestBookQueueForgedResultRefusedByStore(t *testing.T) {
	ctx := t.Context()
	// The first small case whose proof rests on a null strategy of more
	// than one square.
	var tc testCase
	for _, c := range smallCases {
		b, o := c.board(t), c.withTol(t)
		o.Workers = 1
		vd, err := verify.Verify(ctx, b, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if vd.Status == verify.StatusProved && len(vd.NullZone) > 1 {
			tc = c
			break
		}
	}
	if tc.rules == "" {
		t.Fatal("no case with a null strategy to forge")
	}
	r, err := game.ParseRules(tc.rules)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "forged.c6book")
	bk, err := proofbook.Create(ctx, path, r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	line, err := bk.AddLine(ctx, tc.board(t).History())
	if err != nil {
		t.Fatal(err)
	}
	id := line.IDs[len(line.IDs)-1]
	cb, err := bk.Board(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	o := tc.withTol(t)
	o.Workers = 1
	job, _ := newJob(cb, o)
	jb, jopts, err := job.board()
	if err != nil {
		t.Fatal(err)
	}
	forged, err := verify.Verify(ctx, jb, jopts, nil)
	if err != nil {
		t.Fatal(err)
	}
	forged.NullZone = forged.NullZone[:1] // leaves out squares that matter
	if err := checkShape(jb, jopts, &forged); err != nil {
		t.Fatalf("the forgery's shape is wrong (%v): the client would reject it", err)
	}
	if checkVerdict(ctx, jb, jopts, &forged) == nil {
		t.Fatal("the forged verdict checks: the forgery is not one")
	}
	data, err := encodeVerdict(&forged)
	if err != nil {
		t.Fatal(err)
	}

	var lg testLog
	lazy := OpenBookQueue(BookQueueConfig{Book: path, Workers: -1, Solvers: 1, Logf: lg.logf,
		Note: func(err error) { t.Errorf("the queue did not start: %v", err) }})
	defer lazy.Close()
	if _, err := lazy.verifier(ctx); err != nil {
		t.Fatal(err)
	}
	e, ok := lazy.Queue().(*Embedded)
	if !ok {
		t.Fatalf("the book's default queue is a %T, want the embedded one", lazy.Queue())
	}
	if _, err := e.Client().q.results.Create(ctx, job.id(), result{worker: "forger", verdict: data}.encode()); err != nil {
		t.Fatal(err)
	}
	_, err = bk.Verify(ctx, id, lazy, o, nil)
	var se *proofbook.StoreError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "certificate does not check") {
		t.Fatalf("Verify with a forged worker result: %v, want the store's refusal", err)
	}
	p, err := bk.Position(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Verdict != nil {
		t.Errorf("the forged verdict was stored: %+v", p.Verdict)
	}
	if p.Proof(game.Black).Status == c6book.StatusProved || p.Proof(game.White).Status == c6book.StatusProved {
		t.Error("the position is proved after a refused verdict")
	}
	st, err := e.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rejected != 0 || st.Accepted != 1 {
		t.Errorf("stats %+v: want the result accepted by the client (the store checks it)", st)
	}
}
