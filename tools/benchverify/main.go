// Command benchverify runs the verifier on the public LittleGolem positions:
// for each position (attacker to move) it plays the game's own next turn,
// taken from the games file, verifies the position after it (defender to
// move) and prints how many verdicts are proved and open and the
// distribution of the unsolved-list sizes. With --speedup it also times one
// position with --workers 1 and 2 and prints the parallel speed-up.
//
//	go run ./tools/benchverify [--max-nodes N] [--lambda 2|3] [--workers N] [--limit N] [--speedup] [-v]
//
// With --openings FILE (tools/benchverify/openings.tsv, written by
// tools/openingset) it verifies the attacker's reply of each opening (the
// first --n) and prints, per call, the verdict, unsolved moves, solver
// calls, CPU seconds and nodes, then the totals.
//
// With --connect623 BOOK it instead measures the shipped prover on
// Connect(6,2,3): a new book BOOK with those rules (`c6 book init --rules
// 19,19,6,2,3`), the auto-pilot from the empty board (`c6 book prove`) for
// --prove-time with --jobs verifier jobs, and the book's check.
//
// With --prove-book FILE it runs the auto-pilot (autopilot.Prove, as `c6
// book prove`) for --prove-time on every position one verifier call leaves
// open, with --jobs verifier jobs, and checks the book.
package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/openingset"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

type position struct {
	gid   string
	turns string
	next  game.Move
	board *board.Board // after the next turn: defender to move
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchverify:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("benchverify", flag.ContinueOnError)
	posFile := fs.String("positions", "../shared/positions/littlegolem-public.tsv", "positions file (gid, k, to_move, turns)")
	gamesFile := fs.String("games", "../shared/data/littlegolem-connect6-games.json.gz", "games file {gid: [turns]}")
	maxNodes := fs.Int64("max-nodes", 20000, "node budget of each solver call")
	timeout := fs.Duration("timeout", 0, "time budget of each solver call (0: none)")
	lambda := fs.Int("lambda", 2, "verifier mode: 2 or 3")
	workers := fs.Int("workers", 0, "parallel solver calls (0: all cores)")
	limit := fs.Int("limit", 0, "verify only the first N positions (0: all)")
	speedup := fs.Bool("speedup", false, "also time one position with --workers 1 and 2")
	verbose := fs.Bool("v", false, "one line per position")
	c623 := fs.String("connect623", "", "instead: prove Connect(6,2,3) from the empty board with the book's auto-pilot in this new book, then check it")
	maxCalls := fs.Int("max-calls", 0, "connect623: verifier calls at most (0: no limit)")
	proveBook := fs.String("prove-book", "", "instead: run the auto-pilot (c6 book prove) on every position one verifier call leaves open, in this new book")
	proveTime := fs.Duration("prove-time", 25*time.Second, "prove-book, connect623: the auto-pilot's time per position")
	jobs := fs.Int("jobs", 2, "prove-book, connect623: verifier jobs at once")
	openings := fs.String("openings", "", "instead: verify the attacker's reply of each opening of this set (tools/benchverify/openings.tsv)")
	nOpen := fs.Int("n", 0, "openings: only the first N positions (0: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *openings != "" {
		opts := verify.VerifyOptions{Lambda: *lambda, Limits: threat.Limits{MaxNodes: *maxNodes, Timeout: *timeout}, Workers: *workers}
		return benchOpenings(context.Background(), w, *openings, *nOpen, opts)
	}
	if *c623 != "" {
		return connect623(w, *c623, *maxNodes, *maxCalls, *jobs, *workers, *proveTime)
	}
	ps, err := load(*posFile, *gamesFile)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(ps) {
		ps = ps[:*limit]
	}
	opts := verify.VerifyOptions{Lambda: *lambda, Limits: threat.Limits{MaxNodes: *maxNodes, Timeout: *timeout}, Workers: *workers}
	ctx := context.Background()
	if *proveBook != "" {
		return proveAll(ctx, w, ps, *proveBook, *proveTime, *jobs, opts)
	}
	type row struct {
		vd verify.Verdict
		p  position
	}
	var rows []row
	start := time.Now()
	for _, p := range ps {
		vd, err := verify.Verify(ctx, p.board, opts, nil)
		if err != nil {
			return fmt.Errorf("game %s: %w", p.gid, err)
		}
		rows = append(rows, row{vd, p})
		if *verbose {
			r := p.board.Rules()
			n := fmt.Sprint(len(vd.Unsolved))
			if vd.AllUnsolved {
				n = "all"
			}
			fmt.Fprintf(w, "%-8s %-6s next %-6s %-6s order %d threats %d unsolved %-4s open-seminull %d calls %5d %8.0f ms\n",
				p.gid, vd.Attacker, game.MoveName(r, p.next), vd.Status, vd.Order, vd.Threats, n, len(vd.OpenSeminull), vd.Calls, ms(vd.Elapsed))
		}
	}
	total := time.Since(start)

	// The table.
	buckets := []struct {
		name   string
		lo, hi int
	}{{"0", 0, 0}, {"1", 1, 1}, {"2-3", 2, 3}, {"4-10", 4, 10}, {"11-50", 11, 50}, {"51-200", 51, 200}, {">200", 201, 1 << 30}}
	count := make([]int, len(buckets))
	var proved, open, allOpen, semi, calls int
	var nodes int64
	orders := map[int]int{}
	var times []float64
	for _, r := range rows {
		vd := r.vd
		calls += vd.Calls
		nodes += vd.Nodes
		times = append(times, ms(vd.Elapsed))
		if vd.Status == verify.StatusProved {
			proved++
			orders[vd.Order]++
		} else {
			open++
		}
		if len(vd.OpenSeminull) > 0 {
			semi++
		}
		if vd.AllUnsolved {
			allOpen++
			continue
		}
		for i, b := range buckets {
			if n := len(vd.Unsolved); n >= b.lo && n <= b.hi {
				count[i]++
			}
		}
	}
	sort.Float64s(times)
	fmt.Fprintf(w, "verifier on %d public LittleGolem positions (the game's own next attacker turn), λ%d, %d nodes per solver call, workers %d\n",
		len(rows), *lambda, *maxNodes, *workers)
	fmt.Fprintf(w, "%-28s %6d\n", "proved", proved)
	for o := 1; o <= 3; o++ {
		fmt.Fprintf(w, "%-28s %6d\n", fmt.Sprintf("  order %d", o), orders[o])
	}
	fmt.Fprintf(w, "%-28s %6d\n", "open", open)
	fmt.Fprintf(w, "%-28s %6d\n", "  every move open (no zone)", allOpen)
	fmt.Fprintf(w, "%-28s %6d\n", "  with open seminull items", semi)
	fmt.Fprintln(w, "unsolved-list size (verdicts with a zone):")
	for i, b := range buckets {
		fmt.Fprintf(w, "  %-26s %6d\n", b.name, count[i])
	}
	if len(times) > 0 {
		fmt.Fprintf(w, "solver calls %d, nodes %d, time %v; per position median %.0f ms, 90th percentile %.0f ms, max %.0f ms\n",
			calls, nodes, total.Round(time.Millisecond), times[len(times)/2], times[len(times)*9/10], times[len(times)-1])
	}
	// Certificates: their size and the independent re-check.
	var sizes []int
	var checkTime time.Duration
	for _, r := range rows {
		c := enginecert.FromVerdict(&r.vd)
		data, err := c.MarshalBinary()
		if err != nil {
			return err
		}
		sizes = append(sizes, len(data))
		b := r.p.board
		t0 := time.Now()
		if _, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), 0, c); err != nil {
			return fmt.Errorf("game %s: the certificate does not check: %w", r.p.gid, err)
		}
		checkTime += time.Since(t0)
	}
	if len(sizes) > 0 {
		sort.Ints(sizes)
		sum := 0
		for _, n := range sizes {
			sum += n
		}
		fmt.Fprintf(w, "certificates: %d bytes in all; per verdict median %d, 90th percentile %d, max %d bytes; proofcheck re-checked all in %v (verifier %v)\n",
			sum, sizes[len(sizes)/2], sizes[len(sizes)*9/10], sizes[len(sizes)-1], checkTime.Round(time.Millisecond), total.Round(time.Millisecond))
	}
	if *speedup {
		// The position with the most solver calls among the quick ones.
		best := -1
		for i, r := range rows {
			if r.vd.Elapsed < 20*time.Second && (best < 0 || r.vd.Calls > rows[best].vd.Calls) {
				best = i
			}
		}
		if best >= 0 {
			return speed(ctx, w, rows[best].p, opts)
		}
	}
	return nil
}

// speed times a position with 1 and 2 workers (best of two runs each).
func speed(ctx context.Context, w io.Writer, p position, opts verify.VerifyOptions) error {
	var t [3]time.Duration
	var vds [3]verify.Verdict
	for _, n := range []int{1, 2} {
		o := opts
		o.Workers = n
		best := time.Duration(1 << 62)
		for rep := 0; rep < 2; rep++ {
			vd, err := verify.Verify(ctx, p.board, o, nil)
			if err != nil {
				return err
			}
			if vd.Elapsed < best {
				best = vd.Elapsed
			}
			vds[n] = vd
		}
		t[n] = best
	}
	fmt.Fprintf(w, "speed-up on game %s (%d solver calls): workers 1 %v, workers 2 %v: %.2fx\n",
		p.gid, vds[1].Calls, t[1].Round(time.Millisecond), t[2].Round(time.Millisecond), float64(t[1])/float64(t[2]))
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// load reads the positions and plays each game's next turn from the games file.
func load(posFile, gamesFile string) ([]position, error) {
	f, err := os.Open(gamesFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gamesFile, err)
	}
	var games map[string][]string
	if err := json.NewDecoder(zr).Decode(&games); err != nil {
		return nil, fmt.Errorf("%s: %w", gamesFile, err)
	}
	r := game.Connect6()
	var out []position
	err = openingset.EachRow(posFile, 4, func(cols []string) error {
		gid, turns := cols[0], cols[3]
		b, err := board.ReplayText(r, turns)
		if err != nil {
			return err
		}
		if b.ToMove().String() != cols[2] {
			return fmt.Errorf("%s to move, the file says %s", b.ToMove(), cols[2])
		}
		g, ok := games[gid]
		n := len(strings.Fields(turns))
		if !ok || len(g) <= n || strings.Join(g[:n], " ") != strings.Join(strings.Fields(turns), " ") {
			return fmt.Errorf("game %s is missing from the games file or does not continue the position", gid)
		}
		next, err := game.ParseMove(r, g[n])
		if err != nil {
			return fmt.Errorf("game %s turn %d: %w", gid, n+1, err)
		}
		if err := b.Play(next); err != nil {
			return fmt.Errorf("game %s turn %d: %w", gid, n+1, err)
		}
		if b.Winner() != game.Empty {
			return fmt.Errorf("game %s: the next turn wins at once", gid)
		}
		out = append(out, position{gid: gid, turns: turns, next: next, board: b})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no positions")
	}
	return out, nil
}
