package jobqueue

import (
	"context"
	"errors"
	"fmt"

	"c6book/engine/verify"
)

// BookQueueConfig chooses a proof book's verifier queue (OpenBookQueue):
// the one home of that choice for the workbench and `c6 book prove`.
type BookQueueConfig struct {
	// Book is the book's path: the embedded queue is stored beside it
	// (QueueDir).
	Book string
	// ReadOnly says why the book cannot be written ("" when it can): the
	// embedded queue is then not started.
	ReadOnly string
	// None: no queue; verify.LocalVerifier verifies in this process.
	None bool
	// URL: an external queue (Creds its credentials file, Name the
	// client's name, RemoteWorkers the job slots this process adds to it).
	// Its errors are the jobs' errors: verifying here instead would hide
	// a wrong setting.
	URL, Creds, Name string
	RemoteWorkers    int
	// Listen opens the embedded queue on a network address for workers
	// on other machines; Creds is then the credentials file they must
	// hold. Its errors are the jobs' errors too.
	Listen string
	// Workers and Solvers are the embedded queue's in-process job slots
	// and each job's solver calls (with URL, Solvers is that of the slots
	// this process adds).
	Workers, Solvers int
	// Logf logs the queue's messages (rejected results…; nil: log.Printf).
	Logf func(format string, args ...any)
	// Note is told, once, why the default embedded queue did not start
	// and verify.LocalVerifier answers instead (not for None).
	Note func(error)
	// Prepare runs before the embedded queue starts (creating a missing
	// credentials file…); its error is the start's.
	Prepare func() error
	// Opened is called with the queue when it has opened.
	Opened func(Queue)
}

// errNoQueue is why a queue with BookQueueConfig.None does not open
// (verify.LocalVerifier answers).
var errNoQueue = errors.New("jobqueue: no queue")

// OpenBookQueue returns the verifier of a proof book (opened by its first
// job): an external queue (URL), the embedded one beside the book on a
// network address (Listen), or by default the embedded one on no network,
// which falls back to verify.LocalVerifier when it cannot start (a
// read-only book, a folder that cannot hold it) and says why through Note.
// Every verdict it returns goes to the book's StoreVerdict, which checks
// the certificate: the client checks the verdict's shape only
// (ClientConfig.storeChecks).
func OpenBookQueue(cfg BookQueueConfig) *Lazy {
	client := ClientConfig{Logf: cfg.Logf, storeChecks: true}
	open := func(ctx context.Context) (Queue, error) {
		switch {
		case cfg.None:
			return nil, errNoQueue
		case cfg.URL != "":
			return openRemote(ctx, remoteConfig{URL: cfg.URL, Creds: cfg.Creds, Name: cfg.Name,
				Workers: cfg.RemoteWorkers, Solvers: cfg.Solvers, Client: client})
		case cfg.ReadOnly != "":
			return nil, fmt.Errorf("the book is read-only: %s", cfg.ReadOnly)
		}
		if cfg.Prepare != nil {
			if err := cfg.Prepare(); err != nil {
				return nil, err
			}
		}
		return StartEmbedded(ctx, EmbeddedConfig{
			Server:  ServerConfig{Dir: QueueDir(cfg.Book), Listen: cfg.Listen, CredsFile: cfg.Creds},
			Workers: cfg.Workers, Solvers: cfg.Solvers, Client: client})
	}
	opened := func(ctx context.Context) (Queue, error) {
		q, err := open(ctx)
		if err == nil && cfg.Opened != nil {
			cfg.Opened(q)
		}
		return q, err
	}
	if cfg.URL != "" || cfg.Listen != "" {
		return newLazy(opened, nil, nil)
	}
	note := func(err error) {
		if cfg.Note != nil && !errors.Is(err, errNoQueue) {
			cfg.Note(err)
		}
	}
	return newLazy(opened, verify.LocalVerifier{}, note)
}
