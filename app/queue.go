package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"c6book/engine/board"
	"c6book/engine/verify"
	"c6book/jobqueue"
	"c6book/service"
	"c6book/session"
)

// The workbench's verifier queue. Every verifier job of the open book (the
// Verify button, the auto-pilot) goes through bookQueue, a verify.Verifier
// that the rest of the app takes from workbenchApp.verifier(). By default
// it is the embedded queue beside the book (jobqueue.StartEmbedded: storage
// BOOK.jobs, in-process workers, on no network: no other process, no other
// local user, can reach it), started by the first job and closed when
// another book is opened or the app quits; the File menu's "Verifier
// queue…" points it at an external NATS server instead. A read-only book,
// a folder where the queue cannot be stored, or one whose queue another
// process serves (`c6 book prove` on the same book) verifies in this
// process (verify.LocalVerifier) and says so in the status bar.

// Preference keys of the queue setting.
const (
	prefNATSURL   = "natsURL"   // "" = the embedded queue
	prefNATSCreds = "natsCreds" // credentials file for natsURL
)

// queueSetting is where the queue is.
type queueSetting struct {
	url, creds string
}

// queueRef is one opened (or to be opened) queue and the calls using it.
type queueRef struct {
	lazy    *jobqueue.Lazy
	calls   int  // Verify calls in flight on it
	retired bool // close it when calls reaches 0
}

// bookQueue is the open book's verifier. Safe for concurrent use.
type bookQueue struct {
	note func(string) // tells the user why the local verifier answers (any goroutine; must not block)

	mu       sync.Mutex
	path     string // the open book
	readOnly string // why it cannot be written
	setting  queueSetting
	local    bool // tests: verify in this process, no queue
	closed   bool
	cur      *queueRef
}

var _ verify.Verifier = (*bookQueue)(nil)

// setBook makes the queue that of the book at path (the previous one is
// closed once its jobs have ended: the session has cancelled them).
func (q *bookQueue) setBook(path, readOnly string) {
	q.mu.Lock()
	q.path, q.readOnly = path, readOnly
	old := q.retireLocked()
	q.mu.Unlock()
	closeQueue(old)
}

// setSetting points the next jobs at another queue.
func (q *bookQueue) setSetting(s queueSetting) {
	q.mu.Lock()
	if q.setting == s {
		q.mu.Unlock()
		return
	}
	q.setting = s
	old := q.retireLocked()
	q.mu.Unlock()
	closeQueue(old)
}

// close closes the queue (after the session's jobs were cancelled and
// waited for); later jobs fail.
func (q *bookQueue) close() {
	q.mu.Lock()
	q.closed = true
	old := q.retireLocked()
	q.mu.Unlock()
	closeQueue(old)
}

// retireLocked detaches the current queue and returns it when it can be
// closed now (no call in flight); otherwise its last call closes it.
func (q *bookQueue) retireLocked() *jobqueue.Lazy {
	r := q.cur
	q.cur = nil
	if r == nil {
		return nil
	}
	r.retired = true
	if r.calls == 0 {
		return r.lazy
	}
	return nil
}

func closeQueue(l *jobqueue.Lazy) {
	if l != nil {
		l.Close()
	}
}

// acquire returns the current queue (prepared on first use), counted as
// in use until release.
func (q *bookQueue) acquire() (*queueRef, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil, jobqueue.ErrClosed
	}
	if q.cur == nil {
		q.cur = &queueRef{lazy: q.newLazy()}
	}
	q.cur.calls++
	return q.cur, nil
}

func (q *bookQueue) release(r *queueRef) {
	q.mu.Lock()
	r.calls--
	done := r.retired && r.calls == 0
	q.mu.Unlock()
	if done {
		r.lazy.Close()
	}
}

// newLazy prepares the queue the setting asks for (jobqueue.OpenBookQueue);
// it starts on the first job.
func (q *bookQueue) newLazy() *jobqueue.Lazy {
	note := q.note
	say := func(format string, args ...any) {
		if note != nil {
			note(fmt.Sprintf(format, args...))
		}
	}
	cfg := jobqueue.BookQueueConfig{Book: q.path, ReadOnly: q.readOnly, None: q.local, Name: "c6book",
		Logf: func(format string, args ...any) { say("verifier queue: "+format, args...) },
		Note: func(err error) { say("verifying in this process: the verifier queue could not start (%v)", err) },
		// A slot a core (at least two), each job's solver calls on every
		// core: one Verify runs as it did in this process, and the
		// auto-pilot's parallel jobs run at once, sharing the cores.
		Workers: service.QueueSlots(), Solvers: service.Workers(1)}
	if q.setting.url != "" {
		// An external queue the user chose: its errors are the job's
		// errors (verifying here instead would hide a wrong setting).
		cfg.URL, cfg.Creds = q.setting.url, q.setting.creds
	}
	return jobqueue.OpenBookQueue(cfg)
}

// Verify runs a verifier job through the open book's queue.
func (q *bookQueue) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	r, err := q.acquire()
	if err != nil {
		return verify.Verdict{}, err
	}
	defer q.release(r)
	return r.lazy.Verify(ctx, b, opts, progress)
}

// status is the status bar's text: the queue's state while jobs run.
func (q *bookQueue) status(ctx context.Context) string {
	q.mu.Lock()
	r := q.cur
	busy := r != nil && r.calls > 0
	q.mu.Unlock()
	if !busy {
		return ""
	}
	st, ok, err := r.lazy.Stats(ctx)
	switch {
	case err != nil:
		return "Verifier queue: " + err.Error()
	case !ok:
		return "" // verifying in this process
	}
	text := fmt.Sprintf("Verifier queue: %s (%s) · %d queued · %d running · %d done · %.2f jobs/s",
		session.Plural(st.Workers, "worker", "workers"), session.Plural(st.Slots, "slot", "slots"), st.Queued, st.Running, st.Done, st.Throughput)
	if st.Rejected > 0 {
		text += fmt.Sprintf(" · %s rejected and redone here", session.Plural(st.Rejected, "result", "results"))
	}
	return text
}

// verifier is the verifier every job of the app uses: the open book's
// queue (it follows the book when another one is opened).
func (wa *workbenchApp) verifier() verify.Verifier { return wa.queue }

// startQueue sets up the queue for the open book and the status bar line
// that shows its state while jobs run. local: verify in this process.
func (wa *workbenchApp) startQueue(local bool) {
	p := wa.app.Preferences()
	wa.status, wa.statusBar = newStatusLine()
	wa.queue = &bookQueue{local: local, path: wa.bk.Path(), readOnly: wa.bk.ReadOnly(),
		setting: loadQueueSetting(p)}
	var mu sync.Mutex
	var note string // the last note, shown until the next job's state
	wa.queue.note = func(s string) {
		mu.Lock()
		note = s
		mu.Unlock()
	}
	if local {
		return // tests: nothing to show
	}
	ctx, stop := context.WithCancel(context.Background())
	wa.stopStatus = stop
	wa.statusDone = make(chan struct{})
	go func() {
		defer close(wa.statusDone)
		shown := ""
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			text := wa.queue.status(rctx)
			cancel()
			mu.Lock()
			if text == "" {
				text = note
			} else {
				note = ""
			}
			mu.Unlock()
			if text == shown || ctx.Err() != nil {
				continue
			}
			shown = text
			wa.cfg.Do(func() { wa.setStatus(text) })
		}
	}()
}

// stopQueue stops the status line and closes the queue (the session's
// jobs are cancelled and waited for before).
func (wa *workbenchApp) stopQueue() {
	if wa.stopStatus != nil {
		wa.stopStatus()
		<-wa.statusDone
		wa.stopStatus = nil
	}
	if wa.queue != nil {
		wa.queue.close()
	}
}

// loadQueueSetting reads the saved verifier queue (empty: the embedded
// one).
func loadQueueSetting(p fyne.Preferences) queueSetting {
	return queueSetting{url: p.String(prefNATSURL), creds: p.String(prefNATSCreds)}
}

// setQueueSetting stores the setting; the next job uses it (jobs running
// finish on the queue they started on).
func (wa *workbenchApp) setQueueSetting(s queueSetting) {
	p := wa.app.Preferences()
	p.SetString(prefNATSURL, s.url)
	p.SetString(prefNATSCreds, s.creds)
	wa.queue.setSetting(s)
}
