package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"c6book/jobqueue"
)

// The verifier queue of `c6 book prove`: by default an embedded NATS
// server beside the book (BOOK.jobs, on no network: in-process
// connections only) with --jobs in-process workers, opened on the first
// verifier call and closed at the end; --nats URL an external server
// instead; --listen ADDR --creds FILE the embedded one on a network
// address, for `c6 worker`s on other machines.

type proveQueueFlags struct {
	url, creds, listen string
	local              int
	none               bool
}

func (q *proveQueueFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&q.url, "nats", "", "use the verifier queue of an external NATS server at `URL` (nats://host:4222) instead of the one embedded beside the book")
	fs.StringVar(&q.creds, "creds", "", "credentials `FILE` (a NATS user nkey seed) for --nats, or the one workers must hold with --listen (created if missing)")
	fs.StringVar(&q.listen, "listen", "", "open the embedded queue on `ADDR` (host:port) for `c6 worker`s on other machines; needs --creds (loopback too); without it the queue listens on no network")
	fs.IntVar(&q.local, "local-jobs", 0, "with --nats: job slots this process adds to the queue (0: remote workers only)")
	fs.BoolVar(&q.none, "no-queue", false, "verify in this process without the verifier queue (no folder beside the book)")
}

func (q *proveQueueFlags) check() error {
	switch {
	case q.none && (q.url != "" || q.listen != "" || q.creds != "" || q.local != 0):
		return errors.New("--no-queue: no --nats, --listen, --creds or --local-jobs")
	case q.url != "" && q.listen != "":
		return errors.New("--nats and --listen: give one (an external queue, or the embedded one on a network address)")
	case q.creds != "" && q.url == "" && q.listen == "":
		return errors.New("--creds goes with --nats or --listen")
	case q.local != 0 && q.url == "":
		return errors.New("--local-jobs goes with --nats (the embedded queue runs --jobs in this process)")
	case q.local < 0:
		return fmt.Errorf("--local-jobs %d: want 0 or more", q.local)
	case q.listen != "":
		return checkListen(q.listen, q.creds)
	}
	return nil
}

// checkListen refuses, before anything is created, a listen address that
// cannot work and one without credentials: a queue that listens, on a
// loopback address too (every local user reaches it), takes jobs and
// results only from holders of the key.
func checkListen(listen, creds string) error {
	_, _, err := jobqueue.CheckListen(listen, creds != "", false)
	if errors.Is(err, jobqueue.ErrOpenNetwork) {
		return fmt.Errorf("--listen %s needs credentials (--creds FILE, created if missing): a queue on a network address, loopback too, takes results only from the key's holders", listen)
	}
	return err
}

// proveQueue is the queue of one `c6 book prove` run and its state for the
// progress line and the summary.
type proveQueue struct {
	lazy  *jobqueue.Lazy
	flags proveQueueFlags

	mu        sync.Mutex
	last      jobqueue.Stats
	seen      bool // last is set
	doneStart int  // results stored when the queue opened
	opened    time.Time
	stop      context.CancelFunc
	wg        sync.WaitGroup
}

// openProveQueue prepares the queue (opened by the first verifier call).
// jobs is the in-process job slots of the embedded queue, solvers each
// job's solver calls.
func openProveQueue(f proveQueueFlags, bookPath string, jobs, solvers int, stderr io.Writer) *proveQueue {
	p := &proveQueue{flags: f}
	p.lazy = jobqueue.OpenBookQueue(jobqueue.BookQueueConfig{Book: bookPath, None: f.none,
		URL: f.url, Creds: f.creds, Name: "c6-prove", RemoteWorkers: f.local, Listen: f.listen,
		Workers: jobs, Solvers: solvers,
		Logf: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) },
		// The default queue is an implementation detail: when the folder
		// beside the book cannot hold it, verify here as before.
		Note: func(err error) {
			fmt.Fprintf(stderr, "verifier queue not started (%v): verifying in this process\n", err)
		},
		Prepare: func() error { return ensureCreds(f.creds, stderr) },
		Opened: func(q jobqueue.Queue) {
			if e, ok := q.(*jobqueue.Embedded); ok && f.listen != "" {
				if e.Joined() {
					fmt.Fprintf(stderr, "the queue beside the book is served by another process, at %s: --listen is its\n", q.URL())
				} else {
					fmt.Fprintf(stderr, "verifier queue on %s: workers join with c6 worker --nats %s --creds FILE\n", q.URL(), q.URL())
				}
			}
			p.started(q)
		}})
	return p
}

// started samples the queue once and then every second, for the progress
// line (which must not wait for the server).
func (p *proveQueue) started(q jobqueue.Queue) {
	ctx, stop := context.WithCancel(context.Background())
	p.mu.Lock()
	p.stop, p.opened = stop, time.Now()
	p.mu.Unlock()
	record := func(st jobqueue.Stats, first bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if first {
			p.doneStart = st.Done
		}
		p.last, p.seen = st, true
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		st, err := q.Stats(rctx)
		cancel()
		if err == nil {
			record(st, true)
		}
		watchStats(ctx, q.Stats, time.Second, func(st jobqueue.Stats) { record(st, false) })
	}()
}

// line is the queue's part of the progress line ("" before it opens).
func (p *proveQueue) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen {
		return ""
	}
	s := p.last
	out := fmt.Sprintf("  queue: %d workers, %d queued, %d running, %d done, %.1f jobs/s", s.Workers, s.Queued, s.Running, s.Done, s.Throughput)
	if s.Rejected > 0 {
		out += fmt.Sprintf(", %d rejected", s.Rejected)
	}
	return out
}

// queueJSON is the queue in prove's summary.
type queueJSON struct {
	Where      string  `json:"where"` // "embedded", "nats", "local" (not opened, or could not be)
	URL        string  `json:"url,omitempty"`
	Workers    int     `json:"workers"`
	Slots      int     `json:"slots"`
	Queued     int     `json:"queued"`
	Running    int     `json:"running"`
	Done       int     `json:"done"`     // results stored in the queue
	DoneHere   int     `json:"done_run"` // of them, stored during this run
	Throughput float64 `json:"throughput"`
	Accepted   int     `json:"accepted"`
	Rejected   int     `json:"rejected"`
}

// close stops the sampling, reads the queue's state a last time and
// closes the queue (its in-process workers hand their jobs back).
func (p *proveQueue) close() queueJSON {
	q := p.lazy.Queue()
	out := queueJSON{Where: "local"}
	if q != nil {
		p.mu.Lock()
		stop, opened, doneStart := p.stop, p.opened, p.doneStart
		p.mu.Unlock()
		stop()
		p.wg.Wait()
		out.Where, out.URL = "embedded", q.URL()
		if p.flags.url != "" {
			out.Where = "nats"
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		st, err := q.Stats(ctx)
		cancel()
		if err == nil {
			out.Workers, out.Slots, out.Queued, out.Running, out.Done = st.Workers, st.Slots, st.Queued, st.Running, st.Done
			out.DoneHere = max(0, st.Done-doneStart)
			out.Accepted, out.Rejected = st.Accepted, st.Rejected
			if dt := time.Since(opened).Seconds(); dt > 0 {
				out.Throughput = float64(out.DoneHere) / dt
			}
		}
	}
	p.lazy.Close()
	return out
}

// ensureCreds creates a missing credentials file with a new key.
func ensureCreds(path string, stderr io.Writer) error {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return nil // an unreadable file says so when the server reads it
	}
	if err := jobqueue.NewCredsFile(path); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "created credentials %s: copy it to the worker machines (c6 worker --creds FILE)\n", path)
	return nil
}
