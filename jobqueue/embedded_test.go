package jobqueue

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
)

func startEmbedded(t *testing.T, cfg EmbeddedConfig) *Embedded {
	t.Helper()
	if cfg.Server.Dir == "" {
		cfg.Server.Dir = t.TempDir()
	}
	e, err := StartEmbedded(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestCodecRoundTrip(t *testing.T) {
	cases := append(append([]testCase{}, smallCases...), c6Cases[:len(c6Cases)-1]...)
	for _, tc := range cases {
		b, o := tc.board(t), tc.withTol(t)
		o.Workers = 1
		vd, err := verify.Verify(context.Background(), b, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, err := encodeVerdict(&vd)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeVerdict(b.Rules(), data)
		if err != nil {
			t.Fatalf("%s: %v", tc.turns, err)
		}
		again, _ := encodeVerdict(&got)
		if string(again) != string(data) {
			t.Errorf("%s: decode+encode changes the verdict", tc.turns)
		}
		if err := checkVerdict(context.Background(), b, o, &got); err != nil {
			t.Errorf("%s: decoded verdict does not check: %v", tc.turns, err)
		}
		if got.NullTree != nil && vd.NullTree != nil && len(got.NullTree.Zone) != len(vd.NullTree.Zone) {
			t.Errorf("%s: strategy zones lost", tc.turns)
		}
		for cut := 0; cut < len(data); cut += 7 {
			if _, err := decodeVerdict(b.Rules(), data[:cut]); err == nil {
				t.Fatalf("%s: a verdict cut at %d bytes decodes", tc.turns, cut)
			}
		}
	}
}

// The embedded queue gives the local verdicts, in the caller's frame
// (the cases are entered in a non-canonical orientation too).
func TestEmbeddedSameAsLocal(t *testing.T) {
	cases := append([]testCase{}, smallCases...)
	r, _ := game.ParseRules("9,9,5,2,1")
	for _, tc := range smallCases[:2] { // mirrored: same job, verdict mapped back
		turns, _ := game.ParseTurns(r, tc.turns)
		for i := range turns {
			turns[i] = r.TransformMove(3, turns[i])
		}
		tc.turns = game.FormatTurns(r, turns)
		cases = append(cases, tc)
	}
	e := startEmbedded(t, EmbeddedConfig{Workers: 2, Solvers: 1})
	ctx := t.Context()
	want := localVerdicts(t, cases)
	got := runBatch(t, ctx, e, cases)
	sameVerdicts(t, cases, want, got)
	// Asked again: the stored results answer, nothing runs twice.
	again := runBatch(t, ctx, e, cases)
	sameVerdicts(t, cases, want, again)
	st, err := e.Client().Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Done != len(smallCases) || st.Workers != 1 || st.Slots != 2 || st.Queued != 0 || st.Rejected != 0 {
		t.Errorf("stats %+v: want %d results (mirrored cases are the same jobs), 1 worker with 2 slots", st, len(smallCases))
	}
	if st.Accepted != 2*len(cases) {
		t.Errorf("%d results accepted, want %d (one per Verify)", st.Accepted, 2*len(cases))
	}
}

// A forged result (a verdict whose certificate does not check) is
// rejected, logged, removed and the job redone locally.
func TestForgedResultRejected(t *testing.T) {
	var lg testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: -1, Client: ClientConfig{Logf: lg.logf, Poll: 50 * time.Millisecond}})
	ctx := t.Context()
	// The first case whose proof rests on a null strategy.
	var b *board.Board
	var o verify.VerifyOptions
	var honest verify.Verdict
	for _, tc := range smallCases {
		b, o = tc.board(t), tc.withTol(t)
		o.Workers = 1
		vd, err := verify.Verify(ctx, b, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if vd.Status == verify.StatusProved && len(vd.NullZone) > 0 {
			honest = vd
			break
		}
	}
	if honest.NullTree == nil {
		t.Fatal("no case with a null strategy to forge")
	}
	// The forger claims the proof with a null zone that leaves out the
	// squares where the defender's stones matter.
	job, _ := newJob(b, o)
	jb, _, _ := job.board()
	forged, err := verify.Verify(ctx, jb, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	forged.NullZone = forged.NullZone[:1]
	if checkVerdict(ctx, jb, o, &forged) == nil {
		t.Fatal("the forged verdict checks: the forgery is not one")
	}
	data, _ := encodeVerdict(&forged)
	if _, err := e.Client().q.results.Create(ctx, job.id(), result{worker: "forger", verdict: data}.encode()); err != nil {
		t.Fatal(err)
	}
	got, err := e.Verify(ctx, b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, got)) != string(comparable(t, honest)) {
		t.Errorf("after a forged result: %s, want the local %s", summary(got), summary(honest))
	}
	if !lg.contains(`from worker "forger" rejected`) {
		t.Errorf("no log line for the rejected result: %q", lg.lines)
	}
	if _, err := e.Client().q.results.Get(ctx, job.id()); err == nil {
		t.Error("the forged result is still stored")
	}
	st, _ := e.Client().Stats(ctx)
	if st.Rejected != 1 || st.Accepted != 0 {
		t.Errorf("stats %+v: want 1 rejected, 0 accepted", st)
	}
}

// A garbled result and a worker error are rejected the same way.
func TestCorruptResultRejected(t *testing.T) {
	var lg testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: -1, Client: ClientConfig{Logf: lg.logf}})
	ctx := t.Context()
	for i, bad := range [][]byte{{resultVersion, 1, 'x', 0, verdictVersion, 0xff, 0xff}, result{worker: "w", err: "boom"}.encode(), {9}} {
		tc := smallCases[i]
		b, o := tc.board(t), tc.withTol(t)
		job, _ := newJob(b, o)
		if _, err := e.Client().q.results.Create(ctx, job.id(), bad); err != nil {
			t.Fatal(err)
		}
		vd, err := e.Verify(ctx, b, o, nil)
		if err != nil || vd.Status == "" {
			t.Fatalf("case %d: %v", i, err)
		}
	}
	if st, _ := e.Client().Stats(ctx); st.Rejected != 3 {
		t.Errorf("%d rejected, want 3", st.Rejected)
	}
}

// A server on a network address needs credentials; with them, a client
// without credentials (or with other ones) is refused, one with them is
// admitted.
func TestCredentials(t *testing.T) {
	dir := t.TempDir()
	if _, err := StartServer(ServerConfig{Dir: dir, Listen: "0.0.0.0:0"}); !errors.Is(err, ErrOpenNetwork) {
		t.Fatalf("open server without credentials: %v, want ErrOpenNetwork", err)
	}
	creds, other := dir+"/team.creds", dir+"/other.creds"
	if err := NewCredsFile(creds); err != nil {
		t.Fatal(err)
	}
	if err := NewCredsFile(other); err != nil {
		t.Fatal(err)
	}
	if err := NewCredsFile(creds); err == nil {
		t.Fatal("NewCredsFile overwrote a file")
	}
	s, err := StartServer(ServerConfig{Dir: dir + "/q", Listen: "127.0.0.1:0", CredsFile: creds})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	for _, c := range []string{"", other} {
		nc, err := Connect(s.url(), c, "intruder")
		if err == nil {
			nc.Close()
			t.Fatalf("a client with credentials %q connected", c)
		}
		if !isAuthError(err) {
			t.Errorf("credentials %q: %v, want an authorization error", c, err)
		}
	}
	nc, err := Connect(s.url(), creds, "worker")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := t.Context()
	c, err := NewClient(ctx, nc, ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stats(ctx); err != nil {
		t.Fatal(err)
	}
}

// A worker refuses a job of another engine version: a log line, no
// result, and the job stays queued.
func TestWorkerRefusesOtherEngine(t *testing.T) {
	var wlog testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, WorkerLogf: wlog.logf})
	ctx := t.Context()
	tc := smallCases[0]
	job, _ := newJob(tc.board(t), tc.withTol(t))
	job.Engine = "c6book-engine/9.9"
	id := job.id()
	js := e.Client().q.js
	if _, err := js.Publish(ctx, jobSubject+id, job.encode()); err != nil {
		t.Fatal(err)
	}
	waitLog(t, &wlog, "refusing job "+id)
	if !wlog.contains("refusing job " + id + `: jobqueue: incompatible job: engine "c6book-engine/9.9"`) {
		t.Fatalf("no refusal logged: %q", wlog.lines)
	}
	if _, err := e.Client().q.results.Get(ctx, id); err == nil {
		t.Error("the refused job has a result")
	}
	if _, err := e.Client().q.stream.GetLastMsgForSubject(ctx, jobSubject+id); err != nil {
		t.Errorf("the refused job left the queue: %v", err)
	}
}

// A second process on the same storage folder does not start a second
// server on it (that would corrupt it): it joins the first one's queue
// when that one listens (with the credentials; TestEmbeddedListensNowhere
// for one that does not).
func TestSecondEmbeddedJoins(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(t.TempDir(), "team.creds")
	if err := NewCredsFile(creds); err != nil {
		t.Fatal(err)
	}
	srv := ServerConfig{Dir: dir, Listen: "127.0.0.1:0", CredsFile: creds}
	first := startEmbedded(t, EmbeddedConfig{Server: srv, Workers: -1})
	_, err := StartServer(ServerConfig{Dir: dir})
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.URL != first.URL() {
		t.Fatalf("second server on the folder: %v, want InUseError with %s", err, first.URL())
	}
	second := startEmbedded(t, EmbeddedConfig{Server: srv, Workers: 1, Solvers: 1})
	if second.URL() != first.URL() || second.server != nil {
		t.Fatalf("second queue at %s (own server: %v), want the first's %s", second.URL(), second.server != nil, first.URL())
	}
	// A job asked of the first runs on the second's worker.
	ctx := t.Context()
	tc := smallCases[1]
	want := localVerdicts(t, []testCase{tc})[0]
	vd, err := first.Verify(ctx, tc.board(t), tc.withTol(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, vd)) != string(want) {
		t.Errorf("verdict %s differs from the local one", summary(vd))
	}
	second.Close()
	first.Close()
	s, err := StartServer(ServerConfig{Dir: dir}) // free again
	if err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
}
