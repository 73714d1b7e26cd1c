package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/service"
)

// verifyOutput is what c6 verify --json prints: the position and the
// verdict (in the position's frame as entered).
type verifyOutput struct {
	Rules    string      `json:"rules"`
	Turns    string      `json:"turns"`
	ToMove   string      `json:"to_move"`
	MaxNodes int64       `json:"max_nodes"`
	Workers  int         `json:"workers"`
	Verdict  verdictJSON `json:"verdict"`
}

// verdictJSON is how every command prints a verdict: the JSON of
// c6book.Verdict (moves packed, squares as numbers, as the book stores
// it) with its moves and squares named for people.
type verdictJSON struct {
	c6book.Verdict
	Certificate bool         `json:"certificate"` // the verdict carries a certificate
	Names       verdictNames `json:"names"`
}

// verdictNames are a verdict's moves and squares in LittleGolem notation.
type verdictNames struct {
	Attacker     string   `json:"attacker"`
	Unsolved     []string `json:"unsolved"`
	OpenSeminull []string `json:"open_seminull"`
	NullZone     []string `json:"null_zone"`
	Zone         []string `json:"zone"`
}

// newVerdictJSON prints v, a verdict in the user's frame.
func newVerdictJSON(r game.Rules, v c6book.Verdict) verdictJSON {
	un := func(list []c6book.Unsolved) []string {
		out := []string{}
		for _, u := range list {
			out = append(out, game.MoveName(r, u.Move))
		}
		return out
	}
	return verdictJSON{Verdict: v, Certificate: v.Cert != nil, Names: verdictNames{
		Attacker: v.Attacker.String(), Unsolved: un(v.Unsolved), OpenSeminull: un(v.OpenSeminull),
		NullZone: squareNames(r, v.NullZone), Zone: squareNames(r, v.Zone)}}
}

// VerifyOptions are c6 verify's flags.
type VerifyOptions struct {
	pf           positionFlags
	verifyLimits // --lambda, --max-nodes, --timeout, --workers
	json         bool
	nats         natsFlags
}

func (o *VerifyOptions) register(fs *flag.FlagSet) {
	o.pf.register(fs)
	fs.IntVar(&o.lambda, "lambda", 2, "2: the null move must be refuted by VCDT; 3: VCST allowed, unrefuted seminull moves become open items")
	fs.Int64Var(&o.maxNodes, "max-nodes", service.DefaultVerifyNodes, "node budget of each solver call")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget of each solver call (0: none)")
	fs.IntVar(&o.workers, "workers", 0, "parallel solver calls (0: all cores)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object")
	o.nats.register(fs)
}

// Validate checks the flags' values (not the position yet): a one-line
// error naming the flag.
func (o *VerifyOptions) Validate() error {
	if err := o.nats.check(); err != nil {
		return err
	}
	if o.pf.turns == "" && o.pf.sgf == "" {
		return errors.New("give the position with --turns or --sgf (the attacker has just moved)")
	}
	return o.verifyLimits.Validate()
}

// VerifyCommand is c6 verify: the NCTU6-style verifier on a position,
// listing every defender move still unsolved.
type VerifyCommand struct{ stdio }

func (c *VerifyCommand) Run(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	var o VerifyOptions
	if err := parseOptions("c6 verify", &o, args, stderr); err != nil {
		return err
	}
	b, err := o.pf.load()
	if err != nil {
		return err
	}
	if b.Stones(b.ToMove().Opp()) == 0 {
		return fmt.Errorf("%s has no stones: verify a position right after the attacker's move", b.ToMove().Opp())
	}
	r := b.Rules()
	var progress func(verify.VerifyProgress)
	if isTerminalWriter(stderr) {
		progress = func(p verify.VerifyProgress) {
			fmt.Fprintf(stderr, "\r%-8s %d/%d positions, %d solver calls, %d nodes, %d unsolved, %.1fs   ",
				p.Phase, p.Done, p.Total, p.Calls, p.Nodes, p.Unsolved, p.Elapsed.Seconds())
		}
	}
	verifier, release, err := o.nats.verifier(ctx, stderr)
	if err != nil {
		return err
	}
	// The one verifier path, the workbench's Verify's (service.Verify).
	vd, err := service.Verify(ctx, verifier, b, o.verifyLimits.settings().Options(), progress)
	release()
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	v := vd.Verdict
	out := verifyOutput{Rules: r.String(), Turns: game.FormatTurns(r, b.History()), ToMove: b.ToMove().String(),
		MaxNodes: o.maxNodes, Workers: o.workers, Verdict: newVerdictJSON(r, v)}
	if o.json {
		return writeJSON(stdout, out)
	}
	printVerdict(stdout, r, out.Verdict, vd)
	return nil
}

// printVerdict prints a verdict for people; raw is the verification it
// comes from (it names the null move's refutation).
func printVerdict(w io.Writer, r game.Rules, v verdictJSON, raw service.Verification) {
	switch {
	case v.Proved():
		fmt.Fprintf(w, "proved: %s wins (λ%d)\n", v.Names.Attacker, v.Order)
	case v.AllUnsolved:
		fmt.Fprintf(w, "open: every defender move is unsolved\n")
	default:
		fmt.Fprintf(w, "open: %d defender moves unsolved", len(v.Unsolved))
		if len(v.OpenSeminull) > 0 {
			fmt.Fprintf(w, ", %d open seminull moves", len(v.OpenSeminull))
		}
		fmt.Fprintf(w, " (order %d so far)\n", v.Order)
	}
	if v.Note != "" {
		fmt.Fprintf(w, "note: %s\n", v.Note)
	}
	if len(v.Unsolved) > 0 {
		fmt.Fprintf(w, "unsolved: %s\n", strings.Join(v.Names.Unsolved, " "))
	}
	if len(v.OpenSeminull) > 0 {
		fmt.Fprintf(w, "open seminull: %s\n", strings.Join(v.Names.OpenSeminull, " "))
	}
	if len(v.NullZone) > 0 {
		fmt.Fprintf(w, "null move refuted by %s %s, zone (%d): %s\n", raw.NullMode, strings.Join(moveNames(r, raw.NullLine), " "), len(v.NullZone), strings.Join(v.Names.NullZone, " "))
	}
	fmt.Fprintf(w, "%d solver calls on %d positions, %d nodes, %s\n", v.Calls, v.Jobs, v.Nodes, v.Elapsed())
}

// isTerminalWriter reports whether w is a character device (a terminal).
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
