package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// solveTreeJSON is one attacker move of a solution tree. Replies maps each
// defender reply the proof covers (LittleGolem notation) to the attacker's
// answer. A one-stone key is a seminull reply: it stands for every defender
// move with that stone and a second stone outside its seminull_zone; the
// moves with the second stone inside the zone are listed as keys of their own.
type solveTreeJSON struct {
	Move         string                    `json:"move"`
	Threats      int                       `json:"threats"`
	Six          bool                      `json:"six,omitempty"`
	Seminull     bool                      `json:"seminull,omitempty"`
	SeminullZone []string                  `json:"seminull_zone,omitempty"`
	Replies      map[string]*solveTreeJSON `json:"replies,omitempty"`
}

type solveJSON struct {
	Rules  string                `json:"rules"`
	Turns  string                `json:"turns"`
	ToMove string                `json:"to_move"`
	Mode   string                `json:"mode"`
	Result string                `json:"result"`
	Reason threat.UnsolvedReason `json:"reason,omitempty"`
	Move   string                `json:"move,omitempty"`
	Line   []string              `json:"line"`
	Nodes  int64                 `json:"nodes"`
	MS     int64                 `json:"ms"`
	Zone   []string              `json:"zone"`
	Tree   *solveTreeJSON        `json:"tree,omitempty"`
}

// SolveOptions are c6 solve's flags; Validate reads --mode and --free
// into mode and free.
type SolveOptions struct {
	pf                 positionFlags
	modeFlag, freeFlag string
	maxNodes           int64
	timeout            time.Duration
	tolerance          int
	json               bool
	mode               threat.Mode
	free               board.FreePolicy
}

func (o *SolveOptions) register(fs *flag.FlagSet) {
	o.pf.register(fs)
	fs.StringVar(&o.modeFlag, "mode", "vcdt", "vcdt (continuous double threats) or vcst (single threats too)")
	fs.Int64Var(&o.maxNodes, "max-nodes", threat.DefaultMaxNodes, "node budget")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget, e.g. 10s (0: none)")
	fs.StringVar(&o.freeFlag, "free", "near", "where free stones may go: near (squares of the attacker's live windows) or all")
	fs.IntVar(&o.tolerance, "tolerance", 0, "extra defender stones the root zone must tolerate (1 after a seminull move, p after a null move)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object")
}

// Validate checks the flags' values (not the position yet): a one-line
// error naming the flag.
func (o *SolveOptions) Validate() error {
	if o.pf.turns == "" && o.pf.sgf == "" {
		return errors.New("give the position with --turns or --sgf (the solver plays for the side to move)")
	}
	if o.tolerance < 0 || o.tolerance > 8 {
		return fmt.Errorf("--tolerance %d: want 0..8", o.tolerance)
	}
	var err error
	if o.mode, err = threat.ParseMode(o.modeFlag); err != nil {
		return fmt.Errorf("--mode: %w", err)
	}
	if o.free, err = threat.ParseFreePolicy(o.freeFlag); err != nil {
		return fmt.Errorf("--free: %w", err)
	}
	if o.maxNodes <= 0 {
		return fmt.Errorf("--max-nodes %d: want a positive number", o.maxNodes)
	}
	if o.timeout < 0 {
		return fmt.Errorf("--timeout %v: want a positive duration", o.timeout)
	}
	return nil
}

// SolveCommand is c6 solve: the VCDT/VCST threat-space solver for the
// side to move.
type SolveCommand struct{ stdio }

func (c *SolveCommand) Run(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	var o SolveOptions
	if err := parseOptions("c6 solve", &o, args, stderr); err != nil {
		return err
	}
	b, err := o.pf.load()
	if err != nil {
		return err
	}
	r := b.Rules()
	params := threat.Params{Mode: o.mode, Free: o.free, Tolerance: o.tolerance, Limits: threat.Limits{MaxNodes: o.maxNodes, Timeout: o.timeout}}
	pl := newProgressLine(stderr, r)
	if pl != nil {
		params.Progress = pl.report
		params.ProgressEvery = 250 * time.Millisecond
	}
	res, err := threat.Solve(ctx, b, params)
	pl.finish()
	if err != nil {
		return err
	}
	out := solveJSON{
		Rules:  r.String(),
		Turns:  game.FormatTurns(r, b.History()),
		ToMove: b.ToMove().String(),
		Mode:   o.mode.String(),
		Result: res.Outcome.String(),
		Reason: res.Reason,
		Line:   moveNames(r, res.Line),
		Nodes:  res.Nodes,
		MS:     res.Elapsed.Milliseconds(),
		Zone:   squareNames(r, res.Zone),
	}
	if res.Outcome == threat.Win {
		out.Move = game.MoveName(r, res.Move)
		out.Tree = solveTree(r, res.Tree)
	}
	if o.json {
		return writeJSON(stdout, out)
	}
	printSolve(stdout, out)
	return nil
}

// solveTree converts a solution tree for JSON.
func solveTree(r game.Rules, st *threat.Strategy) *solveTreeJSON {
	if st == nil {
		return nil
	}
	t := &solveTreeJSON{Move: game.MoveName(r, st.Move), Threats: st.Threats, Six: st.Six}
	if len(st.Replies) > 0 {
		t.Replies = make(map[string]*solveTreeJSON, len(st.Replies))
	}
	for _, rep := range st.Replies {
		sub := solveTree(r, rep.Then)
		if sub == nil {
			sub = &solveTreeJSON{}
		}
		if rep.Seminull {
			sub.Seminull = true
			sub.SeminullZone = []string{}
			if rep.Then != nil {
				sub.SeminullZone = squareNames(r, rep.Then.Zone)
			}
		}
		t.Replies[game.MoveName(r, rep.Move)] = sub
	}
	return t
}

func printSolve(w io.Writer, v solveJSON) {
	switch v.Result {
	case threat.Win.String():
		fmt.Fprintf(w, "%s wins by %s: %s\n", v.ToMove, v.Mode, v.Move)
		fmt.Fprintf(w, "line: %s\n", strings.Join(v.Line, " "))
		fmt.Fprintf(w, "zone (%d): %s\n", len(v.Zone), strings.Join(v.Zone, " "))
	default:
		fmt.Fprintf(w, "no %s win found for %s (%s)\n", v.Mode, v.ToMove, v.Reason)
		if len(v.Line) > 0 {
			fmt.Fprintf(w, "most-proving line: %s\n", strings.Join(v.Line, " "))
		}
	}
	fmt.Fprintf(w, "%d nodes, %s\n", v.Nodes, time.Duration(v.MS)*time.Millisecond)
}

// progressLine prints the solver's progress on a terminal, once the search
// has run for a second. Reports arrive on the solver's reporting goroutine.
type progressLine struct {
	mu      sync.Mutex
	w       io.Writer
	rules   game.Rules
	printed bool
}

// newProgressLine returns nil unless w is a terminal.
func newProgressLine(w io.Writer, r game.Rules) *progressLine {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progressLine{w: w, rules: r}
}

func (p *progressLine) report(pr threat.Progress) {
	if pr.Elapsed < time.Second {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := pr.Line
	more := ""
	if len(line) > 6 {
		line, more = line[:6], " …"
	}
	fmt.Fprintf(p.w, "\r\033[Ksolving: %d nodes, depth %d, %.1fs, line %s%s",
		pr.Nodes, pr.Depth, pr.Elapsed.Seconds(), strings.Join(moveNames(p.rules, line), " "), more)
	p.printed = true
}

func (p *progressLine) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.printed {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
