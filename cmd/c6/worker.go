package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"c6book/engine"
	"c6book/jobqueue"
)

// WorkerCommand is c6 worker: it runs verifier jobs from a NATS queue (c6
// server, or a book's embedded queue) until cancelled.
type WorkerCommand struct{ stdio }

func (c *WorkerCommand) Run(ctx context.Context, args []string) error {
	stderr := c.stderr
	fs := flag.NewFlagSet("c6 worker", flag.ContinueOnError)
	url := fs.String("nats", "", "the verifier queue's NATS server `URL` (nats://host:4222); required")
	creds := fs.String("creds", "", "credentials `FILE`: a NATS user nkey seed (c6 server --creds writes one)")
	jobs := fs.Int("jobs", 1, "jobs run at once")
	solvers := fs.Int("solvers", 0, "parallel solver calls of each job (0: the cores divided by --jobs)")
	name := fs.String("name", "", "the worker's name in logs and stats (default: the host name)")
	every := fs.Duration("stats", 30*time.Second, "print the queue's state this often (0: never)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *url == "" {
		return errors.New("give the queue's server with --nats URL")
	}
	if *jobs < 1 || *solvers < 0 {
		return fmt.Errorf("--jobs %d --solvers %d: want at least one job and 0 or more solvers", *jobs, *solvers)
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
	nc, err := jobqueue.ConnectWorker(ctx, *url, *creds, "c6-worker", logf)
	if err != nil {
		return err
	}
	defer nc.Close()
	logf("worker: connected to %s, engine %s, %d job slots", nc.ConnectedUrlRedacted(), engine.EngineVersion, *jobs)
	if *every > 0 {
		c, err := jobqueue.NewClient(ctx, nc, jobqueue.ClientConfig{})
		if err != nil {
			return err
		}
		go printStats(ctx, stderr, "queue", c.Stats, *every)
	}
	err = jobqueue.RunWorker(ctx, nc, jobqueue.WorkerConfig{Jobs: *jobs, Solvers: *solvers, Name: *name, Logf: logf})
	logf("worker: stopped")
	return err
}
