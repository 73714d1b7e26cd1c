package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// BookAtlasCommand is c6 book atlas: the opening atlas, every class of
// White's second move within distance --d of the centre (board.Atlas)
// and the pass row, each proved for Black by the auto-pilot in turn,
// nearest first, with --time-each per row. It resumes: a row proved in
// the book is skipped, an open one continues from what the book holds.
type BookAtlasCommand struct {
	o    proveOpts // --time-each is o.maxTime, --max-calls per row
	d    int
	rows string // --rows: the row numbers worked on ("": all)
}

func (c *BookAtlasCommand) flags(fs *flag.FlagSet) {
	c.o.register(fs)
	fs.DurationVar(&c.o.maxTime, "time-each", 10*time.Minute, "the auto-pilot's time on each row (0: no limit); --max-calls is per row too")
	fs.IntVar(&c.d, "d", 2, "White's two stones within this Chebyshev distance of the centre (2: 44 classes, 3: 162)")
	fs.StringVar(&c.rows, "rows", "", "work on these rows only: numbers and ranges, e.g. 1-12 or 1-6,45 (default: every row, nearest first, the pass row last)")
}

func (c *BookAtlasCommand) validate(*bookEnv) error {
	switch {
	case c.o.maxTime < 0:
		return fmt.Errorf("--time-each %v: want a positive duration (0: no limit)", c.o.maxTime)
	case c.d < 1:
		return fmt.Errorf("--d %d: want 1 or more", c.d)
	}
	if _, err := parseRowList(c.rows, 0); err != nil {
		return err
	}
	return c.o.validate()
}

func (c *BookAtlasCommand) run(e *bookEnv) error { return bookAtlas(e, c.o, c.d, c.rows) }

// atlasRowJSON is one row of c6 book atlas --json.
type atlasRowJSON struct {
	Calls int    `json:"calls"` // verifier calls of this run on the row
	DN    int64  `json:"dn"`
	Error string `json:"error,omitempty"`
	Far   int    `json:"far"`
	ID    int64  `json:"id"`
	Move  string `json:"move"` // White's move, e.g. "i9k9" (a1s19 for the pass row)
	Near  int    `json:"near"`
	Order int    `json:"order"` // λ order of the proof (proved rows)
	Pass  bool   `json:"pass"`
	PN    int64  `json:"pn"`
	// Result is what this run did: "skipped" (proved before), the
	// auto-pilot's result (proved, budget, failed, stuck, stopped), or
	// "not run" (stopped before the row).
	Result  string  `json:"result"`
	Row     int     `json:"row"` // 1, 2, ... nearest first
	Seconds float64 `json:"seconds"`
	Size    int     `json:"size"` // White moves the class stands for
	// Status is the row's state in the book after the run: "proved",
	// "open", "not started", "disproved" or "unchecked".
	Status string `json:"status"`
	Turns  string `json:"turns"`
}

// bookAtlasJSON is c6 book atlas --json.
type bookAtlasJSON struct {
	Attacker   string         `json:"attacker"`
	Calls      int            `json:"calls"`
	D          int            `json:"d"`
	Other      int            `json:"other"` // disproved (an expert says so) or unchecked (stored proved, changed outside the program since)
	NotStarted int            `json:"not_started"`
	Open       int            `json:"open"`
	Proved     int            `json:"proved"`
	Queue      queueJSON      `json:"queue"`
	Rows       []atlasRowJSON `json:"rows"`
	Rules      string         `json:"rules"`
	Seconds    float64        `json:"seconds"`
	Stopped    bool           `json:"stopped"`
}

// atlasStatus is an atlas row's state from its book status for Black:
// a position nobody worked on ("unknown") is not started.
func atlasStatus(st c6book.Status, worked bool) string {
	if st == c6book.StatusUnknown {
		if worked {
			return "open"
		}
		return "not started"
	}
	return st.String()
}

// parseRowList reads --rows: row numbers and ranges ("1-6,45"); nil for
// "" (every row). n > 0 is the number of rows: a row beyond is refused.
func parseRowList(text string, n int) (map[int]bool, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	out := map[int]bool{}
	for _, part := range strings.Split(text, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		switch {
		case err != nil || a < 1 || b < a:
			return nil, fmt.Errorf("--rows %q: want row numbers from 1 and ranges, e.g. 1-6,45", text)
		case n > 0 && b > n:
			return nil, fmt.Errorf("--rows %q: the atlas has %d rows", text, n)
		}
		for i := a; i <= b; i++ {
			out[i] = true
		}
	}
	return out, nil
}

func bookAtlas(e *bookEnv, o proveOpts, d int, only string) error {
	ctx, bk := e.ctx, e.bk
	r := bk.Rules()
	rows, err := board.Atlas(r, d)
	if err != nil {
		return fmt.Errorf("--d %d: %w", d, err)
	}
	sel, err := parseRowList(only, len(rows))
	if err != nil {
		return err
	}
	workers := o.settings().SolverWorkers()
	opts := o.options(game.Black, workers)
	if !opts.NoLearn {
		// One shape table for the run: each row starts with what the
		// rows before it learned.
		opts.Learned = autopilot.NewShapeTable(0)
	}
	// One queue for the whole run, opened by the first verifier call (a
	// run whose rows are all proved opens none).
	pq := openProveQueue(o.queue, bk.Path(), o.jobs, workers, e.stderr)
	start := time.Now()
	out := bookAtlasJSON{Attacker: game.Black.String(), D: d, Rules: r.String(), Rows: []atlasRowJSON{}}
	var runErr error
	for i, row := range rows {
		if sel != nil && !sel[i+1] {
			continue
		}
		turns := row.Turns(r)
		rj := atlasRowJSON{Row: i + 1, Move: game.MoveName(r, row.Move), Pass: row.Pass, Near: row.Near, Far: row.Far,
			Size: row.Size, Turns: game.FormatTurns(r, turns), Result: "not run"}
		if ctx.Err() != nil || runErr != nil {
			out.Rows = append(out.Rows, rj)
			continue
		}
		id, err := atlasPosition(e, turns)
		var pos proofbook.Position
		if err == nil {
			rj.ID = int64(id)
			pos, err = bk.Position(ctx, id)
		}
		if err != nil {
			if ctx.Err() == nil { // (a stop: the row is not run)
				runErr = err
			}
			out.Rows = append(out.Rows, rj)
			continue
		}
		if p := pos.Proof(game.Black); p.Status == c6book.StatusProved {
			rj.Result, rj.Order, rj.PN, rj.DN = "skipped", p.Order, p.PN, p.DN
			out.Rows = append(out.Rows, rj)
			fmt.Fprintf(e.stderr, "row %d/%d %s: proved before (order %d), skipped\n", i+1, len(rows), row.Name(r), p.Order)
			continue
		}
		label := fmt.Sprintf("row %d/%d %s  ", i+1, len(rows), row.Name(r))
		res, err := proveWith(e, pq, id, opts, label, o.progressEvery)
		switch {
		case err != nil && errors.Is(err, ctx.Err()):
		case err != nil:
			// A row's error (a proof that rested on rows changed outside
			// the program, a refused verdict) is the row's: the next
			// rows go on.
			rj.Error = oneLine(err.Error(), 200)
		}
		rj.Result, rj.Calls, rj.Seconds = string(res.Status), res.Calls, res.Elapsed.Seconds()
		rj.Order, rj.PN, rj.DN = res.Proof.Order, res.PN, res.DN
		out.Calls += res.Calls
		out.Rows = append(out.Rows, rj)
		fmt.Fprintf(e.stderr, "row %d/%d %s: %s, %d calls, %s, pn %s dn %s\n", i+1, len(rows), row.Name(r), res.Status, res.Calls,
			res.Elapsed.Round(time.Second), pnText(res.PN), pnText(res.DN))
	}
	qs := pq.close() // also on Ctrl-C: Prove has cancelled and waited for its jobs
	out.Queue, out.Stopped, out.Seconds = qs, ctx.Err() != nil, time.Since(start).Seconds()
	if runErr != nil {
		return runErr
	}
	// The rows' states are read after the run (a later row's work may
	// have proved an earlier one's position too), also after Ctrl-C.
	if err := atlasStates(e, out.Rows); err != nil {
		return err
	}
	for _, rj := range out.Rows {
		switch rj.Status {
		case "proved":
			out.Proved++
		case "not started":
			out.NotStarted++
		case "open":
			out.Open++
		default:
			out.Other++
		}
	}
	return e.print(out, func(w io.Writer) {
		other := ""
		if out.Other > 0 {
			other = fmt.Sprintf(", %d disproved or unchecked", out.Other)
		}
		fmt.Fprintf(w, "atlas d=%d for Black on %s: %d rows, %d proved, %d open, %d not started%s; %d verifier calls in %s%s\n",
			d, r, len(out.Rows), out.Proved, out.Open, out.NotStarted, other, out.Calls, time.Duration(out.Seconds*float64(time.Second)).Round(time.Second),
			map[bool]string{true: " (stopped)", false: ""}[out.Stopped])
		fmt.Fprintf(w, "%4s  %-8s %-5s %-11s %-9s %5s %6s %8s %6s %6s\n", "row", "white", "dist", "status", "this run", "order", "calls", "time", "pn", "dn")
		for _, rj := range out.Rows {
			move := rj.Move
			if rj.Pass {
				move = "pass"
			}
			order := "-"
			if rj.Status == "proved" {
				order = fmt.Sprint(rj.Order)
			}
			fmt.Fprintf(w, "%4d  %-8s %d/%-3d %-11s %-9s %5s %6d %8s %6s %6s\n", rj.Row, move, rj.Near, rj.Far, rj.Status, rj.Result, order,
				rj.Calls, time.Duration(rj.Seconds*float64(time.Second)).Round(time.Second), pnText(rj.PN), pnText(rj.DN))
			if rj.Error != "" {
				fmt.Fprintf(w, "      error: %s\n", rj.Error)
			}
		}
	})
}

// atlasPosition is the book's position of an atlas row, stored when
// missing.
func atlasPosition(e *bookEnv, turns []game.Move) (proofbook.PosID, error) {
	b, err := board.Replay(e.bk.Rules(), turns)
	if err != nil {
		return 0, err
	}
	id, _, err := e.bk.Locate(e.ctx, b)
	if errors.Is(err, proofbook.ErrNotFound) {
		line, err := e.bk.AddLine(e.ctx, turns)
		if err != nil {
			return 0, err
		}
		return line.IDs[len(line.IDs)-1], nil
	}
	return id, err
}

// atlasStates fills the rows' Status from the book (and the proof's order
// and numbers of a row proved through another row's work), reading even
// when the run was stopped.
func atlasStates(e *bookEnv, rows []atlasRowJSON) error {
	ctx := context.WithoutCancel(e.ctx)
	r := e.bk.Rules()
	for i := range rows {
		rj := &rows[i]
		turns, err := game.ParseTurns(r, rj.Turns)
		if err != nil {
			return err
		}
		b, err := board.Replay(r, turns)
		if err != nil {
			return err
		}
		id, _, err := e.bk.Locate(ctx, b)
		if errors.Is(err, proofbook.ErrNotFound) {
			rj.Status = "not started"
			continue
		}
		if err != nil {
			return err
		}
		pos, err := e.bk.Position(ctx, id)
		if err != nil {
			return err
		}
		p := pos.Proof(game.Black)
		children, err := e.bk.Children(ctx, id)
		if err != nil {
			return err
		}
		rj.ID = int64(id)
		rj.Status = atlasStatus(p.Status, rj.Calls > 0 || len(children) > 0)
		if p.Status == c6book.StatusProved {
			rj.Order, rj.PN, rj.DN = p.Order, p.PN, p.DN
		} else if rj.Result == "not run" {
			rj.PN, rj.DN = p.PN, p.DN
		}
	}
	return nil
}
