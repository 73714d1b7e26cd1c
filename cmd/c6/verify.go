package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"c6book/engine"
)

type seminullZoneJSON struct {
	Stone string   `json:"stone"`
	Zone  []string `json:"zone"`
	Mode  string   `json:"mode"`
	Line  []string `json:"line"`
}

type coveredJSON struct {
	Move string   `json:"move"`
	Mode string   `json:"mode"`
	Line []string `json:"line"`
}

type verifyJSON struct {
	Rules    string `json:"rules"`
	Turns    string `json:"turns"`
	Attacker string `json:"attacker"`
	ToMove   string `json:"to_move"`
	Lambda   int    `json:"lambda"`
	MaxNodes int64  `json:"max_nodes"`
	Status   string `json:"status"`
	Order    int    `json:"order"`
	Threats  int    `json:"threats"`
	// Unsolved defender moves and, in the same order, why each is unsolved
	// ("budget", "exhausted", "lost", "cancelled").
	Unsolved        []string `json:"unsolved"`
	UnsolvedReasons []string `json:"unsolved_reasons"`
	// AllUnsolved: no zone bounds the defence, every defender move is open.
	AllUnsolved         bool               `json:"all_unsolved"`
	OpenSeminull        []string           `json:"open_seminull"`
	OpenSeminullReasons []string           `json:"open_seminull_reasons"`
	NullZone            []string           `json:"null_zone"`
	NullMode            string             `json:"null_mode,omitempty"`
	NullLine            []string           `json:"null_line"`
	SeminullZones       []seminullZoneJSON `json:"seminull_zones"`
	Covered             []coveredJSON      `json:"covered"`
	Calls               int                `json:"calls"`
	Jobs                int                `json:"jobs"`
	Nodes               int64              `json:"nodes"`
	MS                  int64              `json:"ms"`
	Workers             int                `json:"workers"`
	Engine              string             `json:"engine"`
	Note                string             `json:"note,omitempty"`
}

func cmdVerify(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 verify", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	lambda := fs.Int("lambda", 2, "2: the null move must be refuted by VCDT; 3: VCST allowed, unrefuted seminull moves become open items")
	maxNodes := fs.Int64("max-nodes", 200000, "node budget of each solver call")
	timeout := fs.Duration("timeout", 0, "time budget of each solver call (0: none)")
	workers := fs.Int("workers", 0, "parallel solver calls (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	var nf natsFlags
	nf.register(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if err := nf.check(); err != nil {
		return err
	}
	if pf.turns == "" && pf.sgf == "" {
		return errors.New("give the position with --turns or --sgf (the attacker has just moved)")
	}
	if *lambda != 2 && *lambda != 3 {
		return fmt.Errorf("--lambda %d: want 2 or 3", *lambda)
	}
	if *maxNodes <= 0 {
		return fmt.Errorf("--max-nodes %d: want a positive number", *maxNodes)
	}
	if *timeout < 0 {
		return fmt.Errorf("--timeout %v: want a positive duration", *timeout)
	}
	if *workers < 0 {
		return fmt.Errorf("--workers %d: want 0 (all cores) or more", *workers)
	}
	b, err := pf.load()
	if err != nil {
		return err
	}
	if b.Stones(b.ToMove().Opp()) == 0 {
		return fmt.Errorf("%s has no stones: verify a position right after the attacker's move", b.ToMove().Opp())
	}
	r := b.Rules()
	var progress func(engine.VerifyProgress)
	if isTerminalWriter(stderr) {
		progress = func(p engine.VerifyProgress) {
			fmt.Fprintf(stderr, "\r%-8s %d/%d positions, %d solver calls, %d nodes, %d unsolved, %.1fs   ",
				p.Phase, p.Done, p.Total, p.Calls, p.Nodes, p.Unsolved, p.Elapsed.Seconds())
		}
	}
	tol, ok := b.DefenderDeficit(b.ToMove().Opp())
	if !ok {
		return fmt.Errorf("the position's stone counts do not fit full turns of %s, the attacker", b.ToMove().Opp())
	}
	opts := engine.VerifyOptions{Lambda: *lambda, Limits: engine.Limits{MaxNodes: *maxNodes, Timeout: *timeout}, Workers: *workers, Tolerance: tol}
	ctx, stop := signalContext()
	defer stop()
	verifier, release, err := nf.verifier(ctx, stderr)
	if err != nil {
		return err
	}
	vd, err := verifier.Verify(ctx, b, opts, progress)
	release()
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	out := verdictJSON(r, vd)
	out.Turns = engine.FormatTurns(r, b.History())
	out.ToMove = b.ToMove().String()
	out.Workers = *workers
	out.MaxNodes = *maxNodes
	if *asJSON {
		return writeJSON(stdout, out)
	}
	printVerdict(stdout, out)
	return nil
}

// verdictJSON converts a verdict for the command line.
func verdictJSON(r engine.Rules, vd engine.Verdict) verifyJSON {
	out := verifyJSON{
		Rules:               r.String(),
		Attacker:            vd.Attacker.String(),
		Lambda:              vd.Lambda,
		Status:              vd.Status,
		Order:               vd.Order,
		Threats:             vd.Threats,
		Unsolved:            []string{},
		UnsolvedReasons:     []string{},
		AllUnsolved:         vd.AllUnsolved,
		OpenSeminull:        []string{},
		OpenSeminullReasons: []string{},
		NullZone:            squareNames(r, vd.NullZone),
		NullLine:            moveNames(r, vd.NullLine),
		SeminullZones:       []seminullZoneJSON{},
		Covered:             []coveredJSON{},
		Calls:               vd.Calls,
		Jobs:                vd.Jobs,
		Nodes:               vd.Nodes,
		MS:                  vd.Elapsed.Milliseconds(),
		Engine:              vd.Engine,
		Note:                vd.Note,
	}
	for _, u := range vd.Unsolved {
		out.Unsolved = append(out.Unsolved, engine.MoveName(r, u.Move))
		out.UnsolvedReasons = append(out.UnsolvedReasons, u.Reason)
	}
	for _, u := range vd.OpenSeminull {
		out.OpenSeminull = append(out.OpenSeminull, engine.MoveName(r, u.Move))
		out.OpenSeminullReasons = append(out.OpenSeminullReasons, u.Reason)
	}
	if vd.NullTree != nil {
		out.NullMode = vd.NullMode.String()
	}
	for _, sz := range vd.SeminullZones {
		out.SeminullZones = append(out.SeminullZones, seminullZoneJSON{Stone: engine.SquareName(r, sz.Stone), Zone: squareNames(r, sz.Zone), Mode: sz.Mode.String(), Line: moveNames(r, sz.Line)})
	}
	for _, c := range vd.Covered {
		out.Covered = append(out.Covered, coveredJSON{Move: engine.MoveName(r, c.Move), Mode: c.Mode.String(), Line: moveNames(r, c.Line)})
	}
	return out
}

func printVerdict(w io.Writer, v verifyJSON) {
	switch {
	case v.Status == engine.StatusProved:
		fmt.Fprintf(w, "proved: %s wins (λ%d)\n", v.Attacker, v.Order)
	case v.AllUnsolved:
		fmt.Fprintf(w, "open: every defender move is unsolved\n")
	default:
		fmt.Fprintf(w, "open: %d defender moves unsolved", len(v.Unsolved))
		if len(v.OpenSeminull) > 0 {
			fmt.Fprintf(w, ", %d open seminull moves", len(v.OpenSeminull))
		}
		fmt.Fprintln(w)
	}
	if v.Note != "" {
		fmt.Fprintf(w, "note: %s\n", v.Note)
	}
	if len(v.Unsolved) > 0 {
		fmt.Fprintf(w, "unsolved: %s\n", strings.Join(v.Unsolved, " "))
	}
	if len(v.OpenSeminull) > 0 {
		fmt.Fprintf(w, "open seminull: %s\n", strings.Join(v.OpenSeminull, " "))
	}
	if len(v.NullZone) > 0 {
		fmt.Fprintf(w, "null move refuted by %s %s, zone (%d): %s\n", v.NullMode, strings.Join(v.NullLine, " "), len(v.NullZone), strings.Join(v.NullZone, " "))
	}
	fmt.Fprintf(w, "%d solver calls on %d positions, %d nodes, %s\n", v.Calls, v.Jobs, v.Nodes, time.Duration(v.MS)*time.Millisecond)
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
