package jobqueue

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// The layout on JetStream (all file storage):
//
//	stream C6JOBS      work queue, subjects c6.jobs.<id>; one message a job,
//	                   Nats-Msg-Id = id (a job published twice is queued once)
//	consumer c6-workers  the durable pull consumer every worker shares;
//	                   explicit acks, redelivery after AckWait, no limit on
//	                   deliveries (a refused job waits for a compatible worker)
//	KV C6RESULTS       the result of job <id> under key <id>, written once
//	                   (Create): a second result for the same job is dropped;
//	                   kept keepResults
//	KV C6WORKERS       one key a connected worker, refreshed every few
//	                   seconds, gone after workerTTL
//	objects C6PARTS    a result too large for one message (see putResult),
//	                   sent in chunks under a name of its own and named by
//	                   its key in C6RESULTS; kept keepResults
//
// Core (not persisted) subjects: c6.done.<id> wakes the caller waiting for
// job <id>; c6.progress.<id> carries the running job's progress;
// c6.cancel.<id> tells the workers that the caller of job <id> gave it up
// (the one running it stops and terminates it; the caller has deleted it
// from the stream if it was still queued).
const (
	jobStream      = "C6JOBS"
	jobSubject     = "c6.jobs."
	consumerName   = "c6-workers"
	resultsBucket  = "C6RESULTS"
	workersBucket  = "C6WORKERS"
	partsBucket    = "C6PARTS"
	doneSubject    = "c6.done."
	progressPrefix = "c6.progress."
	cancelSubject  = "c6.cancel."
	// priorityHeader is a job message's priority (a decimal int64, the
	// lower first): the caller's verify.VerifyOptions.Priority, or the
	// time it asked, in Unix nanoseconds. A worker running several jobs
	// gives its solver slots to the lowest first (verify.Gate). It is not
	// part of the job (its id): it changes no verdict.
	priorityHeader = "C6-Priority"

	defaultAckWait = 30 * time.Second
	dedupeWindow   = 10 * time.Minute
	workerTTL      = 15 * time.Second
	heartbeatEvery = 3 * time.Second
	refuseDelay    = 10 * time.Second
	requestTimeout = 5 * time.Second // one request to the server
	// keepResults is how long a result stays stored: long enough for a
	// caller that went away to come back for it, bounded so that the
	// storage folder does not grow for ever.
	keepResults = 30 * 24 * time.Hour
)

// queue is the handles both sides use.
type queue struct {
	js      jetstream.JetStream
	stream  jetstream.Stream
	cons    jetstream.Consumer
	results jetstream.KeyValue
	workers jetstream.KeyValue
	parts   jetstream.ObjectStore
}

// openQueue creates or opens the stream, the consumer and the buckets.
// ackWait 0 keeps an existing consumer's ack deadline (defaultAckWait for
// a new one).
func openQueue(ctx context.Context, js jetstream.JetStream, ackWait time.Duration) (*queue, error) {
	q := &queue{js: js}
	var err error
	q.stream, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: jobStream, Subjects: []string{jobSubject + ">"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: dedupeWindow,
	})
	if err != nil {
		return nil, fmt.Errorf("jobqueue: job stream: %w", err)
	}
	q.cons, err = q.stream.Consumer(ctx, consumerName)
	if errors.Is(err, jetstream.ErrConsumerNotFound) || err == nil && ackWait != 0 && q.cons.CachedInfo().Config.AckWait != ackWait {
		if ackWait == 0 {
			ackWait = defaultAckWait
		}
		q.cons, err = q.stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
			Durable: consumerName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait,
			MaxDeliver: -1, MaxAckPending: -1, FilterSubject: jobSubject + ">",
		})
	}
	if err != nil {
		return nil, fmt.Errorf("jobqueue: worker consumer: %w", err)
	}
	if q.results, err = openBucket(ctx, js, jetstream.KeyValueConfig{Bucket: resultsBucket, History: 1,
		Storage: jetstream.FileStorage, TTL: keepResults}); err != nil {
		return nil, err
	}
	if q.workers, err = openBucket(ctx, js, jetstream.KeyValueConfig{Bucket: workersBucket, History: 1,
		Storage: jetstream.FileStorage, TTL: workerTTL}); err != nil {
		return nil, err
	}
	if q.parts, err = openObjects(ctx, js, jetstream.ObjectStoreConfig{Bucket: partsBucket,
		Storage: jetstream.FileStorage, TTL: keepResults}); err != nil {
		return nil, err
	}
	return q, nil
}

// openObjects opens an object store, creating it with cfg when missing.
func openObjects(ctx context.Context, js jetstream.JetStream, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error) {
	obs, err := js.ObjectStore(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) { // created meanwhile
			obs, err = js.ObjectStore(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("jobqueue: object store %s: %w", cfg.Bucket, err)
	}
	return obs, nil
}

// openBucket opens a KV bucket, creating it with cfg when missing (an
// existing bucket keeps the configuration it has).
func openBucket(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) { // created meanwhile
			kv, err = js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("jobqueue: bucket %s: %w", cfg.Bucket, err)
	}
	return kv, nil
}

// ackWait is the consumer's ack deadline.
func (q *queue) ackWait() time.Duration {
	if d := q.cons.CachedInfo().Config.AckWait; d > 0 {
		return d
	}
	return defaultAckWait
}

// A stored result starts with its version byte: resultVersion holds the
// encoded verdict itself, resultPartsVersion names the object in C6PARTS
// that holds it (a verdict too large for one message), with its size and
// SHA-256 sum, which the reader checks.
const (
	resultVersion      = 1
	resultPartsVersion = 2
)

// Bounds of a result in parts: the most a reader fetches (a bad
// reference cannot make it read more), and the room a message leaves
// besides a result's bytes (headers, subject).
const (
	maxPartsResult = 1 << 30
	messageRoom    = 4 << 10
)

// result is a stored result: the worker that made it, the error it met
// (the caller then runs the job itself) or the encoded verdict. A result
// in parts names its object (parts), with the verdict's size and sum;
// getResult fills verdict from it.
type result struct {
	worker  string
	err     string
	verdict []byte

	parts string
	size  uint64
	sum   [sha256.Size]byte
}

func (r result) encode() []byte {
	v := byte(resultVersion)
	if r.parts != "" {
		v = resultPartsVersion
	}
	out := []byte{v}
	out = binary.AppendUvarint(out, uint64(len(r.worker)))
	out = append(out, r.worker...)
	out = binary.AppendUvarint(out, uint64(len(r.err)))
	out = append(out, r.err...)
	if r.parts != "" {
		out = binary.AppendUvarint(out, uint64(len(r.parts)))
		out = append(out, r.parts...)
		out = binary.AppendUvarint(out, r.size)
		return append(out, r.sum[:]...)
	}
	return append(out, r.verdict...)
}

func decodeResult(data []byte) (result, error) {
	if len(data) == 0 || data[0] != resultVersion && data[0] != resultPartsVersion {
		return result{}, fmt.Errorf("%w: result encoding", errCorrupt)
	}
	d := decoder{buf: data[1:]}
	r := result{worker: d.str(), err: d.str()}
	if data[0] == resultPartsVersion {
		r.parts = d.str()
		r.size = d.uint()
		switch {
		case d.err != nil:
		case r.parts == "":
			d.fail("result in parts without a name")
		case r.size > maxPartsResult:
			d.fail("result of %d bytes, more than %d", r.size, maxPartsResult)
		case len(d.buf) != len(r.sum):
			d.fail("result sum of %d bytes", len(d.buf))
		default:
			copy(r.sum[:], d.buf)
		}
		if d.err != nil {
			return result{}, d.err
		}
		return r, nil
	}
	if d.err != nil {
		return result{}, d.err
	}
	r.verdict = d.buf
	return r, nil
}

// split prepares res (a result with an encoded verdict) for storing: a
// result whose encoding takes more than limit bytes keeps its verdict in
// parts, under a name of its own (two workers may store the same job;
// the one whose reference is stored wins, the other deletes its object).
func (res *result) split(id string, limit int) {
	if res.parts != "" || len(res.encode()) <= limit {
		return
	}
	res.parts = id + "." + nuid.Next()
	res.size = uint64(len(res.verdict))
	res.sum = sha256.Sum256(res.verdict)
}

// putParts writes the verdict of a result in parts into C6PARTS (the
// object store sends it in chunks; its own digest checks them again).
func (q *queue) putParts(ctx context.Context, res result) error {
	_, err := q.parts.PutBytes(ctx, res.parts, res.verdict)
	return err
}

// getParts fills res.verdict from the object a result in parts names,
// checking its size and SHA-256 sum against the reference.
func (q *queue) getParts(ctx context.Context, res *result) error {
	info, err := q.parts.GetInfo(ctx, res.parts)
	if err != nil {
		return fmt.Errorf("result parts %s: %w", res.parts, err)
	}
	if info.Size != res.size {
		return fmt.Errorf("%w: result parts %s hold %d bytes, the result says %d", errCorrupt, res.parts, info.Size, res.size)
	}
	data, err := q.parts.GetBytes(ctx, res.parts)
	if err != nil {
		return fmt.Errorf("result parts %s: %w", res.parts, err)
	}
	if uint64(len(data)) != res.size || sha256.Sum256(data) != res.sum {
		return fmt.Errorf("%w: result parts %s do not match the result's size and sum", errCorrupt, res.parts)
	}
	res.verdict = data
	return nil
}

// dropParts deletes the object of a result in parts (best effort).
func (q *queue) dropParts(ctx context.Context, res result) {
	if res.parts != "" {
		_ = q.parts.Delete(ctx, res.parts)
	}
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
