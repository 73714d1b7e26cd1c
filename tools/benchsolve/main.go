// Command benchsolve measures the threat-space solvers on a file of
// positions (gid, k, to_move, turns; attacker to move): for each mode and
// per-position budget, the wins found, the median, 90th-percentile and
// maximum solve time (of all solves and of the wins) and the node rate per
// second of solve time and per CPU second;
// then the positions each run misses and the wins one mode finds that
// another misses with the same budget. `make bench-solve` runs it on the
// public LittleGolem positions.
//
//	go run ./tools/benchsolve [-positions file] [-modes vcdt,vcst] [-budgets 1s,10s] [-workers 2] [-max-nodes N] [-per file]
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/internal/cputime"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchsolve:", err)
		os.Exit(1)
	}
}

type position struct {
	id string
	k  string // the winner's own turns to six in the game
	b  *board.Board
}

// solveRun is one mode at one budget over all positions.
type solveRun struct {
	mode   threat.Mode
	budget time.Duration
	res    []outcome
}

type outcome struct {
	win     bool
	reason  string
	nodes   int64
	elapsed time.Duration
	call    time.Duration // the caller's wall clock around Solve
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("benchsolve", flag.ContinueOnError)
	file := fs.String("positions", "../shared/positions/littlegolem-public.tsv", "positions: gid, k, to_move, turns (tab-separated, # comments)")
	modes := fs.String("modes", "vcdt,vcst", "solver modes, comma-separated")
	budgets := fs.String("budgets", "1s,10s", "time budgets per position, comma-separated")
	maxNodes := fs.Int64("max-nodes", 20_000_000, "node budget per position besides the time budget (bounds memory: ~100 bytes a node)")
	workers := fs.Int("workers", 2, "positions solved in parallel (each solve is single-threaded)")
	limit := fs.Int("n", 0, "use only the first n positions (0: all)")
	freeFlag := fs.String("free", "near", "free-stone policy: near or all")
	perFile := fs.String("per", "", "also write one line per position and run to this file: mode, budget, gid, win, nodes, seconds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *workers < 1 {
		return errors.New("-workers must be at least 1")
	}
	free, err := threat.ParseFreePolicy(*freeFlag)
	if err != nil {
		return fmt.Errorf("-free: %w", err)
	}
	pos, err := readPositions(*file)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(pos) {
		pos = pos[:*limit]
	}
	var ms []threat.Mode
	for _, m := range strings.Split(*modes, ",") {
		mode, err := threat.ParseMode(strings.TrimSpace(m))
		if err != nil {
			return err
		}
		ms = append(ms, mode)
	}
	var bs []time.Duration
	for _, s := range strings.Split(*budgets, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d <= 0 {
			return fmt.Errorf("budget %q: want a positive duration", s)
		}
		bs = append(bs, d)
	}
	fmt.Fprintf(w, "%d positions from %s, %d workers, node budget %d, free stones %s\n", len(pos), *file, *workers, *maxNodes, *freeFlag)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tbudget\twins\tby k\tmedian\tp90\tmax\tmedian(win)\tp90(win)\tmax(win)\tnodes/s\tnodes/cpu-s\tbudget hit\tmax over\twall\t")
	var runs []solveRun
	for _, mode := range ms {
		for _, budget := range bs {
			start := time.Now()
			cpu0, cpuOK := cputime.Process()
			res := solveAll(pos, mode, free, budget, *maxNodes, *workers)
			wall := time.Since(start)
			cpu1, _ := cputime.Process()
			runs = append(runs, solveRun{mode, budget, res})
			var times, winTimes []time.Duration
			var nodes int64
			var busy time.Duration
			wins, hit := 0, 0
			var over time.Duration // the most a solve's call outlasted the budget
			winsK, allK := map[string]int{}, map[string]int{}
			var ks []string
			for i, r := range res {
				if allK[pos[i].k] == 0 {
					ks = append(ks, pos[i].k)
				}
				allK[pos[i].k]++
				if r.win {
					winsK[pos[i].k]++
				}
				times = append(times, r.elapsed)
				nodes += r.nodes
				busy += r.elapsed
				if r.win {
					wins++
					winTimes = append(winTimes, r.elapsed)
				}
				if r.reason == string(threat.ReasonBudget) {
					hit++
				}
				over = max(over, r.call-budget)
			}
			rate := 0.0
			if busy > 0 {
				rate = float64(nodes) / busy.Seconds()
			}
			cpuRate := "-"
			if cpuOK && cpu1 > cpu0 {
				cpuRate = fmt.Sprintf("%.0f", float64(nodes)/(cpu1-cpu0).Seconds())
			}
			sort.Strings(ks)
			var byK []string
			for _, k := range ks {
				byK = append(byK, fmt.Sprintf("k%s %d/%d", k, winsK[k], allK[k]))
			}
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\t%d\t%s\t%s\t\n", mode, budget, wins, len(res), strings.Join(byK, " "),
				fmtDur(quantile(times, 0.5)), fmtDur(quantile(times, 0.9)), fmtDur(quantile(times, 1)),
				fmtDur(quantile(winTimes, 0.5)), fmtDur(quantile(winTimes, 0.9)), fmtDur(quantile(winTimes, 1)), rate, cpuRate, hit, fmtDur(over), wall.Round(time.Second))
		}
	}
	tw.Flush()
	if *perFile != "" {
		if err := writePer(*perFile, pos, runs); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "times per position (wall clock of that solve); nodes/s = all nodes / summed solve time; nodes/cpu-s = all nodes / the process's CPU time for the run (load on the machine inflates wall times, not CPU time); max over = the most a Solve call, timed by its caller, outlasted the time budget")
	// The positions each run misses, and the wins a run finds that another
	// mode misses with the same budget.
	for _, r := range runs {
		var miss []string
		for i, o := range r.res {
			if !o.win {
				miss = append(miss, pos[i].id)
			}
		}
		fmt.Fprintf(w, "%s %s misses %d: %s\n", r.mode, r.budget, len(miss), strings.Join(miss, " "))
	}
	for _, r := range runs {
		for _, o := range runs {
			if o.budget != r.budget || o.mode == r.mode {
				continue
			}
			var only []string
			for i := range r.res {
				if r.res[i].win && !o.res[i].win {
					only = append(only, pos[i].id)
				}
			}
			fmt.Fprintf(w, "%s %s wins that %s misses: %d %s\n", r.mode, r.budget, o.mode, len(only), strings.Join(only, " "))
		}
	}
	return nil
}

func solveAll(pos []position, mode threat.Mode, free board.FreePolicy, budget time.Duration, maxNodes int64, workers int) []outcome {
	out := make([]outcome, len(pos))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				j := next
				next++
				mu.Unlock()
				if j >= len(pos) {
					return
				}
				t0 := time.Now()
				res, err := threat.Solve(context.Background(), pos[j].b, threat.Params{Mode: mode, Free: free, Limits: threat.Limits{MaxNodes: maxNodes, Timeout: budget}})
				call := time.Since(t0)
				if err != nil {
					out[j] = outcome{reason: err.Error()}
					continue
				}
				out[j] = outcome{win: res.Outcome == threat.Win, reason: string(res.Reason), nodes: res.Nodes, elapsed: res.Elapsed, call: call}
			}
		}()
	}
	wg.Wait()
	return out
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q * float64(len(s)-1))
	return s[i]
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/1e6)
	case d < time.Second:
		return fmt.Sprintf("%.0fms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

func readPositions(path string) ([]position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []position
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if strings.HasPrefix(t, "#") || strings.TrimSpace(t) == "" {
			continue
		}
		cols := strings.Split(t, "\t")
		if len(cols) < 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns", path, line)
		}
		b, err := board.ReplayText(game.Connect6(), cols[3])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if c, err := game.ParseColor(cols[2]); err == nil && c != b.ToMove() {
			return nil, fmt.Errorf("%s:%d: to_move %s, but the turns leave %s to move", path, line, cols[2], b.ToMove())
		}
		out = append(out, position{id: cols[0], k: cols[1], b: b})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return out, nil
}

// writePer writes one tab-separated line per position and run (mode,
// budget, gid, win, nodes, seconds), to compare runs position by position.
func writePer(path string, pos []position, runs []solveRun) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	for _, r := range runs {
		for i, o := range r.res {
			fmt.Fprintf(bw, "%s\t%s\t%s\t%t\t%d\t%.6f\n", r.mode, r.budget, pos[i].id, o.win, o.nodes, o.elapsed.Seconds())
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
