package proofbook

import (
	"context"
	"database/sql"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"c6book"
	"c6book/engine/game"
	"c6book/internal/cputime"
)

// copyBook copies a book file (and its -wal) into a temporary folder.
func copyBook(b *testing.B, src string) string {
	b.Helper()
	dst := filepath.Join(b.TempDir(), filepath.Base(src))
	for _, ext := range []string{"", "-wal"} {
		in, err := os.Open(src + ext)
		if err != nil {
			if ext != "" && os.IsNotExist(err) {
				continue
			}
			b.Fatal(err)
		}
		out, err := os.Create(dst + ext)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			b.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return dst
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// BenchmarkProofsChecked measures the pass that compares the proof digest
// with the rows (ProofsChecked, uncached): on a copy of the book C6_BOOK
// when set (its proofs as they are), else on a generated book with
// C6_DIGEST_PROOFS synthetic proofs (default 20000: a proved status row
// with a zone and a verdict row with C6_DIGEST_CERT bytes of certificate,
// default 2000, each). Reports the CPU time of a pass and per row.
func BenchmarkProofsChecked(b *testing.B) {
	ctx := context.Background()
	var path string
	if src := os.Getenv("C6_BOOK"); src != "" {
		path = copyBook(b, src)
	} else {
		bk, err := Create(ctx, filepath.Join(b.TempDir(), "digest.c6book"), game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1})
		if err != nil {
			b.Fatal(err)
		}
		n, certBytes := envInt("C6_DIGEST_PROOFS", 20000), envInt("C6_DIGEST_CERT", 2000)
		rng := rand.New(rand.NewPCG(1, 2))
		err = bk.write(ctx, func(tx *sql.Tx) error {
			cert, data, zone := make([]byte, certBytes), make([]byte, 600), make([]byte, 40)
			for i := 0; i < n; i++ {
				for j := range cert {
					cert[j] = byte(rng.Uint32())
				}
				res, err := tx.ExecContext(ctx, "INSERT INTO position(key, stones, to_move, nstones, created_at) VALUES (?, X'', 2, 0, 0)", int64(rng.Uint64()))
				if err != nil {
					return err
				}
				pos, _ := res.LastInsertId()
				if _, err := tx.ExecContext(ctx, "INSERT INTO verdict(pos, attacker, status, ord, engine, data, created_at, cert) VALUES (?, 1, 'proved', 2, 'synthetic', ?, 0, ?)", pos, string(data), cert); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, "INSERT INTO status(pos, attacker, status, ord, how, pn, dn, updated_at, zone) VALUES (?, 1, 2, 2, 'verdict', 0, ?, 0, ?)", pos, c6book.Infinite, zone); err != nil {
					return err
				}
			}
			return recordDigest(ctx, tx)
		})
		if err != nil {
			b.Fatal(err)
		}
		path = bk.Path()
		bk.Close()
	}
	bk, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	var rows int64
	for _, q := range []string{"SELECT count(*) FROM status WHERE status = 2", "SELECT count(*) FROM verdict"} {
		var n int64
		if err := bk.r.QueryRowContext(ctx, q).Scan(&n); err != nil {
			b.Fatal(err)
		}
		rows += n
	}
	b.ResetTimer()
	cpu0 := cputime.ProcessOrWall()
	for i := 0; i < b.N; i++ {
		bk.dmu.Lock()
		bk.dcache = proofsCache{} // uncached: the pass every time
		bk.dmu.Unlock()
		if ok, err := bk.ProofsChecked(ctx); err != nil || !ok {
			b.Fatalf("ProofsChecked: %v %v", ok, err)
		}
	}
	cpu := cputime.ProcessOrWall() - cpu0
	b.ReportMetric(float64(rows), "rows")
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms/pass")
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(max(rows, 1))/float64(time.Microsecond), "cpu-µs/row")
}
