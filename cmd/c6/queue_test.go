package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"c6book/jobqueue"
)

func startQueue(t *testing.T, cfg jobqueue.EmbeddedConfig) *jobqueue.Embedded {
	t.Helper()
	cfg.Server.Dir = filepath.Join(t.TempDir(), "queue")
	q, err := jobqueue.StartEmbedded(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// `c6 verify --nats` prints the verdict a local run prints, after the
// queue's worker ran the job, and the queue's state on stderr.
func TestVerifyThroughQueue(t *testing.T) {
	q := startQueue(t, jobqueue.EmbeddedConfig{Workers: 1, Solvers: 1})
	args := []string{"--rules", "9,9,5,2,1", "--turns", "e5 a1a2 e4d4", "--max-nodes", "20000", "--workers", "1", "--json"}
	local, _ := runVerify(t, args...)
	queued, stderr := runVerify(t, append(args, "--nats", q.URL())...)
	local.MS, queued.MS = 0, 0
	if !equalJSON(t, local, queued) {
		t.Errorf("through the queue: %+v\nlocal: %+v", queued, local)
	}
	if queued.Status != "proved" {
		t.Errorf("status %s, want proved", queued.Status)
	}
	if !strings.Contains(stderr, "queue: 1 workers (1 slots), 0 jobs queued, 0 running, 1 done") || !strings.Contains(stderr, "1 accepted, 0 rejected") {
		t.Errorf("stderr: %q", stderr)
	}

	// The book stores the queue's verdict as it stores a local one.
	book := filepath.Join(t.TempDir(), "b.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	out, _ := runBook(t, false, "verify", "--book", book, "--turns", "e5 a1a2 e4d4", "--max-nodes", "20000", "--nats", q.URL(), "--json")
	if !strings.Contains(out, `"proved"`) {
		t.Errorf("book verify --nats: %s", out)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "proofs re-checked from their certificates") || !strings.HasSuffix(strings.TrimSpace(out), "ok") {
		t.Errorf("book check after verify --nats: %s", out)
	}
}

func equalJSON(t *testing.T, a, b verifyJSON) bool {
	t.Helper()
	var x, y bytes.Buffer
	if err := writeJSON(&x, a); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(&y, b); err != nil {
		t.Fatal(err)
	}
	return x.String() == y.String()
}

// A worker without the server's credentials is refused with a clear
// error; --creds without --nats is a usage error.
func TestWorkerWithoutCredentialsRefused(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "team.creds")
	if err := jobqueue.NewCredsFile(creds); err != nil {
		t.Fatal(err)
	}
	q := startQueue(t, jobqueue.EmbeddedConfig{Workers: -1, Server: jobqueue.ServerConfig{Listen: "127.0.0.1:0", CredsFile: creds}})
	var out, errb bytes.Buffer
	if code := run([]string{"worker", "--nats", q.URL()}, &out, &errb); code != 1 || !strings.Contains(strings.ToLower(errb.String()), "authorization violation") {
		t.Errorf("worker without credentials: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"verify", "--turns", "j10", "--creds", creds}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "--creds goes with --nats") {
		t.Errorf("verify --creds alone: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"server", "--dir", dir + "/q", "--listen", "0.0.0.0:0"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "needs credentials") {
		t.Errorf("server on the network without credentials: exit %d, %q", code, errb.String())
	}
}
