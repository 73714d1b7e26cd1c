package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"c6book/engine/verify"
	"c6book/jobqueue"
	"c6book/service"
)

// WorkerOptions are c6 worker's flags.
type WorkerOptions struct {
	url, creds string
	jobs       int
	solvers    int
	name       string
	every      time.Duration
}

func (o *WorkerOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.url, "nats", "", "the verifier queue's NATS server `URL` (nats://host:4222); required")
	fs.StringVar(&o.creds, "creds", "", "credentials `FILE`: a NATS user nkey seed (c6 server --creds writes one)")
	fs.IntVar(&o.jobs, "jobs", 1, "jobs run at once")
	fs.IntVar(&o.solvers, "solvers", 0, "parallel solver calls of each job (0: the cores divided by --jobs)")
	fs.StringVar(&o.name, "name", "", "the worker's name in logs and stats (default: the host name)")
	fs.DurationVar(&o.every, "stats", 30*time.Second, "print the queue's state this often (0: never)")
}

// Validate checks the flags' values: a one-line error naming the flag.
func (o *WorkerOptions) Validate() error {
	if o.url == "" {
		return errors.New("give the queue's server with --nats URL")
	}
	if o.jobs < 1 || o.solvers < 0 {
		return fmt.Errorf("--jobs %d --solvers %d: want at least one job and 0 or more solvers", o.jobs, o.solvers)
	}
	return nil
}

// WorkerCommand is c6 worker: it runs verifier jobs from a NATS queue (c6
// server, or a book's embedded queue) until cancelled.
type WorkerCommand struct{ stdio }

func (c *WorkerCommand) Run(ctx context.Context, args []string) error {
	stderr := c.stderr
	var o WorkerOptions
	if err := parseOptions("c6 worker", &o, args, stderr); err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
	nc, err := jobqueue.ConnectWorker(ctx, o.url, o.creds, "c6-worker", logf)
	if err != nil {
		return err
	}
	defer nc.Close()
	logf("worker: connected to %s, engine %s, %d job slots", nc.ConnectedUrlRedacted(), verify.EngineVersion, o.jobs)
	if o.every > 0 {
		c, err := jobqueue.NewClient(ctx, nc, jobqueue.ClientConfig{})
		if err != nil {
			return err
		}
		go printStats(ctx, stderr, "queue", c.Stats, o.every)
	}
	solvers := o.solvers
	if solvers == 0 {
		solvers = service.Workers(o.jobs) // the cores divided by --jobs
	}
	err = jobqueue.RunWorker(ctx, nc, jobqueue.WorkerConfig{Jobs: o.jobs, Solvers: solvers, Name: o.name, Logf: logf})
	logf("worker: stopped")
	return err
}
