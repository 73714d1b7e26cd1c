package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"c6book/jobqueue"
)

// ServerCommand is c6 server: a verifier queue (a NATS server with
// JetStream storage) for workers on other machines, until cancelled.
type ServerCommand struct{ stdio }

func (c *ServerCommand) Run(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("c6 server", flag.ContinueOnError)
	dir := fs.String("dir", "", "storage `folder` of the queue (jobs and results survive restarts); required")
	listen := fs.String("listen", "127.0.0.1:4222", "address to listen on (needs --creds, loopback too)")
	creds := fs.String("creds", "", "credentials `FILE`: only its holders may connect (created, with a new key, if missing)")
	jobs := fs.Int("jobs", 0, "job slots of a worker in this process (0: none)")
	every := fs.Duration("stats", 30*time.Second, "print the queue's state this often (0: never)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("give the storage folder with --dir")
	}
	if *jobs < 0 {
		return fmt.Errorf("--jobs %d: want 0 or more", *jobs)
	}
	if err := checkListen(*listen, *creds); err != nil {
		return err
	}
	if err := ensureCreds(*creds, stderr); err != nil {
		return err
	}
	workers := *jobs
	if workers == 0 {
		workers = -1
	}
	q, err := jobqueue.StartEmbedded(ctx, jobqueue.EmbeddedConfig{
		Server:  jobqueue.ServerConfig{Dir: *dir, Listen: *listen, CredsFile: *creds},
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
		return fmt.Errorf("the queue in %s is served by another process, at %s", *dir, q.URL())
	}
	fmt.Fprintf(stdout, "verifier queue on %s (storage %s); stop with Ctrl+C\n", q.URL(), *dir)
	if *every > 0 {
		printStats(ctx, stderr, "queue", q.Client().Stats, *every)
	} else {
		<-ctx.Done()
	}
	return nil
}
