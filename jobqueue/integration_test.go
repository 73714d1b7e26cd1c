package jobqueue

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/verify"
)

// workerProc is a worker process started from the test binary.
type workerProc struct {
	name  string
	cmd   *exec.Cmd
	stdin interface{ Close() error }
	lines chan string // its log lines
	done  chan struct{}

	mu  sync.Mutex
	log []string // every line, and how the process ended
}

// dump is the process's whole log.
func (w *workerProc) dump() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.name + ":\n  " + strings.Join(w.log, "\n  ")
}

func startWorkerProcess(t *testing.T, url, name, creds string) *workerProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+url, workerEnv+"_NAME="+name, workerEnv+"_CREDS="+creds)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &workerProc{name: name, cmd: cmd, stdin: stdin, lines: make(chan string, 1000), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			w.mu.Lock()
			w.log = append(w.log, sc.Text())
			w.mu.Unlock()
			select {
			case w.lines <- sc.Text():
			default:
			}
		}
		err := cmd.Wait()
		w.mu.Lock()
		w.log = append(w.log, fmt.Sprintf("(ended: %v)", err))
		w.mu.Unlock()
	}()
	t.Cleanup(func() {
		w.stop()
		if t.Failed() {
			t.Log(w.dump())
		}
	})
	return w
}

// stop asks the process to leave (stdin closed, SIGINT) and waits for it,
// however long it takes (go test's -timeout is the guard): a worker that
// does not leave on its own is a failure, and no SIGKILL hides it (the
// tests tell the worker they killed from one that ended by itself).
func (w *workerProc) stop() {
	_ = w.stdin.Close()
	_ = w.cmd.Process.Signal(os.Interrupt)
	<-w.done
}

// failingVerifier stands in for the local fallback where a test wants the
// queue to do all the work.
type failingVerifier struct{ calls *int }

func (f failingVerifier) Verify(context.Context, *board.Board, verify.VerifyOptions, func(verify.VerifyProgress)) (verify.Verdict, error) {
	*f.calls++
	return verify.Verdict{}, errors.New("the test expected no local verification")
}

// procQueue is a server on 127.0.0.1 with file storage, a client whose
// fallback fails (the queue must do every job) and worker processes.
type procQueue struct {
	dir, addr  string
	srv        *Server
	client     *Client
	lg         testLog
	localCalls int
	workers    []*workerProc
}

// startProcQueue starts the server, the client and n worker processes;
// the test's end stops them.
func startProcQueue(t *testing.T, ctx context.Context, n int) *procQueue {
	t.Helper()
	p := &procQueue{dir: t.TempDir()}
	srv, err := StartServer(ServerConfig{Dir: p.dir, Listen: "127.0.0.1:0", OpenLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	p.srv, p.addr = srv, srv.addr().String()
	t.Cleanup(func() { p.srv.Shutdown() })
	nc, err := Connect(srv.url(), "", "test-client")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	p.client, err = NewClient(ctx, nc, ClientConfig{AckWait: 2 * time.Second, Poll: 200 * time.Millisecond,
		Fallback: failingVerifier{&p.localCalls}, Logf: p.lg.logf})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		p.workers = append(p.workers, startWorkerProcess(t, srv.url(), fmt.Sprintf("w%d", i), ""))
	}
	return p
}

// restart stops the server and starts it again on the same address and
// storage.
func (p *procQueue) restart(t *testing.T) {
	t.Helper()
	p.srv.Shutdown()
	srv, err := StartServer(ServerConfig{Dir: p.dir, Listen: p.addr, OpenLoopback: true})
	if err != nil {
		t.Fatalf("restart on %s: %v", p.addr, err)
	}
	p.srv = srv
}

// allEnded is closed when every worker process has ended.
func allEnded(workers []*workerProc) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for _, w := range workers {
			<-w.done
		}
		close(ch)
	}()
	return ch
}

// guardBeforeTimeout is closed a minute before go test's -timeout ends the
// test binary (never, without one): a test waiting on other processes
// fails through it with their logs (see startWorkerProcess's cleanup)
// instead of a bare goroutine dump. It decides nothing a slower machine
// could change: -timeout is the guard either way.
func guardBeforeTimeout(t *testing.T) <-chan struct{} {
	ch := make(chan struct{})
	dl, ok := t.Deadline()
	if !ok {
		return ch
	}
	tm := time.AfterFunc(time.Until(dl)-time.Minute, func() { close(ch) })
	t.Cleanup(func() { tm.Stop() })
	return ch
}

// watchWorkers calls f with each log line of each worker, from a
// goroutine per worker, until the worker ends; wait on the WaitGroup.
func watchWorkers(workers []*workerProc, f func(w *workerProc, line string)) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case line := <-w.lines:
					f(w, line)
				case <-w.done:
					return
				}
			}
		}()
	}
	return &wg
}

// Three worker processes on 127.0.0.1 run a batch; the one running the
// longest job is killed with SIGKILL mid-job and the server is restarted
// right after; the verdicts equal a single-process run's and no result is
// used twice.
func TestWorkerProcessesKillAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	cases := append(append([]testCase{}, smallCases...), c6Cases...)
	long := cases[len(cases)-1]
	longJob, _ := newJob(long.board(t), long.withTol(t))
	longID := longJob.id()
	want := localVerdicts(t, cases)

	ctx := t.Context()
	pq := startProcQueue(t, ctx, 3)
	client, workers := pq.client, pq.workers

	// Watch the workers' logs: kill the one that starts the long job, then
	// restart the server.
	var logMu sync.Mutex
	var logs []string
	killed := make(chan string, 1)
	var killOnce sync.Once // only the first worker to start the long job
	wg := watchWorkers(workers, func(w *workerProc, line string) {
		logMu.Lock()
		logs = append(logs, line)
		logMu.Unlock()
		if strings.Contains(line, "job "+longID+": start") {
			killOnce.Do(func() {
				_ = w.cmd.Process.Kill() // SIGKILL, mid-job
				killed <- w.name
			})
		}
	})

	// Should the long job never start (every worker gone, or a hang),
	// fail with the workers' logs shortly before go test's -timeout
	// would end the run with nothing but a goroutine dump.
	guard := guardBeforeTimeout(t)
	got := make(chan [][]byte, 1)
	go func() { got <- runBatch(t, ctx, client, cases) }()
	var victim string
	select {
	case victim = <-killed: // the long job started, its worker is killed
	case <-allEnded(workers):
		t.Fatalf("every worker ended before the long job started")
	case <-guard:
		t.Fatalf("the long job never started before the test's time ran out")
	}
	pq.restart(t)
	var res [][]byte
	select {
	case res = <-got: // the batch finished
	case <-guard:
		t.Fatalf("the batch did not finish before the test's time ran out")
	}
	sameVerdicts(t, cases, want, res)
	if pq.localCalls != 0 {
		t.Errorf("%d jobs verified locally: %q", pq.localCalls, pq.lg.lines)
	}

	// A worker publishes a job's result before it acks the job, so the
	// batch can end with that ack still on its way: the queue must settle
	// to nothing queued or running, however long the ack takes.
	var st Stats
	for {
		var err error
		if st, err = client.Stats(ctx); err != nil {
			t.Fatal(err)
		}
		if st.Done != len(cases) || st.Queued == 0 && st.Running == 0 {
			break
		}
		select {
		case <-guard:
			t.Fatalf("the queue did not settle before the test's time ran out: %+v", st)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if st.Done != len(cases) || st.Queued != 0 || st.Running != 0 {
		t.Errorf("stats after the batch: %+v, want %d results and nothing queued or running", st, len(cases))
	}
	client.mu.Lock()
	for id, n := range client.accepted {
		if n != 1 {
			t.Errorf("result of job %s used %d times", id, n)
		}
	}
	if len(client.accepted) != len(cases) {
		t.Errorf("%d results used, want %d", len(client.accepted), len(cases))
	}
	client.mu.Unlock()

	for _, w := range workers {
		w.stop()
	}
	wg.Wait()
	logMu.Lock()
	defer logMu.Unlock()
	starts, doneBy := 0, ""
	for _, l := range logs {
		if strings.Contains(l, "job "+longID+": start") {
			starts++
		}
		if strings.Contains(l, "job "+longID+": done") {
			doneBy = strings.Fields(l)[1]
		}
	}
	for _, w := range workers {
		if strings.Contains(w.dump(), "signal: killed") != (w.name == victim) {
			t.Errorf("worker %s ended unexpectedly (victim: %s):\n%s", w.name, victim, w.dump())
		}
	}
	if starts < 2 || doneBy == "" || doneBy == victim+":" {
		t.Errorf("long job: %d starts, finished by %q (killed: %s); want a redelivery finished by another worker\n%s", starts, doneBy, victim, strings.Join(logs, "\n"))
	}
}

// The caller's process goes away after queueing a job; the job is run
// while it is gone, and the next caller (after a server restart too) gets
// the stored result without running the job again.
func TestResultSurvivesCallerRestart(t *testing.T) {
	dir := t.TempDir()
	tc := smallCases[1]
	b, o := tc.board(t), tc.withTol(t)
	want := localVerdicts(t, []testCase{tc})[0]
	job, _ := newJob(b, o)

	srv, err := StartServer(ServerConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	nc1, err := srv.connectInProcess("caller-1")
	if err != nil {
		t.Fatal(err)
	}
	c1, err := NewClient(ctx, nc1, ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// No worker yet: the job waits in the queue; then the caller's
	// connection drops as a killed process's does (a caller whose context
	// ends gives its job up instead: TestCancelStopsJob).
	verr := make(chan error, 1)
	go func() {
		_, err := c1.Verify(ctx, b, o, nil)
		verr <- err
	}()
	for { // until it is queued
		if _, err := c1.q.stream.GetLastMsgForSubject(ctx, jobSubject+job.id()); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	nc1.Close() // the caller is gone; its job is queued
	if err := <-verr; err == nil || ctx.Err() != nil {
		t.Fatalf("no worker, the caller's connection closed: Verify returned %v", err)
	}

	wnc, err := srv.connectInProcess("worker")
	if err != nil {
		t.Fatal(err)
	}
	wctx, wstop := context.WithCancel(ctx)
	var done atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = RunWorker(wctx, wnc, WorkerConfig{Jobs: 1, Logf: func(string, ...any) {}, Stats: func(wi workerInfo) { done.Store(int64(wi.Done)) }})
	}()
	for done.Load() == 0 { // until the worker has run the job
		time.Sleep(10 * time.Millisecond)
	}
	wstop()
	wg.Wait()
	wnc.Close()
	if done.Load() != 1 {
		t.Fatalf("worker ran %d jobs, want 1", done.Load())
	}
	srv.Shutdown()

	srv, err = StartServer(ServerConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc2, err := srv.connectInProcess("caller-2")
	if err != nil {
		t.Fatal(err)
	}
	defer nc2.Close()
	var localCalls int
	c2, err := NewClient(ctx, nc2, ClientConfig{Fallback: failingVerifier{&localCalls}})
	if err != nil {
		t.Fatal(err)
	}
	vd, err := c2.Verify(ctx, b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, vd)) != string(want) {
		t.Errorf("picked-up verdict %s differs from the local one", summary(vd))
	}
	if c2.accepted[job.id()] != 1 || localCalls != 0 {
		t.Errorf("stored result used %d times, %d local runs; want 1 and 0", c2.accepted[job.id()], localCalls)
	}
}
