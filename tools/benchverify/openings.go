package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/internal/cputime"
	"c6book/internal/openingset"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

// opening is a line of the opening set (tools/openingset).
type opening struct {
	rank  string
	turns string
	board *board.Board // after the attacker's reply: defender to move
}

func loadOpenings(path string) ([]opening, error) {
	r := game.Connect6()
	var out []opening
	err := openingset.EachRow(path, 4, func(cols []string) error {
		b, err := board.ReplayText(r, cols[3])
		if err != nil {
			return err
		}
		out = append(out, opening{rank: cols[0], turns: cols[3], board: b})
		return nil
	})
	return out, err
}

// benchOpenings verifies the attacker's reply of each of the first n
// openings (0: all) and prints, per verifier call, its verdict, unsolved
// moves, solver calls, CPU seconds and solver nodes, then the totals.
// Every certificate is re-checked by proofcheck, with its claimed order.
func benchOpenings(ctx context.Context, w io.Writer, path string, n int, opts verify.VerifyOptions) error {
	ops, err := loadOpenings(path)
	if err != nil {
		return err
	}
	if n > 0 && n < len(ops) {
		ops = ops[:n]
	}
	budget := fmt.Sprintf("%d nodes", opts.Limits.MaxNodes)
	if opts.Limits.Timeout > 0 {
		budget += fmt.Sprintf(", %v", opts.Limits.Timeout)
	}
	fmt.Fprintf(w, "verifier on %d opening positions of %s, λ%d, per solver call %s, workers %d\n", len(ops), path, opts.Lambda, budget, opts.Workers)
	fmt.Fprintf(w, "%-4s %-28s %-6s %5s %8s %8s %7s %12s %8s %8s\n", "rank", "turns", "status", "order", "unsolved", "seminull", "calls", "nodes", "cpu s", "wall s")
	var calls, unsolved, semi, proved int
	var nodes int64
	var cpu, wall time.Duration
	for _, o := range ops {
		c0 := cputime.ProcessOrWall()
		t0 := time.Now()
		vd, err := verify.Verify(ctx, o.board, opts, nil)
		dc, dw := cputime.ProcessOrWall()-c0, time.Since(t0)
		if err != nil {
			return fmt.Errorf("%s: %w", o.turns, err)
		}
		b := o.board
		res, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), 0, enginecert.FromVerdict(&vd))
		if err == nil {
			err = res.CheckOrder(vd.Order)
		}
		if err != nil {
			return fmt.Errorf("%s: the certificate does not check: %w", o.turns, err)
		}
		un := fmt.Sprint(len(vd.Unsolved))
		if vd.AllUnsolved {
			un = "all"
		}
		fmt.Fprintf(w, "%-4s %-28s %-6s %5d %8s %8d %7d %12d %8.2f %8.2f\n", o.rank, o.turns, vd.Status, vd.Order, un,
			len(vd.OpenSeminull), vd.Calls, vd.Nodes, dc.Seconds(), dw.Seconds())
		calls += vd.Calls
		nodes += vd.Nodes
		unsolved += len(vd.Unsolved)
		semi += len(vd.OpenSeminull)
		cpu += dc
		wall += dw
		if vd.Status == verify.StatusProved {
			proved++
		}
	}
	perCall := 0.0
	if calls > 0 {
		perCall = float64(nodes) / float64(calls)
	}
	fmt.Fprintf(w, "total: %d positions, %d proved; %d solver calls, %d unsolved moves, %d open seminull moves, %.2f CPU s, %.2f wall s, %d nodes (%.0f per call)\n",
		len(ops), proved, calls, unsolved, semi, cpu.Seconds(), wall.Seconds(), nodes, perCall)
	return nil
}
