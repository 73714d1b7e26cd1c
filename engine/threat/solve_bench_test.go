package threat

import (
	"context"
	"testing"

	"c6book/internal/cputime"

	"c6book/engine/internal/enginetest"
)

// BenchmarkVCDTPublic solves the public positions by VCDT (50,000 nodes
// each) and reports the node rate and the mean nodes of a win.
func BenchmarkVCDTPublic(b *testing.B) {
	benchSolvePublic(b, VCDT)
}

// BenchmarkVCSTPublic is the same for VCST.
func BenchmarkVCSTPublic(b *testing.B) {
	benchSolvePublic(b, VCST)
}

func benchSolvePublic(b *testing.B, mode Mode) {
	pos := enginetest.PublicPositions(b)
	ctx := context.Background()
	var nodes, winNodes int64
	wins := 0
	b.ResetTimer()
	cpu0 := cputime.ProcessOrWall()
	for i := 0; i < b.N; i++ {
		for _, p := range pos {
			res, err := Solve(ctx, p, Params{Mode: mode, Limits: Limits{MaxNodes: 50000}})
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Nodes
			if res.Outcome == Win {
				wins++
				winNodes += res.Nodes
			}
		}
	}
	cpu := cputime.ProcessOrWall() - cpu0
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	}
	b.ReportMetric(float64(wins)/float64(b.N), "wins")
	if wins > 0 {
		// Move ordering: the nodes a win takes (deterministic, unlike
		// the rates).
		b.ReportMetric(float64(winNodes)/float64(wins), "nodes/win")
	}
}
