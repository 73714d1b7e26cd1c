package jobqueue

import (
	"context"
	"sync"

	"c6book/engine/board"
	"c6book/engine/verify"

	"github.com/nats-io/nats.go"
)

// remoteConfig configures openRemote.
type remoteConfig struct {
	URL   string // the external server or cluster (nats://host:4222)
	Creds string // credentials file ("" for none)
	Name  string // the client's connection name (default "c6book-client")
	// Workers is the number of job slots this process adds to the queue
	// (0: none, only the workers on other machines run jobs); Solvers each
	// job's parallel solver calls (0: the cores divided by Workers).
	Workers, Solvers int
	Client           ClientConfig
	WorkerLogf       func(format string, args ...any)
}

// remote is a Client on an external server, with optional in-process
// workers. It is a verify.Verifier.
type remote struct {
	client  *Client
	nc      *nats.Conn
	workers inProcess
	once    sync.Once
}

var _ verify.Verifier = (*remote)(nil)

// openRemote connects to the server at cfg.URL and opens the queue there
// (creating its stream and buckets when missing). Close releases it.
func openRemote(ctx context.Context, cfg remoteConfig) (*remote, error) {
	name := cfg.Name
	if name == "" {
		name = "c6book-client"
	}
	nc, err := Connect(cfg.URL, cfg.Creds, name)
	if err != nil {
		return nil, err
	}
	r := &remote{nc: nc}
	if r.client, err = NewClient(ctx, nc, cfg.Client); err != nil {
		r.Close()
		return nil, err
	}
	connect := func(name string) (*nats.Conn, error) { return Connect(cfg.URL, cfg.Creds, name) }
	if err := r.workers.start(connect, name+"-worker", WorkerConfig{Jobs: cfg.Workers, Solvers: cfg.Solvers, Name: name, Logf: cfg.WorkerLogf}); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Verify runs a job through the queue (see Client.Verify).
func (r *remote) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	return r.client.Verify(ctx, b, opts, progress)
}

// Stats reads the queue's state (see Client.Stats).
func (r *remote) Stats(ctx context.Context) (Stats, error) { return r.client.Stats(ctx) }

// URL is the server's address.
func (r *remote) URL() string { return r.nc.ConnectedUrlRedacted() }

// Close stops the in-process workers (handing their jobs back) and closes
// the connections.
func (r *remote) Close() error {
	r.once.Do(func() {
		r.workers.stop()
		r.nc.Close()
	})
	return nil
}
