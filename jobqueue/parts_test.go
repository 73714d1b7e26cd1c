package jobqueue

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"

	"github.com/nats-io/nats.go/jetstream"
)

// partsCount counts the objects in the queue's parts store.
func partsCount(t *testing.T, ctx context.Context, q *queue) int {
	t.Helper()
	infos, err := q.parts.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return len(infos)
}

// TestResultsInParts runs the small cases through an embedded queue whose
// worker stores every result above 64 bytes in parts: each verdict comes
// back equal to the local one, and the parts store holds one object a
// case. It fails if a result in parts is lost, cut or reassembled wrong.
func TestResultsInParts(t *testing.T) {
	ctx := context.Background()
	cases := smallCases
	want := localVerdicts(t, cases)
	e := startEmbedded(t, EmbeddedConfig{Workers: 2, Solvers: 1, inlineMax: 64})
	got := runBatch(t, ctx, e, cases)
	sameVerdicts(t, cases, want, got)
	if n := partsCount(t, ctx, e.Client().q); n != len(distinctJobs(t, cases)) {
		t.Errorf("%d results in parts, want %d", n, len(distinctJobs(t, cases)))
	}
	if st, err := e.Client().Stats(ctx); err != nil || st.Rejected != 0 {
		t.Errorf("stats %+v, %v: want no result rejected", st, err)
	}
}

// distinctJobs is the set of job ids of cases.
func distinctJobs(t *testing.T, cases []testCase) map[string]bool {
	ids := map[string]bool{}
	for _, tc := range cases {
		j, _ := newJob(tc.board(t), tc.withTol(t))
		ids[j.id()] = true
	}
	return ids
}

// bigVerdict is a synthetic verdict whose encoding is larger than limit
// bytes: covered moves whose strategies have zones of random squares
// (DEFLATE cannot shrink them much), fixed seed.
func bigVerdict(t *testing.T, r game.Rules, limit int) verify.Verdict {
	rng := rand.New(rand.NewPCG(6, 2))
	sq := func() game.Square { return game.Square(rng.IntN(r.Squares())) }
	vd := verify.Verdict{Status: verify.StatusOpen, Order: 2, Lambda: 2, Attacker: game.Black, Engine: verify.EngineVersion,
		Unsolved: []verify.UnsolvedMove{{Move: game.NewMove(0, 1), Reason: threat.ReasonBudget}}}
	for n := 0; ; n++ {
		zone := make([]game.Square, 4096)
		for i := range zone {
			zone[i] = sq()
		}
		a := sq()
		b := (a + 1 + game.Square(rng.IntN(r.Squares()-1))) % game.Square(r.Squares())
		vd.Covered = append(vd.Covered, verify.CoveredMove{Move: game.NewMove(a, b), Mode: threat.VCDT,
			Tree: &threat.Strategy{Move: game.NewMove(sq()), Threats: 3, Six: true, Zone: zone}})
		if n%256 == 255 {
			data, err := encodeVerdict(&vd)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > limit {
				return vd
			}
		}
	}
}

// TestBigVerdictTravels stores a synthetic verdict larger than the
// server's message limit as a worker stores a result, and reads it back
// as a client does: it is stored in parts and comes back identical. It
// fails if the store refuses it (one message over the limit) or the
// reassembled verdict differs. A result whose parts do not match its
// reference (another object under its name) is refused.
func TestBigVerdictTravels(t *testing.T) {
	if testing.Short() {
		t.Skip("a verdict over 8 MiB")
	}
	ctx := context.Background()
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	srv, err := StartServer(ServerConfig{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := srv.connectInProcess("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	q, err := openQueue(ctx, js, 0)
	if err != nil {
		t.Fatal(err)
	}
	limit := int(nc.MaxPayload())
	vd := bigVerdict(t, r, limit)
	data, err := encodeVerdict(&vd)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verdict: %d covered moves, %d bytes encoded, message limit %d", len(vd.Covered), len(data), limit)
	if _, err := q.results.Create(ctx, "direct", result{worker: "w", verdict: data}.encode()); err == nil {
		t.Fatal("the server took a result over its message limit in one message: the test proves nothing")
	}
	w := &worker{nc: nc, q: q, cfg: WorkerConfig{Name: "w"}}
	if err := w.store(ctx, "big", result{worker: "w", verdict: data}); err != nil {
		t.Fatalf("store: %v", err)
	}
	entry, err := q.results.Get(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	res, err := decodeResult(entry.Value())
	if err != nil {
		t.Fatal(err)
	}
	if res.parts == "" {
		t.Fatal("a result over the limit was stored in one message")
	}
	if err := q.getParts(ctx, &res); err != nil {
		t.Fatal(err)
	}
	got, err := decodeVerdict(r, res.verdict)
	if err != nil {
		t.Fatal(err)
	}
	again, err := encodeVerdict(&got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Fatal("the verdict read back differs from the one stored")
	}
	// Other bytes under the parts' name: refused, not decoded.
	if _, err := q.parts.PutBytes(ctx, res.parts, data[:len(data)-1]); err != nil {
		t.Fatal(err)
	}
	bad, _ := decodeResult(entry.Value())
	if err := q.getParts(ctx, &bad); err == nil {
		t.Fatal("parts shorter than the reference were accepted")
	}
	swapped := append([]byte{}, data...)
	swapped[len(swapped)/2] ^= 1
	if _, err := q.parts.PutBytes(ctx, res.parts, swapped); err != nil {
		t.Fatal(err)
	}
	if err := q.getParts(ctx, &bad); err == nil {
		t.Fatal("parts with other bytes were accepted")
	}
}

// A worker refuses a job of job encoding 1: its caller (an older build)
// reads neither results in parts nor verdict encoding 2, so no worker of
// this build answers it. It fails if the worker runs the job.
func TestWorkerRefusesVersion1Job(t *testing.T) {
	var wlog testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, WorkerLogf: wlog.logf})
	ctx := t.Context()
	tc := smallCases[0]
	job, _ := newJob(tc.board(t), tc.withTol(t))
	job.V = 1
	id := job.id()
	if _, err := e.Client().q.js.Publish(ctx, jobSubject+id, job.encode()); err != nil {
		t.Fatal(err)
	}
	waitLog(t, &wlog, "refusing job "+id)
	if !wlog.contains("refusing job " + id + ": jobqueue: incompatible job: job encoding 1") {
		t.Fatalf("no refusal logged: %q", wlog.lines)
	}
	if _, err := e.Client().q.results.Get(ctx, id); err == nil {
		t.Error("the refused job has a result")
	}
}

// A caller's priority travels with its job (a message header, outside the
// job's id) to the worker, whose gate ranks its running jobs by it.
func TestJobCarriesPriority(t *testing.T) {
	var wlog testLog
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, WorkerLogf: wlog.logf})
	tc := smallCases[0]
	opts := tc.withTol(t)
	opts.Priority = 1234567
	if _, err := e.Client().Verify(t.Context(), tc.board(t), opts, nil); err != nil {
		t.Fatal(err)
	}
	job, _ := newJob(tc.board(t), opts)
	if want := "job " + job.id() + ": start"; !wlog.contains(want) || !wlog.contains("priority 1234567)") {
		t.Fatalf("the worker did not log the caller's priority: %q", wlog.lines)
	}
}
