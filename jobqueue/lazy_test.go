package jobqueue

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"c6book/engine/verify"
)

// Lazy opens its queue on the first Verify only; a failed open without a
// fallback is an error and is tried again; with a fallback it is said once
// and the fallback answers; Close closes the queue and refuses later jobs.
func TestLazy(t *testing.T) {
	ctx := t.Context()
	tc := smallCases[0]
	b, o := tc.board(t), tc.withTol(t)
	want := localVerdicts(t, []testCase{tc})[0]

	dir := filepath.Join(t.TempDir(), "q")
	opens := 0
	var q *Embedded
	l := newLazy(func(ctx context.Context) (Queue, error) {
		opens++
		if opens == 1 {
			return nil, errors.New("not yet")
		}
		var err error
		q, err = StartEmbedded(ctx, EmbeddedConfig{Server: ServerConfig{Dir: dir}, Workers: 1, Solvers: 1})
		return q, err
	}, nil, nil)
	if l.Queue() != nil || opens != 0 {
		t.Fatal("opened before any job")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("storage made before any job: %v", err)
	}
	if _, err := l.Verify(ctx, b, o, nil); err == nil || err.Error() != "not yet" {
		t.Fatalf("first Verify: %v, want the open error", err)
	}
	vd, err := l.Verify(ctx, b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(comparable(t, vd)) != string(want) {
		t.Errorf("verdict through Lazy: %s", summary(vd))
	}
	if _, ok, err := l.Stats(ctx); !ok || err != nil || l.Queue() != Queue(q) || opens != 2 {
		t.Fatalf("after a job: stats %v %v, %d opens", ok, err, opens)
	}
	l.Close()
	if _, err := l.Verify(ctx, b, o, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Verify after Close: %v", err)
	}
	if srv, err := StartServer(ServerConfig{Dir: dir}); err != nil {
		t.Errorf("the queue still runs after Close: %v", err)
	} else {
		srv.Shutdown()
	}

	var notes []error
	f := newLazy(func(context.Context) (Queue, error) { return nil, errors.New("no storage") },
		verify.LocalVerifier{}, func(err error) { notes = append(notes, err) })
	for i := 0; i < 2; i++ {
		vd, err := f.Verify(ctx, b, o, nil)
		if err != nil || string(comparable(t, vd)) != string(want) {
			t.Fatalf("fallback Verify: %v %s", err, summary(vd))
		}
	}
	if len(notes) != 1 || f.Queue() != nil {
		t.Errorf("notes %v, queue %v: want one note and no queue", notes, f.Queue())
	}
}
