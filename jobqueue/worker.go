package jobqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"c6book/engine/board"
	"c6book/engine/verify"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// WorkerConfig configures RunWorker.
type WorkerConfig struct {
	// Jobs is the number of jobs run at once (0: 1).
	Jobs int
	// Solvers is each job's parallel solver calls (0: the cores divided
	// by Jobs, at least 1). With more than one job, the Jobs x Solvers
	// calls are shared: a job may use the slots the others leave idle,
	// the oldest job first (verify.Gate). It does not change verdicts.
	Solvers int
	// Name names the worker in logs and stats (0: host name).
	Name string
	// Logf logs each job taken, refused and finished (nil: log.Printf).
	Logf func(format string, args ...any)
	// Stats, when not nil, is called after every job with the worker's
	// counts (from the job's goroutine: it must not block).
	Stats func(workerInfo)
	// inlineMax is the largest result stored as one message; a larger
	// one is stored in parts (0: the server's message limit; tests set
	// a small one).
	inlineMax int
}

// worker is RunWorker's state.
type worker struct {
	nc   *nats.Conn
	q    *queue
	cfg  WorkerConfig
	info workerInfo
	key  string

	running, done, refused atomic.Int64
	infoMu                 sync.Mutex

	// gate shares the worker's Jobs x Solvers solver slots among its
	// running jobs, the lowest priority first (jobPriority: the search's
	// first choice, then the oldest); nil with one job at a time.
	gate *verify.Gate

	// jobsMu guards cancels: the running jobs' cancel functions by job id,
	// for the callers' cancel messages (cancelSubject).
	jobsMu  sync.Mutex
	cancels map[string]*jobCancel
}

// jobCancel stops one running job; asked is set when its caller cancelled
// it (not the worker shutting down).
type jobCancel struct {
	stop  context.CancelFunc
	asked atomic.Bool
}

// RunWorker pulls jobs from the queue on nc and runs them until ctx is
// done: each job it can run (same engine version and job encoding, rules
// the engine supports) is verified with verify.Verify, its result stored
// under the job's id and the job acknowledged. A job it cannot run is
// refused with a log line and no answer, and handed back to the queue for
// a compatible worker. While a job runs the worker tells the server it is
// in progress, so only a worker that died loses its job (to another worker,
// after the ack deadline). A job whose result is already stored is not run
// again. On return (ctx done) a job in progress is handed back at once.
func RunWorker(ctx context.Context, nc *nats.Conn, cfg WorkerConfig) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	// A server that is starting or busy may not answer the queue's
	// requests in time: try again (pausing up to 5 s, each failure
	// logged) until the queue is open or ctx is done.
	var q *queue
	for pause := 250 * time.Millisecond; ; pause = min(2*pause, 5*time.Second) {
		if q, err = openQueue(ctx, js, 0); err == nil {
			break
		}
		cfg.Logf("worker %s: %v; trying again in %s", cfg.Name, err, pause)
		sleepCtx(ctx, pause)
		if ctx.Err() != nil {
			return fmt.Errorf("%w (gave up opening the queue: %v)", ctx.Err(), err)
		}
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = 1
	}
	if cfg.Solvers <= 0 {
		cfg.Solvers = max(1, runtime.NumCPU()/cfg.Jobs)
	}
	host, _ := os.Hostname()
	if cfg.Name == "" {
		cfg.Name = host
	}
	w := &worker{nc: nc, q: q, cfg: cfg, key: keySafe(cfg.Name) + "-" + nuid.Next(), cancels: map[string]*jobCancel{},
		info: workerInfo{Name: cfg.Name, Host: host, Engine: verify.EngineVersion, Slots: cfg.Jobs, Started: time.Now()}}
	if cfg.Jobs > 1 {
		w.gate = verify.NewGate(cfg.Jobs * cfg.Solvers)
	}
	// A caller that gives up on a job says so: the job stops here if it
	// runs (and is not handed to another worker).
	sub, err := nc.Subscribe(cancelSubject+"*", func(m *nats.Msg) {
		id := m.Subject[len(cancelSubject):]
		w.jobsMu.Lock()
		jc := w.cancels[id]
		w.jobsMu.Unlock()
		if jc != nil {
			jc.asked.Store(true)
			jc.stop()
		}
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.heartbeat(ctx)
	}()
	for i := 0; i < cfg.Jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(ctx)
		}()
	}
	wg.Wait()
	dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = q.workers.Delete(dctx, w.key)
	return nil
}

// keySafe keeps the characters a KV key allows.
func keySafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

func (w *worker) snapshot() workerInfo {
	w.infoMu.Lock()
	defer w.infoMu.Unlock()
	wi := w.info
	wi.Running, wi.Done, wi.Refused = int(w.running.Load()), int(w.done.Load()), int(w.refused.Load())
	return wi
}

// heartbeat keeps the worker's key in the workers bucket while it runs.
func (w *worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		if data, err := json.Marshal(w.snapshot()); err == nil {
			_, _ = w.q.workers.Put(ctx, w.key, data)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// loop is one job slot. It returns as soon as ctx is done: a job that
// arrives after that is handed back (Nak) by a goroutine that ends with
// the fetch (at most its wait, or when the connection closes).
func (w *worker) loop(ctx context.Context) {
	for ctx.Err() == nil {
		batch, err := w.q.cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			sleepCtx(ctx, 500*time.Millisecond) // server away: nats reconnects
			continue
		}
	fetch:
		for {
			select {
			case msg, ok := <-batch.Messages():
				if !ok {
					break fetch
				}
				if ctx.Err() != nil {
					_ = msg.Nak()
					continue
				}
				w.handle(ctx, msg)
			case <-ctx.Done():
				go func() {
					for msg := range batch.Messages() {
						_ = msg.Nak()
					}
				}()
				return
			}
		}
	}
}

func (w *worker) handle(ctx context.Context, msg jetstream.Msg) {
	job, err := decodeJob(msg.Data())
	if err != nil {
		w.refused.Add(1)
		w.cfg.Logf("worker %s: refusing an unreadable job on %s: %v (terminated)", w.cfg.Name, msg.Subject(), err)
		_ = msg.Term()
		return
	}
	id := job.id()
	if err := job.compatible(); err != nil {
		w.refused.Add(1)
		w.cfg.Logf("worker %s: refusing job %s: %v (left for a compatible worker)", w.cfg.Name, msg.Subject()[len(jobSubject):], err)
		_ = msg.NakWithDelay(refuseDelay)
		return
	}
	if msg.Subject() != jobSubject+id {
		w.refused.Add(1)
		w.cfg.Logf("worker %s: refusing job on %s: its id is %s (terminated)", w.cfg.Name, msg.Subject(), id)
		_ = msg.Term()
		return
	}
	if _, err := w.q.results.Get(ctx, id); err == nil {
		_ = msg.Ack() // done already (redelivered after its result was stored)
		_ = w.nc.Publish(doneSubject+id, nil)
		return
	}
	b, opts, err := job.board()
	w.running.Add(1)
	defer w.running.Add(-1)
	start := time.Now()
	prio := jobPriority(msg)
	w.cfg.Logf("worker %s: job %s: start (%s, %d stones, λ%d, tolerance %d, priority %d)", w.cfg.Name, id, job.Rules, len(job.Black)+len(job.White), job.Lambda, job.Tol, prio)
	res := result{worker: w.cfg.Name}
	if err == nil {
		opts.Workers = w.cfg.Solvers
		if w.gate != nil {
			// Every job may use all the worker's solver slots; the gate
			// keeps the total to Jobs x Solvers, the lowest priority first.
			opts.Workers = w.cfg.Jobs * w.cfg.Solvers
			opts.Gate, opts.Priority = w.gate, prio
		}
		var vd verify.Verdict
		var cancelled bool
		vd, cancelled, err = w.verify(ctx, msg, id, b, opts)
		if ctx.Err() != nil {
			_ = msg.Nak() // shutting down: another worker takes it now
			w.cfg.Logf("worker %s: job %s: stopped, handed back", w.cfg.Name, id)
			return
		}
		if cancelled {
			_ = msg.Term() // its caller gave it up: nobody else runs it either
			w.cfg.Logf("worker %s: job %s: cancelled by its caller after %s", w.cfg.Name, id, time.Since(start).Round(time.Millisecond))
			return
		}
		if err == nil {
			res.verdict, err = encodeVerdict(&vd)
		}
	}
	if err != nil {
		res.err = err.Error()
	}
	if err := w.store(ctx, id, res); err != nil {
		w.cfg.Logf("worker %s: job %s: result not stored (%v), handed back", w.cfg.Name, id, err)
		_ = msg.Nak()
		return
	}
	actx, cancel := context.WithTimeout(ctx, 5*time.Second)
	_ = msg.DoubleAck(actx)
	cancel()
	_ = w.nc.Publish(doneSubject+id, nil)
	w.done.Add(1)
	status := "error: " + res.err
	if res.err == "" {
		status = "done"
	}
	w.cfg.Logf("worker %s: job %s: %s in %s", w.cfg.Name, id, status, time.Since(start).Round(time.Millisecond))
	if w.cfg.Stats != nil {
		w.cfg.Stats(w.snapshot())
	}
}

// verify runs the job, telling the server it is in progress and sending
// progress reports (at most one a second) on the job's progress subject;
// cancelled reports that its caller cancelled it (a cancel message).
func (w *worker) verify(ctx context.Context, msg jetstream.Msg, id string, b *board.Board, opts verify.VerifyOptions) (_ verify.Verdict, cancelled bool, _ error) {
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jc := &jobCancel{stop: cancel}
	w.jobsMu.Lock()
	w.cancels[id] = jc
	w.jobsMu.Unlock()
	defer func() {
		w.jobsMu.Lock()
		if w.cancels[id] == jc {
			delete(w.cancels, id)
		}
		w.jobsMu.Unlock()
	}()
	every := w.q.ackWait() / 3
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-jctx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	var last atomic.Int64
	vd, err := verify.Verify(jctx, b, opts, func(p verify.VerifyProgress) {
		now := time.Now().UnixNano()
		if now-last.Load() < int64(time.Second) {
			return
		}
		last.Store(now)
		if data, err := json.Marshal(p); err == nil {
			_ = w.nc.Publish(progressPrefix+id, data)
		}
	})
	cancel()
	wg.Wait()
	if jc.asked.Load() && err != nil && ctx.Err() == nil {
		return vd, true, err
	}
	return vd, false, err
}

// store writes the result once; a result already there (another worker's)
// is kept. A result larger than one message is written in parts first
// (result.split), its reference last: a reader never meets a reference to
// parts not yet written. Errors are retried for a while (the server may
// be restarting).
func (w *worker) store(ctx context.Context, id string, res result) error {
	limit := w.cfg.inlineMax
	if limit <= 0 {
		limit = int(w.nc.MaxPayload()) - messageRoom
	}
	res.split(id, limit)
	var err error
	for try := 0; try < 20 && ctx.Err() == nil; try++ {
		if try > 0 {
			sleepCtx(ctx, 500*time.Millisecond)
		}
		if res.parts != "" {
			if err = w.q.putParts(ctx, res); err != nil {
				continue
			}
		}
		_, err = w.q.results.Create(ctx, id, res.encode())
		if errors.Is(err, jetstream.ErrKeyExists) {
			w.q.dropParts(ctx, res) // another worker's result is stored
			return nil
		}
		if err == nil {
			return nil
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return fmt.Errorf("storing the result: %w", err)
}

// jobPriority is the job message's priority (priorityHeader), or, for a
// message without one (a client of an older build), the time the worker
// took it: the lower runs first.
func jobPriority(msg jetstream.Msg) int64 {
	if h := msg.Headers(); h != nil {
		if p, err := strconv.ParseInt(h.Get(priorityHeader), 10, 64); err == nil {
			return p
		}
	}
	return time.Now().UnixNano()
}
