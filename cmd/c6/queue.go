package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync"
	"time"

	"c6book/engine/verify"
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
func (n *natsFlags) verifier(ctx context.Context, stderr io.Writer) (verify.Verifier, func(), error) {
	if n.url == "" {
		return verify.LocalVerifier{}, func() {}, nil
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
