package jobqueue

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// workerEnv makes the test binary a worker process (see startWorkerProcess):
// its value is the server's URL.
const workerEnv = "C6_JOBQUEUE_TEST_WORKER"

func TestMain(m *testing.M) {
	if url := os.Getenv(workerEnv); url != "" {
		os.Exit(workerProcess(url))
	}
	os.Exit(m.Run())
}

// workerProcess runs one worker (one job slot, one solver) until SIGTERM or
// until its stdin closes (the test that started it is gone).
func workerProcess(url string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	name := os.Getenv(workerEnv + "_NAME")
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	nc, err := ConnectWorker(ctx, url, os.Getenv(workerEnv+"_CREDS"), name, logf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	defer nc.Close()
	if err := RunWorker(ctx, nc, WorkerConfig{Jobs: 1, Solvers: 1, Name: name, Logf: logf}); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	return 0
}
