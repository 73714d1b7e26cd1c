// Package jobqueue runs verifier jobs on NATS JetStream: a verify.Verifier
// (Client, Embedded) whose jobs are messages on a work-queue stream, run
// by workers (RunWorker, `c6 worker`) in this process or on other machines,
// and whose results come back through a key-value bucket keyed by job id.
//
// Jobs. A job (jobSpec) is a position in its canonical frame with the rules,
// the attacker (the side that just moved), λ, the tolerance, the solver
// limits and the engine version. Its id is a hash of all of that, so the
// same position in any orientation with the same options is one job: it is
// published with Nats-Msg-Id = id (a job published twice is queued once),
// its result is stored once under the id (a second result is dropped), and
// a Verify that finds the result stored — from an earlier run of a caller
// that was killed, or from another caller — uses it without queueing
// anything.
//
// Trust. The caller never trusts a result: Client.Verify decodes it, checks
// it with checkVerdict (proofcheck, the independent checker, as the proof
// book's StoreVerdict does) and otherwise rejects it, logs it, deletes it
// and runs the job with its fallback verifier (verify.LocalVerifier). A
// proof book's queue (OpenBookQueue) leaves the certificate to the book's
// StoreVerdict, the trust boundary, which checks it once and refuses a
// forged one (ClientConfig.storeChecks).
//
// Size. A verdict travels in a compact encoding (each distinct strategy
// subtree written once, see codec.go); a result still larger than one
// message of the server is stored in parts (an object store, chunked),
// named by its result with its size and SHA-256 sum, which the caller
// checks before decoding. No verdict is refused for its size.
//
// Faults. A worker reports a running job in progress every third of the
// ack deadline; a worker that dies loses its job to another worker after
// the deadline. The server keeps jobs and results in files: they survive
// its restart, and clients and workers reconnect by themselves. A worker
// refuses a job of another engine version or job encoding, or rules the
// engine does not run, with a log line and no answer; the job stays queued
// for a compatible worker.
//
// For the integrator:
//
//	q, err := jobqueue.StartEmbedded(ctx, jobqueue.EmbeddedConfig{
//		Server: jobqueue.ServerConfig{Dir: jobqueue.QueueDir(bookPath)}, // 127.0.0.1, a free port
//	})
//	defer q.Close()
//	var v verify.Verifier = q      // the book's verifier: same verdicts as verify.LocalVerifier
//	st, _ := q.Client().Stats(ctx) // workers, queued, running, done, jobs/s
//
// or, for an external server, jobqueue.Connect(url, creds, name) and
// jobqueue.NewClient(ctx, nc, jobqueue.ClientConfig{}).
package jobqueue
