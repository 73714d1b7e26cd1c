package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book/engine/board"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/jobqueue"
	"c6book/proofbook"
	"c6book/service"
)

func newSmallBook(t *testing.T, path string) {
	t.Helper()
	bk, err := proofbook.Create(context.Background(), path, small)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
}

// queueFree reports whether no process serves the queue folder dir (its
// server was closed): a server can be started on it.
func queueFree(t *testing.T, dir string) bool {
	t.Helper()
	srv, err := jobqueue.StartServer(jobqueue.ServerConfig{Dir: dir})
	var inUse *jobqueue.InUseError
	if errors.As(err, &inUse) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	srv.Shutdown()
	return true
}

// The workbench's Verify goes through the queue embedded beside the book
// (started by the first job), gives the local verdict, and the queue is
// closed when another book is opened; the "Verifier queue" setting sends
// the next job to an external server.
func TestVerifyThroughBookQueue(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "q.c6book")
	newSmallBook(t, path)
	a := test.NewTempApp(t)
	ta := startAppQueue(t, a, options{book: path})
	wb := ta.wa.wb
	if _, err := os.Stat(path + ".jobs"); !os.IsNotExist(err) {
		t.Fatalf("the queue started before any job: %v", err)
	}
	autoQueue(t, ta)
	ta.tap("e4", "c5", "g5", "d3", "g4")
	b, _ := board.ReplayText(small, "e4 c5g5 d3g4")
	want, err := verify.Verify(context.Background(), b, verify.VerifyOptions{Lambda: 2, Tolerance: 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wb.Prover().Verify()
	ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
	v := wb.Cursor().Verdict()
	if v == nil || v.Proved() != (want.Status == verify.StatusProved) || len(v.Items()) != len(want.Unsolved) {
		t.Fatalf("verdict through the queue %+v, local %s with %d unsolved", v, want.Status, len(want.Unsolved))
	}
	if _, err := os.Stat(path + ".jobs"); err != nil {
		t.Fatalf("no queue beside the book: %v", err)
	}
	if queueFree(t, path+".jobs") {
		t.Fatal("the book's queue is not running after a job")
	}
	st, ok, err := ta.wa.queue.cur.lazy.Stats(context.Background())
	if err != nil || !ok || st.Done != 1 || st.Accepted != 1 || st.Workers != 1 {
		t.Fatalf("queue stats %+v (%v, %v): want 1 result, accepted, 1 worker", st, ok, err)
	}
	if s := ta.wa.queue.status(context.Background()); s != "" {
		t.Errorf("status line with no job running: %q", s)
	}

	// An external queue: the next job goes there.
	ext, err := jobqueue.StartEmbedded(context.Background(), jobqueue.EmbeddedConfig{
		Server: jobqueue.ServerConfig{Dir: filepath.Join(dir, "external"), Listen: "127.0.0.1:0", OpenLoopback: true}, Workers: 1, Solvers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ext.Close()
	ta.wa.setQueueSetting(queueSetting{url: ext.URL()})
	if !queueFree(t, path+".jobs") {
		t.Fatal("the embedded queue still runs after the setting changed")
	}
	wb.Cursor().Back()
	ta.tap("f3", "f5")
	if got := ta.line(); got != "e4 c5g5 f3f5" {
		t.Fatalf("line %q", got)
	}
	wb.Prover().Verify()
	if !wb.Prover().Running() {
		t.Fatal("the second Verify did not start")
	}
	ta.pumpUntil("the second verdict", func() bool { return !wb.Prover().Running() })
	if es, err := ext.Stats(context.Background()); err != nil || es.Done != 1 {
		t.Fatalf("external queue: %+v, %v; want the job there", es, err)
	}
	if got := a.Preferences().String(prefNATSURL); got != ext.URL() {
		t.Errorf("setting stored as %q", got)
	}
	ta.wa.setQueueSetting(queueSetting{})

	// Another book: the first one's queue is closed, the new one's starts
	// with its first job.
	other := filepath.Join(dir, "other.c6book")
	newSmallBook(t, other)
	ta.wa.openPath(other)
	if ta.wa.bk.Path() != other {
		t.Fatalf("open: still on %s", ta.wa.bk.Path())
	}
	autoQueue(t, ta)
	ta.tap("e4", "c5", "g5", "d3", "g4")
	wb.Prover().Verify()
	ta.pumpUntil("the verdict on the other book", func() bool { return !wb.Prover().Running() })
	if !queueFree(t, path+".jobs") || queueFree(t, other+".jobs") {
		t.Fatal("after the switch: want the first book's queue closed and the other's running")
	}
	ta.wa.wb.Session().Close() // what close does before the book closes
	ta.wa.stopQueue()
	if !queueFree(t, other+".jobs") {
		t.Fatal("the queue runs after the app closed")
	}
}

// autoQueue checks that the auto-pilot's jobs go through the queue.
func autoQueue(t *testing.T, ta *testApp) {
	t.Helper()
	st, ok := ta.wa.wb.Session().Store().(*service.Store)
	if !ok || st.JobVerifier() != verify.Verifier(ta.wa.queue) {
		t.Fatalf("the auto-pilot's verifier is not the book's queue: %T", ta.wa.wb.Session().Store())
	}
}

// A read-only book, or a folder where the queue cannot be stored, verifies
// in this process and says why; a closed queue refuses jobs.
func TestBookQueueFallsBackToLocal(t *testing.T) {
	dir := t.TempDir()
	notFolder := filepath.Join(dir, "file")
	if err := os.WriteFile(notFolder, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := board.ReplayText(small, "e4 c5g5 d3g4")
	o := verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}
	want, err := verify.Verify(context.Background(), b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, readOnly, note string
	}{
		{"read-only", filepath.Join(dir, "ro.c6book"), "opened read-only", "read-only"},
		{"unwritable folder", filepath.Join(notFolder, "b.c6book"), "", "could not start"},
	} {
		var mu sync.Mutex
		var notes []string
		q := &bookQueue{path: tc.path, readOnly: tc.readOnly, note: func(s string) {
			mu.Lock()
			notes = append(notes, s)
			mu.Unlock()
		}}
		got, err := q.Verify(t.Context(), b, o, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.Status != want.Status || len(got.Unsolved) != len(want.Unsolved) {
			t.Errorf("%s: %s with %d unsolved, want the local %s with %d", tc.name, got.Status, len(got.Unsolved), want.Status, len(want.Unsolved))
		}
		mu.Lock()
		if len(notes) != 1 || !strings.Contains(notes[0], tc.note) {
			t.Errorf("%s: notes %q, want one about %q", tc.name, notes, tc.note)
		}
		mu.Unlock()
		if _, err := os.Stat(jobqueue.QueueDir(tc.path)); err == nil {
			t.Errorf("%s: a queue folder was made", tc.name)
		}
		q.close()
		if _, err := q.Verify(context.Background(), b, o, nil); !errors.Is(err, jobqueue.ErrClosed) {
			t.Errorf("%s: Verify after close: %v", tc.name, err)
		}
	}
}
