package jobqueue

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
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
	doneSubject    = "c6.done."
	progressPrefix = "c6.progress."
	cancelSubject  = "c6.cancel."

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
	return q, nil
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

// resultVersion is the first byte of a stored result.
const resultVersion = 1

// result is a stored result: the worker that made it, the error it met
// (the caller then runs the job itself) or the encoded verdict.
type result struct {
	worker  string
	err     string
	verdict []byte
}

func (r result) encode() []byte {
	out := []byte{resultVersion}
	out = binary.AppendUvarint(out, uint64(len(r.worker)))
	out = append(out, r.worker...)
	out = binary.AppendUvarint(out, uint64(len(r.err)))
	out = append(out, r.err...)
	return append(out, r.verdict...)
}

func decodeResult(data []byte) (result, error) {
	if len(data) == 0 || data[0] != resultVersion {
		return result{}, fmt.Errorf("%w: result encoding", errCorrupt)
	}
	d := decoder{buf: data[1:]}
	r := result{worker: d.str(), err: d.str()}
	if d.err != nil {
		return result{}, d.err
	}
	r.verdict = d.buf
	return r, nil
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
