package jobqueue

import (
	"context"
	"fmt"
	"testing"
	"time"

	"c6book/engine/verify"
	"c6book/internal/cputime"
)

// benchBatch is a fixed batch of 26 distinct jobs: the 9×9 cases at four
// node budgets (different budgets are different jobs), the quick Connect6
// cases, and the slow Connect6 case at four budgets (seconds each).
func benchBatch() []testCase {
	var out []testCase
	for i := 0; i < 4; i++ {
		for _, tc := range smallCases {
			tc.opts.Limits.MaxNodes += int64(i)
			out = append(out, tc)
		}
	}
	out = append(out, c6Cases[:2]...)
	for i := 0; i < 4; i++ {
		tc := c6Cases[2]
		tc.opts.Limits.MaxNodes += int64(i)
		out = append(out, tc)
	}
	return out
}

// BenchmarkBatch runs the batch through an embedded queue with 1, 2 and 4
// in-process workers (one solver each), and in this process one job after
// the other (local): jobs/s and the batch's time. Each iteration uses a
// fresh queue (no stored results).
func BenchmarkBatch(b *testing.B) {
	cases := benchBatch()
	b.Run("local", func(b *testing.B) {
		start, cpu := time.Now(), cputime.ProcessOrWall()
		for i := 0; i < b.N; i++ {
			for _, tc := range cases {
				o := tc.withTol(b)
				o.Workers = 1
				if _, err := verify.Verify(context.Background(), tc.board(b), o, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b, len(cases), time.Since(start), cputime.ProcessOrWall()-cpu)
	})
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			var total, cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e, err := StartEmbedded(context.Background(), EmbeddedConfig{Server: ServerConfig{Dir: b.TempDir()}, Workers: n, Solvers: 1})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start, c0 := time.Now(), cputime.ProcessOrWall()
				runBatch(b, context.Background(), e, cases)
				total += time.Since(start)
				cpu += cputime.ProcessOrWall() - c0
				b.StopTimer()
				e.Close()
				b.StartTimer()
			}
			report(b, len(cases), total, cpu)
		})
	}
}

// report prints jobs/s and the batch's wall time, and its CPU time (all
// of this process: engine, workers, server, client), which other load on
// the machine does not skew.
func report(b *testing.B, jobs int, total, cpu time.Duration) {
	b.ReportMetric(float64(jobs*b.N)/total.Seconds(), "jobs/s")
	b.ReportMetric(total.Seconds()/float64(b.N), "s/batch")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/batch")
}

// BenchmarkTrivialJob measures the queue's own cost: a job that takes the
// engine well under a millisecond, called in-process and through the
// embedded queue (one worker; every iteration a new job, so that no stored
// result answers it). The difference is the overhead per job.
func BenchmarkTrivialJob(b *testing.B) {
	tc := smallCases[0]
	bd, o := tc.board(b), tc.withTol(b)
	o.Workers = 1
	b.Run("in-process", func(b *testing.B) {
		defer reportCPU(b, cputime.ProcessOrWall())
		for i := 0; i < b.N; i++ {
			o.Limits.MaxNodes = int64(1000000 + i)
			if _, err := verify.Verify(context.Background(), bd, o, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) { // the caller's re-check alone
		vd, err := verify.Verify(context.Background(), bd, o, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		defer reportCPU(b, cputime.ProcessOrWall())
		for i := 0; i < b.N; i++ {
			if err := checkVerdict(context.Background(), bd, o, &vd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("queue", func(b *testing.B) {
		e, err := StartEmbedded(context.Background(), EmbeddedConfig{Server: ServerConfig{Dir: b.TempDir()}, Workers: 1, Solvers: 1})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		b.ResetTimer()
		defer reportCPU(b, cputime.ProcessOrWall())
		for i := 0; i < b.N; i++ {
			o.Limits.MaxNodes = int64(1000000 + i)
			if _, err := e.Verify(context.Background(), bd, o, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cputime.ProcessOrWall()-start).Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkCheckConnect6 is the caller's re-check of one result against
// the job itself: the slow Connect6 case verified once (seconds), then its
// verdict re-checked (what every result costs the caller), encoded and
// decoded.
func BenchmarkCheckConnect6(b *testing.B) {
	tc := c6Cases[len(c6Cases)-1]
	bd, o := tc.board(b), tc.withTol(b)
	o.Workers = 1
	start, cpu := time.Now(), cputime.ProcessOrWall()
	vd, err := verify.Verify(context.Background(), bd, o, nil)
	if err != nil {
		b.Fatal(err)
	}
	verifyWall, verifyCPU := time.Since(start), cputime.ProcessOrWall()-cpu
	data, err := encodeVerdict(&vd)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("check", func(b *testing.B) {
		b.ReportMetric(verifyWall.Seconds(), "verify-s")
		b.ReportMetric(verifyCPU.Seconds(), "verify-cpu-s")
		defer reportCPU(b, cputime.ProcessOrWall())
		for i := 0; i < b.N; i++ {
			if err := checkVerdict(context.Background(), bd, o, &vd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("codec", func(b *testing.B) {
		b.ReportMetric(float64(len(data)), "bytes")
		defer reportCPU(b, cputime.ProcessOrWall())
		for i := 0; i < b.N; i++ {
			out, err := encodeVerdict(&vd)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := decodeVerdict(bd.Rules(), out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
