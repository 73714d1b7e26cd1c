package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"c6book/jobqueue"
)

// ServerOptions are c6 server's flags.
type ServerOptions struct {
	dir, listen, creds string
	jobs               int
	every              time.Duration
}

func (o *ServerOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dir, "dir", "", "storage `folder` of the queue (jobs and results survive restarts); required")
	fs.StringVar(&o.listen, "listen", "127.0.0.1:4222", "address to listen on (needs --creds, loopback too)")
	fs.StringVar(&o.creds, "creds", "", "credentials `FILE`: only its holders may connect (created, with a new key, if missing)")
	fs.IntVar(&o.jobs, "jobs", 0, "job slots of a worker in this process (0: none)")
	fs.DurationVar(&o.every, "stats", 30*time.Second, "print the queue's state this often (0: never)")
}

// Validate checks the flags' values, before anything is created (the
// credentials file is made after): a one-line error naming the flag.
func (o *ServerOptions) Validate() error {
	if o.dir == "" {
		return errors.New("give the storage folder with --dir")
	}
	if o.jobs < 0 {
		return fmt.Errorf("--jobs %d: want 0 or more", o.jobs)
	}
	return checkListen(o.listen, o.creds)
}

// ServerCommand is c6 server: a verifier queue (a NATS server with
// JetStream storage) for workers on other machines, until cancelled.
type ServerCommand struct{ stdio }

func (c *ServerCommand) Run(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	var o ServerOptions
	if err := parseOptions("c6 server", &o, args, stderr); err != nil {
		return err
	}
	if err := ensureCreds(o.creds, stderr); err != nil {
		return err
	}
	workers := o.jobs
	if workers == 0 {
		workers = -1
	}
	q, err := jobqueue.StartEmbedded(ctx, jobqueue.EmbeddedConfig{
		Server:  jobqueue.ServerConfig{Dir: o.dir, Listen: o.listen, CredsFile: o.creds},
		Workers: workers,
		WorkerLogf: func(format string, args ...any) {
			fmt.Fprintf(stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
		},
	})
	if err != nil {
		return err
	}
	defer q.Close()
	if q.Joined() {
		return fmt.Errorf("the queue in %s is served by another process, at %s", o.dir, q.URL())
	}
	fmt.Fprintf(stdout, "verifier queue on %s (storage %s); stop with Ctrl+C\n", q.URL(), o.dir)
	if o.every > 0 {
		printStats(ctx, stderr, "queue", q.Client().Stats, o.every)
	} else {
		<-ctx.Done()
	}
	return nil
}
