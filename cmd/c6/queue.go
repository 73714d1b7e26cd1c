package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"c6book/engine"
	"c6book/jobqueue"
)

// natsFlags are the verifier-queue flags of `c6 verify` and `c6 book
// verify`: without --nats the verifier runs in this process, as before
// (one job does not need a queue); with it the job goes to the NATS
// server at URL, a worker runs it, and the result is re-checked here
// (proofcheck) before it is used.
type natsFlags struct {
	url, creds string
}

func (n *natsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.url, "nats", "", "run the job on a verifier queue: the NATS server's `URL` (nats://host:4222); workers run it, the result is re-checked here")
	fs.StringVar(&n.creds, "creds", "", "credentials `FILE` for --nats: a NATS user nkey seed (c6 server --creds writes one)")
}

func (n *natsFlags) check() error {
	if n.creds != "" && n.url == "" {
		return errors.New("--creds goes with --nats")
	}
	return nil
}

// verifier returns the verifier the flags ask for and a function that
// releases it. With --nats it prints the queue's state on stderr every
// few seconds while a job runs, and once at the end.
func (n *natsFlags) verifier(ctx context.Context, stderr io.Writer) (engine.Verifier, func(), error) {
	if n.url == "" {
		return engine.LocalVerifier{}, func() {}, nil
	}
	nc, err := jobqueue.Connect(n.url, n.creds, "c6-verify")
	if err != nil {
		return nil, nil, err
	}
	c, err := jobqueue.NewClient(ctx, nc, jobqueue.ClientConfig{Logf: func(format string, args ...any) {
		fmt.Fprintf(stderr, format+"\n", args...)
	}})
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	sctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		printStats(sctx, stderr, "queue", c.Stats, 5*time.Second)
	}()
	return c, func() {
		stop()
		wg.Wait()
		if st, err := c.Stats(context.Background()); err == nil {
			fmt.Fprintf(stderr, "queue: %s; results here: %d accepted, %d rejected and redone locally\n", st, st.Accepted, st.Rejected)
		}
		nc.Close()
	}, nil
}

// printStats prints stats every period until ctx is done.
func printStats(ctx context.Context, w io.Writer, prefix string, stats func(context.Context) (jobqueue.Stats, error), period time.Duration) {
	watchStats(ctx, stats, period, func(st jobqueue.Stats) { fmt.Fprintf(w, "%s: %s\n", prefix, st) })
}

// watchStats calls f with the queue's state every period until ctx is
// done (a state that cannot be read within 5 s is skipped).
func watchStats(ctx context.Context, stats func(context.Context) (jobqueue.Stats, error), period time.Duration, f func(jobqueue.Stats)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			st, err := stats(rctx)
			cancel()
			if err == nil {
				f(st)
			}
		}
	}
}

// signalContext is cancelled by SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func cmdWorker(args []string, stdout, stderr io.Writer) error {
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
	ctx, stop := signalContext()
	defer stop()
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

func cmdServer(args []string, stdout, stderr io.Writer) error {
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
	ctx, stop := signalContext()
	defer stop()
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
