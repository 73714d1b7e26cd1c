package jobqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"c6book/engine/board"
	"c6book/engine/verify"

	"github.com/nats-io/nats.go"
)

// EmbeddedConfig configures StartEmbedded.
type EmbeddedConfig struct {
	// Server: the storage folder (required; QueueDir(book) beside a book),
	// the listen address (default none: no socket, only this process's
	// client and workers reach the server) and the credentials a network
	// address needs.
	Server ServerConfig
	// Workers is the number of in-process job slots (0: 1); Solvers each
	// job's parallel solver calls (0: the cores divided by Workers). With
	// the defaults a single user's verdicts are those of
	// verify.LocalVerifier, one job at a time on all cores. Negative
	// Workers: none (only workers from other machines run jobs).
	Workers int
	Solvers int
	// Client configures the Verifier (fallback, log, ack deadline).
	Client ClientConfig
	// WorkerLogf logs the in-process workers' jobs (nil: nothing).
	WorkerLogf func(format string, args ...any)
	// inlineMax is the in-process workers' WorkerConfig.inlineMax.
	inlineMax int
}

// Embedded is an in-process NATS server with JetStream, a Client on it
// and in-process workers: the verifier queue of one user, which workers on
// other machines may join when the server listens on a network address.
// It is a verify.Verifier.
type Embedded struct {
	server  *Server // nil when another process serves the folder
	url     string
	client  *Client
	nc      *nats.Conn
	workers inProcess
	once    sync.Once
}

var _ verify.Verifier = (*Embedded)(nil)

// StartEmbedded starts the server, the client and the workers. Close stops
// them. When another process already serves the storage folder on a
// network address (in the folder's lock file), StartEmbedded joins that
// queue instead: its client and workers connect to the other process's
// server, with cfg.Server.CredsFile. A folder served by another process
// on no network is an *InUseError with no URL. Jobs and results stay in the storage folder across runs: a job
// queued before a crash is run after the restart, and a result stored
// before it is found by the next Verify of the same position and options.
func StartEmbedded(ctx context.Context, cfg EmbeddedConfig) (*Embedded, error) {
	srv, err := StartServer(cfg.Server)
	var inUse *InUseError
	if errors.As(err, &inUse) && inUse.URL != "" {
		// Another process (the workbench, `c6 book prove`) serves this
		// folder: share its queue as a client.
		return joinEmbedded(ctx, cfg, inUse.URL)
	}
	if err != nil {
		return nil, err
	}
	e := &Embedded{server: srv, url: srv.url()}
	fail := func(err error) (*Embedded, error) {
		e.Close()
		return nil, err
	}
	if e.nc, err = srv.connectInProcess("c6book-client"); err != nil {
		return fail(fmt.Errorf("jobqueue: connect: %w", err))
	}
	return e.start(ctx, cfg, srv.connectInProcess)
}

// joinEmbedded is StartEmbedded on a folder another process serves at url.
func joinEmbedded(ctx context.Context, cfg EmbeddedConfig, url string) (*Embedded, error) {
	connect := func(name string) (*nats.Conn, error) { return Connect(url, cfg.Server.CredsFile, name) }
	nc, err := connect("c6book-client")
	if err != nil {
		return nil, err
	}
	e := &Embedded{nc: nc, url: url}
	return e.start(ctx, cfg, connect)
}

// start opens the client on e.nc and starts the in-process workers.
func (e *Embedded) start(ctx context.Context, cfg EmbeddedConfig, connect func(string) (*nats.Conn, error)) (*Embedded, error) {
	fail := func(err error) (*Embedded, error) {
		e.Close()
		return nil, err
	}
	var err error
	if e.client, err = NewClient(ctx, e.nc, cfg.Client); err != nil {
		return fail(err)
	}
	n := cfg.Workers
	if n == 0 {
		n = 1
	}
	if err := e.workers.start(connect, "c6book-worker", WorkerConfig{Jobs: n, Solvers: cfg.Solvers, Name: "embedded", Logf: cfg.WorkerLogf, inlineMax: cfg.inlineMax}); err != nil {
		return fail(err)
	}
	return e, nil
}

// Verify runs a job through the queue (see Client.Verify).
func (e *Embedded) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	return e.client.Verify(ctx, b, opts, progress)
}

// Client is the embedded queue's client (Stats, Verify).
func (e *Embedded) Client() *Client { return e.client }

// Joined reports whether another process serves the storage folder and
// this queue is its client.
func (e *Embedded) Joined() bool { return e.server == nil }

// URL is the server's address for workers on other machines ("" when it
// listens on no network).
func (e *Embedded) URL() string { return e.url }

// Close stops the in-process workers (handing their jobs back to the
// queue), the client's connection and the server.
func (e *Embedded) Close() error {
	e.once.Do(func() {
		e.workers.stop()
		if e.nc != nil {
			e.nc.Close()
		}
		if e.server != nil {
			e.server.Shutdown()
		}
	})
	return nil
}

// inProcess is the in-process worker of an Embedded or a remote queue.
type inProcess struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	nc     *nats.Conn
}

// start connects a worker with cfg.Jobs slots (none when cfg.Jobs < 1)
// and runs it until stop.
func (p *inProcess) start(connect func(string) (*nats.Conn, error), connName string, cfg WorkerConfig) error {
	if cfg.Jobs < 1 {
		return nil
	}
	nc, err := connect(connName)
	if err != nil {
		return fmt.Errorf("jobqueue: connect: %w", err)
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.nc, p.cancel = nc, cancel
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = RunWorker(ctx, nc, cfg)
	}()
	return nil
}

// stop stops the worker (its jobs go back to the queue) and closes its
// connection.
func (p *inProcess) stop() {
	if p.cancel != nil {
		p.cancel()
	}
	p.wg.Wait()
	if p.nc != nil {
		p.nc.Close()
	}
}
