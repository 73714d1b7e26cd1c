package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"c6book/jobqueue"
)

func startQueue(t *testing.T, cfg jobqueue.EmbeddedConfig) *jobqueue.Embedded {
	t.Helper()
	cfg.Server.Dir = filepath.Join(t.TempDir(), "queue")
	if cfg.Server.Listen == "" { // reachable by the commands under test
		cfg.Server.Listen, cfg.Server.OpenLoopback = "127.0.0.1:0", true
	}
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
	args := []string{"verify", "--rules", "9,9,5,2,1", "--turns", "e5 a1a2 e4d4", "--max-nodes", "20000", "--workers", "1", "--json"}
	local, _ := runJSON(t, args...)
	queued, stderr := runJSON(t, append(args, "--nats", q.URL())...)
	if !reflect.DeepEqual(local, queued) {
		t.Errorf("through the queue:\n%v\nlocal:\n%v", queued, local)
	}
	if !strings.Contains(fmt.Sprint(queued), "status:proved") {
		t.Errorf("not proved: %v", queued)
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

// runJSON runs c6 with args and returns its JSON output without the
// timings ("ms" at any depth), and its stderr.
func runJSON(t *testing.T, args ...string) (any, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("c6 %v: exit %d: %s", args, code, errb.String())
	}
	var v any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("c6 %v: bad JSON %q: %v", args, out.String(), err)
	}
	return dropKey(v, "ms"), errb.String()
}

func dropKey(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for k, e := range x {
			x[k] = dropKey(e, key)
		}
	case []any:
		for i, e := range x {
			x[i] = dropKey(e, key)
		}
	}
	return v
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
	errb.Reset()
	if code := run([]string{"server", "--dir", dir + "/q"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "needs credentials") {
		t.Errorf("server on loopback without credentials: exit %d, %q", code, errb.String())
	}
	if _, err := os.Stat(dir + "/q"); !os.IsNotExist(err) {
		t.Errorf("the refused server made its folder (%v)", err)
	}
}
