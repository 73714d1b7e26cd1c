package jobqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strconv"
	"sync"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/internal/latest"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// ClientConfig configures a Client.
type ClientConfig struct {
	// Fallback runs a job whose result is rejected (its certificate does
	// not check, it cannot be decoded, the worker met an error). Nil:
	// verify.LocalVerifier.
	Fallback verify.Verifier
	// Logf logs rejected results (nil: log.Printf).
	Logf func(format string, args ...any)
	// AckWait sets the queue's ack deadline: a job whose worker goes
	// silent for that long is handed to another worker (0: keep the
	// queue's, 30 s for a new queue).
	AckWait time.Duration
	// Poll is how often a waiting Verify first looks for its result
	// besides the worker's wake-up message; the interval doubles up to
	// 10 Poll (0: 1 s).
	Poll time.Duration
	// storeChecks says that the caller stores every verdict with a store
	// that re-checks its certificate (proofbook's StoreVerdict, the trust
	// boundary): a result then passes checkShape here and its certificate
	// is checked once, by the store, which refuses a forged one. Without
	// it every result passes checkVerdict before the caller sees it.
	storeChecks bool
}

// Client is a verify.Verifier that runs jobs through the queue. It never
// trusts a result: each one passes checkVerdict (the independent checker;
// checkShape when the caller's store checks certificates, storeChecks) or
// is rejected, logged, and the job run by the fallback verifier.
// A Client is safe for concurrent use.
type Client struct {
	nc  *nats.Conn
	q   *queue
	cfg ClientConfig

	mu       sync.Mutex
	accepted map[string]int // results accepted, by job id
	rejected int
	last     statSample
}

type statSample struct {
	at   time.Time
	done uint64
}

// NewClient opens the queue on nc (creating its stream and buckets when
// missing). The caller keeps nc and closes it after the client is done.
func NewClient(ctx context.Context, nc *nats.Conn, cfg ClientConfig) (*Client, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	q, err := openQueue(ctx, js, cfg.AckWait)
	if err != nil {
		return nil, err
	}
	if cfg.Fallback == nil {
		cfg.Fallback = verify.LocalVerifier{}
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	return &Client{nc: nc, q: q, cfg: cfg, accepted: map[string]int{}}, nil
}

var _ verify.Verifier = (*Client)(nil)

// Verify queues the job of verifying b with opts (or finds its result
// already stored, from an earlier run or another caller), waits for its
// result, checks it, and returns the verdict in b's frame. See
// verify.Verifier for the contract. Progress comes from the worker running
// the job, when it sends any.
func (c *Client) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	job, sym := newJob(b, opts)
	if err := job.compatible(); err != nil {
		// Rules no worker of this build runs: the local engine says why.
		return c.cfg.Fallback.Verify(ctx, b, opts, progress)
	}
	jb, jopts, err := job.board()
	if err != nil {
		return verify.Verdict{}, err
	}
	id := job.id()
	prio := opts.Priority
	if prio == 0 {
		prio = time.Now().UnixNano()
	}

	entry, err := c.await(ctx, job, id, prio, progress)
	if err != nil {
		if ctx.Err() != nil {
			c.abandon(id)
		}
		return verify.Verdict{}, err
	}
	return c.use(ctx, b, jb, jopts, sym, id, entry, opts, progress)
}

// await publishes the job unless its result is stored already, and waits
// for the result. Progress reports stop before it returns.
func (c *Client) await(ctx context.Context, job jobSpec, id string, prio int64, progress func(verify.VerifyProgress)) (jetstream.KeyValueEntry, error) {
	wake := make(chan struct{}, 1)
	sub, err := c.nc.Subscribe(doneSubject+id, func(*nats.Msg) {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if progress != nil {
		stop := forwardProgress(ctx, c.nc, id, progress)
		defer stop()
	}

	published, recheck := false, false
	wait := c.cfg.Poll // grows to 10 Poll: the worker's wake-up is the fast path
	for polls := 0; ; polls++ {
		if c.nc.IsClosed() {
			return nil, nats.ErrConnectionClosed // nothing can come back
		}
		// Lost job: not in the stream (a worker removes it only after
		// storing its result) and no result: publish it again.
		// Every request has a time limit of its own: a request the
		// server never answers (it is restarting) is tried again.
		rctx, cancel := context.WithTimeout(ctx, requestTimeout)
		missing := false
		if published && (recheck || polls%5 == 0) {
			_, err := c.q.stream.GetLastMsgForSubject(rctx, jobSubject+id)
			missing = errors.Is(err, jetstream.ErrMsgNotFound)
			recheck = false
		}
		entry, err := c.q.results.Get(rctx, id)
		cancel()
		switch {
		case err == nil:
			return entry, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
		if !published || missing {
			// The first publish carries the job's id, so that callers
			// asking at once queue it once. A publish the server takes
			// for a duplicate of one made within its window may stand
			// for a job that is gone since (cancelled by its caller,
			// lost): look at once, and publish a job found missing again
			// under a message id of its own, which no window drops.
			msgID := id
			if published {
				msgID = id + "." + nuid.Next()
			}
			rctx, cancel := context.WithTimeout(ctx, requestTimeout)
			msg := &nats.Msg{Subject: jobSubject + id, Data: job.encode(), Header: nats.Header{}}
			msg.Header.Set(priorityHeader, strconv.FormatInt(prio, 10))
			ack, err := c.q.js.PublishMsg(rctx, msg, jetstream.WithMsgID(msgID))
			cancel()
			if err == nil {
				published = true
				if ack.Duplicate {
					recheck = true
					continue
				}
			} else if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		t := time.NewTimer(wait)
		wait = min(2*wait, 10*c.cfg.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// abandon gives up job id for a caller whose context ended: it deletes the
// job's message if it is still queued and tells the workers, so that the
// one running it stops (best effort: a job that ends meanwhile keeps its
// result for whoever asks next). Another caller still waiting for the same
// job finds it missing and queues it again.
func (c *Client) abandon(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if m, err := c.q.stream.GetLastMsgForSubject(ctx, jobSubject+id); err == nil {
		_ = c.q.stream.DeleteMsg(ctx, m.Sequence)
	}
	_ = c.nc.Publish(cancelSubject+id, nil)
	_ = c.nc.FlushTimeout(requestTimeout)
}

// use checks a stored result and returns its verdict in b's frame, or
// rejects it and runs the job with the fallback verifier.
func (c *Client) use(ctx context.Context, b, jb *board.Board, jopts verify.VerifyOptions, sym int, id string, entry jetstream.KeyValueEntry, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	res, err := decodeResult(entry.Value())
	var vd verify.Verdict
	if err == nil {
		switch {
		case res.err != "":
			err = fmt.Errorf("the worker failed: %s", res.err)
		case res.parts != "":
			if err = c.q.getParts(ctx, &res); err != nil {
				break
			}
			fallthrough
		default:
			vd, err = decodeVerdict(jb.Rules(), res.verdict)
		}
	}
	if err == nil && vd.Engine != verify.EngineVersion {
		err = fmt.Errorf("verdict of engine %q, asked for %q", vd.Engine, verify.EngineVersion)
	}
	if err == nil {
		if c.cfg.storeChecks {
			err = checkShape(jb, jopts, &vd)
		} else {
			err = checkVerdict(ctx, jb, jopts, &vd)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return verify.Verdict{}, ctx.Err()
		}
		c.mu.Lock()
		c.rejected++
		c.mu.Unlock()
		c.cfg.Logf("jobqueue: result of job %s from worker %q rejected: %v; verifying it here", id, res.worker, err)
		// Drop the bad result so that no later caller meets it (only this
		// revision: a good result stored meanwhile stays).
		if c.q.results.Delete(ctx, id, jetstream.LastRevision(entry.Revision())) == nil {
			c.q.dropParts(ctx, res)
		}
		return c.cfg.Fallback.Verify(ctx, b, opts, progress)
	}
	c.mu.Lock()
	c.accepted[id]++
	c.mu.Unlock()
	if sym != 0 {
		vd = vd.Transform(b.Rules(), game.InverseSymmetry(sym))
	}
	return vd, nil
}

// forwardProgress passes the running job's progress reports to progress
// from a goroutine of its own, the latest one at a time (latest.Box);
// stop ends it (and waits for a call in flight unless ctx is done).
func forwardProgress(ctx context.Context, nc *nats.Conn, id string, progress func(verify.VerifyProgress)) (stop func()) {
	box := &latest.Box[verify.VerifyProgress]{Deliver: progress}
	sub, err := nc.Subscribe(progressPrefix+id, func(m *nats.Msg) {
		var p verify.VerifyProgress
		if json.Unmarshal(m.Data, &p) != nil {
			return
		}
		box.Put(p)
	})
	return func() {
		if err == nil {
			_ = sub.Unsubscribe()
		}
		box.Close(ctx)
	}
}

// Stats is the state of the queue.
type Stats struct {
	Workers int // workers connected
	Slots   int // their job slots
	Queued  int // jobs waiting for a worker
	Running int // jobs handed to a worker, not finished
	Done    int // results stored
	// Throughput is results stored per second since this client's
	// previous Stats call (0 on the first).
	Throughput float64
	// Accepted and Rejected count this client's results: accepted after
	// the check, rejected and run by the fallback verifier.
	Accepted, Rejected int
	// WorkerList describes each connected worker.
	WorkerList []workerInfo
}

// workerInfo is what a worker reports about itself.
type workerInfo struct {
	Name    string    `json:"name"`
	Host    string    `json:"host"`
	Engine  string    `json:"engine"`
	Slots   int       `json:"slots"`
	Running int       `json:"running"`
	Done    int       `json:"done"`
	Refused int       `json:"refused"`
	Started time.Time `json:"started"`
}

// Stats reads the queue's state.
func (c *Client) Stats(ctx context.Context) (Stats, error) {
	return stats(ctx, c.q, func(s *Stats) {
		c.mu.Lock()
		defer c.mu.Unlock()
		now := time.Now()
		if !c.last.at.IsZero() && uint64(s.Done) >= c.last.done {
			if dt := now.Sub(c.last.at).Seconds(); dt > 0 {
				s.Throughput = float64(uint64(s.Done)-c.last.done) / dt
			}
		}
		c.last = statSample{at: now, done: uint64(s.Done)}
		for _, n := range c.accepted {
			s.Accepted += n
		}
		s.Rejected = c.rejected
	})
}

func stats(ctx context.Context, q *queue, fill func(*Stats)) (Stats, error) {
	var s Stats
	ci, err := q.cons.Info(ctx)
	if err != nil {
		return s, err
	}
	s.Queued = int(ci.NumPending)
	s.Running = ci.NumAckPending
	st, err := q.results.Status(ctx)
	if err != nil {
		return s, err
	}
	s.Done = int(st.Values())
	keys, err := q.workers.ListKeys(ctx)
	if err != nil {
		return s, err
	}
	for k := range keys.Keys() {
		e, err := q.workers.Get(ctx, k)
		if err != nil {
			continue // gone meanwhile
		}
		var wi workerInfo
		if json.Unmarshal(e.Value(), &wi) == nil {
			s.WorkerList = append(s.WorkerList, wi)
			s.Workers++
			s.Slots += wi.Slots
		}
	}
	if fill != nil {
		fill(&s)
	}
	return s, nil
}

// String is a one-line summary.
func (s Stats) String() string {
	return fmt.Sprintf("%d workers (%d slots), %d jobs queued, %d running, %d done, %.2f jobs/s", s.Workers, s.Slots, s.Queued, s.Running, s.Done, s.Throughput)
}
