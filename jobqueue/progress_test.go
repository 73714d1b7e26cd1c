package jobqueue

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"c6book/engine/verify"

	"github.com/nats-io/nats.go"
)

// A running job's progress goes out on its progress subject, and a
// caller's progress callback receives what arrives there.
func TestProgressReachesCaller(t *testing.T) {
	e := startEmbedded(t, EmbeddedConfig{Workers: 1, Solvers: 1})
	ctx := t.Context()
	tc := smallCases[2] // λ3, over a hundred solver calls
	b, o := tc.board(t), tc.withTol(t)
	job, _ := newJob(b, o)

	seen := make(chan verify.VerifyProgress, 100)
	sub, err := e.nc.Subscribe(progressPrefix+job.id(), func(m *nats.Msg) {
		var p verify.VerifyProgress
		if json.Unmarshal(m.Data, &p) == nil {
			seen <- p
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if _, err := e.Verify(ctx, b, o, nil); err != nil {
		t.Fatal(err)
	}
	// The worker's first report (a missing one hangs until go test's
	// -timeout).
	if p := <-seen; p.Phase == "" || p.Total == 0 {
		t.Errorf("worker's progress report %+v", p)
	}

	// The caller's side: reports on the subject reach the callback.
	var mu sync.Mutex
	var got []verify.VerifyProgress
	stop := forwardProgress(ctx, e.nc, "x", func(p verify.VerifyProgress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	data, _ := json.Marshal(verify.VerifyProgress{Phase: "moves", Done: 7, Total: 9})
	if err := e.nc.Publish(progressPrefix+"x", data); err != nil {
		t.Fatal(err)
	}
	for { // until the report reaches the callback
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].Done != 7 || got[0].Total != 9 {
		t.Errorf("callback got %+v", got)
	}
}
