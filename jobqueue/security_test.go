package jobqueue

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"c6book/engine/game"
	"c6book/engine/verify"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// listeningSockets is the inodes of this process's listening TCP sockets
// (Linux: its /proc/self/fd sockets that /proc/net/tcp{,6} lists in state
// LISTEN).
func listeningSockets(t *testing.T) map[string]bool {
	t.Helper()
	listen := map[string]bool{}
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) > 9 && fields[3] == "0A" { // TCP_LISTEN
				listen[fields[9]] = true
			}
		}
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err != nil || !strings.HasPrefix(link, "socket:[") {
			continue
		}
		if inode := strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]"); listen[inode] {
			mine[inode] = true
		}
	}
	return mine
}

// The embedded queue without a listen address opens no socket: no TCP
// listener appears in this process, the server has no address, the lock
// file names none; jobs still run (in-process connections), and a second
// queue on the same folder cannot join it (it says so).
func TestEmbeddedListensNowhere(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	before := listeningSockets(t)
	dir := t.TempDir()
	e := startEmbedded(t, EmbeddedConfig{Server: ServerConfig{Dir: dir}, Workers: 1, Solvers: 1})
	for inode := range listeningSockets(t) {
		if !before[inode] {
			t.Errorf("the embedded queue listens on a socket (inode %s)", inode)
		}
	}
	if e.server.addr() != nil || e.URL() != "" {
		t.Errorf("server address %v, URL %q: want none", e.server.addr(), e.URL())
	}
	if lock, err := os.ReadFile(filepath.Join(dir, "LOCK")); err != nil || len(lock) != 0 {
		t.Errorf("lock file %q (%v): want it empty", lock, err)
	}
	ctx := context.Background()
	tc := smallCases[1]
	want := localVerdicts(t, []testCase{tc})[0]
	vd, err := e.Verify(ctx, tc.board(t), tc.withTol(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, vd)) != string(want) {
		t.Errorf("verdict %s differs from the local one", summary(vd))
	}
	_, err = StartEmbedded(ctx, EmbeddedConfig{Server: ServerConfig{Dir: dir}, Workers: -1})
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.URL != "" {
		t.Errorf("second queue on the folder: %v, want an InUseError without URL", err)
	}
}

// A server that listens needs credentials, on a loopback address too
// (every local user reaches it), unless the test asks for an open loopback
// server; a refused one creates nothing.
func TestListenNeedsCreds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "q")
	for _, cfg := range []ServerConfig{
		{Dir: dir, Listen: "127.0.0.1:0"},
		{Dir: dir, Listen: "localhost:0"},
		{Dir: dir, Listen: "0.0.0.0:0"},
		{Dir: dir, Listen: "0.0.0.0:0", OpenLoopback: true},
		{Dir: dir, Listen: ":0", OpenLoopback: true},
	} {
		s, err := StartServer(cfg)
		if err == nil {
			s.Shutdown()
		}
		if !errors.Is(err, ErrOpenNetwork) {
			t.Errorf("%+v: %v, want ErrOpenNetwork", cfg, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("%+v: the refused server made its folder (%v)", cfg, err)
		}
	}
	for _, listen := range []string{"127.0.0.1", "127.0.0.1:70000", "127.0.0.1:x"} {
		if _, err := StartServer(ServerConfig{Dir: dir, Listen: listen, CredsFile: "none"}); err == nil || errors.Is(err, ErrOpenNetwork) {
			t.Errorf("listen %q: %v, want a bad address", listen, err)
		}
	}
	if _, err := StartServer(ServerConfig{Dir: dir, Listen: "127.0.0.1:0", CredsFile: filepath.Join(dir, "missing.creds")}); err == nil {
		t.Error("a missing credentials file was accepted")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a refused server made its folder (%v)", err)
	}
	s, err := StartServer(ServerConfig{Dir: dir, Listen: "127.0.0.1:0", OpenLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
}

// forge connects to the queue at url as a local user would (with creds
// when not ""), waits for job id and stores a result "every defender move
// unsolved" for it, as a worker would.
func forge(ctx context.Context, url, creds, id string, r game.Rules, vd verify.Verdict) error {
	nc, err := Connect(url, creds, "intruder")
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	q, err := openQueue(ctx, js, 0)
	if err != nil {
		return err
	}
	for {
		if _, err := q.stream.GetLastMsgForSubject(ctx, jobSubject+id); err == nil {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		sleepCtx(ctx, 20e6)
	}
	vd.Status, vd.Order, vd.AllUnsolved = verify.StatusOpen, 0, true
	vd.Unsolved, vd.OpenSeminull, vd.NullZone, vd.NullTree, vd.SeminullZones, vd.Covered = nil, nil, nil, nil, nil, nil
	data, err := encodeVerdict(&vd)
	if err != nil {
		return err
	}
	if _, err := q.results.Create(ctx, id, result{worker: "intruder", verdict: data}.encode()); err != nil {
		return err
	}
	return nc.Publish(doneSubject+id, nil)
}

// The queue of `prove --listen 127.0.0.1:P` (a loopback address, which
// every local user reaches): without credentials it does not start; with
// them a local client without them (or with others) cannot connect, so it
// cannot post a result; the job's verdict is the worker's.
func TestListenRefusesUnauthenticatedResults(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tc := smallCases[1] // the attacker has no threat: all-unsolved passes the check
	b, o := tc.board(t), tc.withTol(t)
	job, _ := newJob(b, o)
	jb, _, _ := job.board()
	honest := localVerdicts(t, []testCase{tc})[0]
	// The intruder's verdict, for the job's position, claims nothing:
	// only the absence of a network and the credentials keep it out.
	base := verify.Verdict{Lambda: 2, Attacker: jb.ToMove().Opp(), Tolerance: o.Tolerance, Engine: verify.EngineVersion}
	forged := base
	forged.Status, forged.AllUnsolved = verify.StatusOpen, true
	if err := checkVerdict(ctx, jb, o, &forged); err != nil {
		t.Fatalf("the forged verdict does not check (%v): the test needs one that does", err)
	}

	e, err := StartEmbedded(ctx, EmbeddedConfig{Server: ServerConfig{Dir: filepath.Join(dir, "open"), Listen: "127.0.0.1:0"}, Workers: -1})
	if err == nil {
		// Before the fix: the open queue takes the intruder's result.
		defer e.Close()
		go func() { _ = forge(ctx, e.URL(), "", job.id(), jb.Rules(), base) }()
		vd, err := e.Verify(ctx, b, o, nil)
		if err == nil && vd.AllUnsolved {
			t.Fatal("a loopback queue without credentials stored an unauthenticated client's result")
		}
		t.Fatalf("a loopback queue without credentials started (%v)", err)
	}
	if !errors.Is(err, ErrOpenNetwork) {
		t.Fatalf("loopback queue without credentials: %v, want ErrOpenNetwork", err)
	}

	creds, other := filepath.Join(dir, "team.creds"), filepath.Join(dir, "other.creds")
	for _, f := range []string{creds, other} {
		if err := NewCredsFile(f); err != nil {
			t.Fatal(err)
		}
	}
	e = startEmbedded(t, EmbeddedConfig{Server: ServerConfig{Dir: filepath.Join(dir, "q"), Listen: "127.0.0.1:0", CredsFile: creds}, Workers: 1, Solvers: 1})
	for _, c := range []string{"", other} {
		err := forge(ctx, e.URL(), c, job.id(), jb.Rules(), base)
		if err == nil || !isAuthError(err) {
			t.Errorf("intruder with credentials %q: %v, want an authorization error", c, err)
		}
	}
	// Nor does a bare NATS client reach it.
	if nc, err := nats.Connect(e.URL()); err == nil {
		nc.Close()
		t.Error("a client without credentials connected")
	}
	vd, err := e.Verify(ctx, b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, vd)) != string(honest) {
		t.Errorf("verdict %s differs from the local one", summary(vd))
	}
}
