package proofbook

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"c6book/engine"
)

// The shared LittleGolem games (read-only); benchmarks skip without them.
const sharedGames = "../../shared/data/littlegolem-connect6-games.json.gz"

func loadShared(b *testing.B, n int) ([]string, map[string][]string) {
	f, err := os.Open(sharedGames)
	if err != nil {
		b.Skip("shared games file not available:", err)
	}
	defer f.Close()
	ids, games, err := ReadGames(f)
	if err != nil {
		b.Fatal(err)
	}
	if n > 0 && n < len(ids) {
		ids = ids[:n]
	}
	return ids, games
}

// benchGames is the number of games to import: C6_BENCH_GAMES, default all.
func benchGames() int {
	n, _ := strconv.Atoi(os.Getenv("C6_BENCH_GAMES"))
	return n
}

// BenchmarkImportGames imports the shared games into a fresh book and
// reports the time and the size on disk.
func BenchmarkImportGames(b *testing.B) {
	ids, games := loadShared(b, benchGames())
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		bk, err := Create(ctx, filepath.Join(dir, "bench.c6book"), engine.Connect6())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		st, err := bk.importGames(ctx, ids, games, ImportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		el := time.Since(start)
		b.StopTimer()
		s, err := bk.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		bk.Close()
		fi, _ := os.Stat(filepath.Join(dir, "bench.c6book"))
		b.ReportMetric(float64(st.Games), "games")
		b.ReportMetric(float64(s.Positions), "positions")
		b.ReportMetric(float64(fi.Size())/1e6, "MB")
		b.ReportMetric(el.Seconds(), "s/import")
		b.StartTimer()
	}
}
