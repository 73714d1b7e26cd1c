package jobqueue

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"

	"github.com/nats-io/nats-server/v2/server"
)

// testCase is a position to verify, with its options.
type testCase struct {
	rules string
	turns string
	opts  verify.VerifyOptions
}

func (tc testCase) board(t testing.TB) *board.Board {
	t.Helper()
	r, err := game.ParseRules(tc.rules)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.ReplayText(r, tc.turns)
	if err != nil {
		t.Fatalf("%s: %v", tc.turns, err)
	}
	return b
}

// withTol sets the tolerance to the position's defender deficit.
func (tc testCase) withTol(t testing.TB) verify.VerifyOptions {
	b := tc.board(t)
	tol, ok := b.DefenderDeficit(b.ToMove().Opp())
	if !ok {
		t.Fatalf("%s: no deficit", tc.turns)
	}
	o := tc.opts
	o.Tolerance = tol
	return o
}

// smallCases are 9×9 connect-5 positions (fast); c6Cases Connect6 positions
// from LittleGolem games at a small node budget (the last takes
// seconds: long enough to kill its worker mid-job).
var smallCases = []testCase{
	{"9,9,5,2,1", "e5 e4e6 d5f5", verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 20000}}},
	{"9,9,5,2,1", "e5 a1a2 e4d4", verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 20000}}},
	{"9,9,5,2,1", "e5 a1a2 e4d4", verify.VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: 20000}}},
	{"9,9,5,2,1", "e5 e4e6 d5d4", verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 20000}}},
	{"9,9,5,2,1", "e5 e4e6 d5d4", verify.VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: 20000}}},
}

var c6Cases = []testCase{
	{"19,19,6,2,1", "j10 j9k11 k10l10 m10i10 k8l11 l8k7 m9j6 h11i12 i11g10 g12h12 f13j12 h10h9 h8h13 i9g9 k9f9", verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 5000}}},
	{"19,19,6,2,1", "j10 i9j9 k9i11 j11k10", verify.VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: 5000}}},
	{"19,19,6,2,1", "j10 j12g9 i11h12 g13k9 g11h11 h10i13 f11i12 e11k11", verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 1000}}},
}

// localVerdicts runs every case in this process (the reference).
func localVerdicts(t testing.TB, cases []testCase) [][]byte {
	t.Helper()
	out := make([][]byte, len(cases))
	for i, tc := range cases {
		o := tc.withTol(t)
		o.Workers = 1
		vd, err := verify.Verify(context.Background(), tc.board(t), o, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.turns, err)
		}
		out[i] = comparable(t, vd)
	}
	return out
}

// comparable encodes vd without its timing (which differs between runs).
func comparable(t testing.TB, vd verify.Verdict) []byte {
	t.Helper()
	vd.Elapsed = 0
	data, err := encodeVerdict(&vd)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// runBatch verifies every case through v at once and returns the verdicts.
func runBatch(t testing.TB, ctx context.Context, v verify.Verifier, cases []testCase) [][]byte {
	t.Helper()
	out := make([][]byte, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i, tc := range cases {
		b, o := tc.board(t), tc.withTol(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			vd, err := v.Verify(ctx, b, o, nil)
			if err != nil {
				errs[i] = err
				return
			}
			vd.Elapsed = 0
			out[i], errs[i] = encodeVerdict(&vd)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("case %d (%s): %v", i, cases[i].turns, err)
		}
	}
	return out
}

func sameVerdicts(t testing.TB, cases []testCase, want, got [][]byte) {
	t.Helper()
	for i := range cases {
		if !bytes.Equal(want[i], got[i]) {
			r, _ := game.ParseRules(cases[i].rules)
			w, _ := decodeVerdict(r, want[i])
			g, _ := decodeVerdict(r, got[i])
			t.Errorf("case %d (%s λ%d): queue verdict differs from the local one:\nlocal %s\nqueue %s", i, cases[i].turns, cases[i].opts.Lambda, summary(w), summary(g))
		}
	}
}

func summary(vd verify.Verdict) string {
	return fmt.Sprintf("%s order %d, %d unsolved, %d covered, null zone %d, engine %s", vd.Status, vd.Order, len(vd.Unsolved), len(vd.Covered), len(vd.NullZone), vd.Engine)
}

// testLogf collects log lines for assertions.
type testLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *testLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *testLog) contains(sub string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if bytes.Contains([]byte(s), []byte(sub)) {
			return true
		}
	}
	return false
}

// drainConn waits until srv has closed the connection of the client named
// name (a process that was killed: all it sent has been read), then puts a
// value in the results bucket and waits for its acknowledgement: the
// bucket's stream takes in messages in order, so a result the killed
// process sent is stored by then.
func drainConn(t *testing.T, ctx context.Context, srv *Server, q *queue, name string) {
	t.Helper()
	for open := true; open; {
		cz, err := srv.ns.Connz(&server.ConnzOptions{})
		if err != nil {
			t.Fatal(err)
		}
		open = false
		for _, c := range cz.Conns {
			open = open || c.Name == name
		}
		if open {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if _, err := q.results.Put(ctx, "test-drain", []byte("x")); err != nil {
		t.Fatal(err)
	}
}
