package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"

	"c6book/engine"
	"c6book/proofbook"
)

// defaultGames is the shared LittleGolem games file, from the repo root.
const defaultGames = "../shared/data/littlegolem-connect6-games.json.gz"

type bookCmd struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func bookCommands() map[string]bookCmd {
	return map[string]bookCmd{
		"init":         {"create a new book (--rules m,n,k,p,q)", bookInit},
		"import":       {"merge SGF files (games, collections, variations) into the book", bookImport},
		"import-games": {"merge a LittleGolem games file {gid: [turns]} (.json or .json.gz)", bookImportGames},
		"export":       {"write the line to a position and its subtree as SGF", bookExport},
		"stats":        {"count positions, moves, games, statuses", bookStats},
		"show":         {"a position's status, notes and children", bookShow},
		"annotate":     {"set a position's comment, label, or expert disproof", bookAnnotate},
		"verify":       {"run the verifier on a position and store the verdict", bookVerify},
		"next":         {"the most-proving open position for an attacker", bookNext},
		"open":         {"open positions by proof number, or proved positions", bookList},
		"search":       {"full-text search in comments", bookSearch},
		"check":        {"integrity check and re-validation of every stored proof", bookCheck},
		"backup":       {"write a consistent copy of the book", bookBackup},
	}
}

func bookUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: c6 book <subcommand> --book FILE [flags]")
	cmds := bookCommands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, cmds[n].summary)
	}
}

// cmdBook dispatches the book subcommands. Ctrl-C cancels the running one
// (an import keeps its committed batches).
func cmdBook(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		bookUsage(stderr)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	c, ok := bookCommands()[args[0]]
	if !ok {
		bookUsage(stderr)
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := c.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, errUsage) {
			return err
		}
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return nil
}

// bookFlags are the flags every book subcommand shares.
type bookFlags struct {
	book     string
	turns    string
	attacker string
	json     bool
	partial  bool
}

func (f *bookFlags) register(fs *flag.FlagSet, position bool) {
	fs.StringVar(&f.book, "book", "", "the book file (required)")
	if position {
		fs.StringVar(&f.turns, "turns", "", "the position: turns from the empty board (\"j10 j11k10 ...\"); empty: the root")
		fs.Var(colorValue{&f.attacker}, "attacker", "attacker B or W (default: the side that just moved)")
		fs.BoolVar(&f.partial, "partial", false, partialUsage)
	}
	fs.BoolVar(&f.json, "json", false, "write JSON")
}

func (f *bookFlags) open(ctx context.Context) (*proofbook.Book, error) {
	if f.book == "" {
		return nil, errors.New("--book FILE is required")
	}
	return proofbook.Open(ctx, f.book)
}

// locate replays --turns and finds the position (and the board and its
// symmetry). add stores the line when it is missing.
func (f *bookFlags) locate(ctx context.Context, bk *proofbook.Book, add bool) (proofbook.PosID, *engine.Board, int, error) {
	r := bk.Rules()
	ms, err := engine.ParseTurns(r, f.turns)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("--turns: %w", err)
	}
	b, err := replay(r, ms, f.partial)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("--turns: %w", err)
	}
	id, sym, err := bk.Locate(ctx, b)
	if errors.Is(err, proofbook.ErrNotFound) && add {
		add := bk.AddLine
		if f.partial {
			add = bk.AddProofLine
		}
		line, err := add(ctx, ms)
		if err != nil {
			return 0, nil, 0, err
		}
		return line.IDs[len(line.IDs)-1], b, sym, nil
	}
	if err != nil {
		return 0, nil, 0, fmt.Errorf("--turns %q: %w", f.turns, err)
	}
	return id, b, sym, nil
}

// attackerFor reads --attacker; default: the player who just moved.
func (f *bookFlags) attackerFor(b *engine.Board) (engine.Color, error) {
	if f.attacker == "" {
		return b.ToMove().Opp(), nil
	}
	c, err := engine.ParseColor(f.attacker)
	if err != nil {
		return engine.Empty, fmt.Errorf("--attacker: %w", err)
	}
	return c, nil
}

// checkVerifyAttacker refuses an --attacker the verifier cannot prove for:
// it proves for the side that has just moved at --turns. It reads the
// position only, before anything is stored.
func (f *bookFlags) checkVerifyAttacker(bk *proofbook.Book) error {
	if f.attacker == "" {
		return nil
	}
	r := bk.Rules()
	ms, err := engine.ParseTurns(r, f.turns)
	if err != nil {
		return fmt.Errorf("--turns: %w", err)
	}
	b, err := replay(r, ms, f.partial)
	if err != nil {
		return fmt.Errorf("--turns: %w", err)
	}
	a, err := f.attackerFor(b)
	if err != nil {
		return err
	}
	if a != b.ToMove().Opp() {
		return fmt.Errorf("--attacker %s: %s is to move at --turns; the verifier proves for the side that has just moved (%s)", f.attacker, b.ToMove(), b.ToMove().Opp())
	}
	return nil
}

// checkVerifyFlags checks book verify's numeric flags.
func checkVerifyFlags(lambda int, maxNodes int64, timeout time.Duration, workers int) error {
	switch {
	case lambda != 2 && lambda != 3:
		return fmt.Errorf("--lambda %d: want 2 or 3", lambda)
	case maxNodes <= 0:
		return fmt.Errorf("--max-nodes %d: want a positive number", maxNodes)
	case timeout < 0:
		return fmt.Errorf("--timeout %v: want a positive duration (0: no limit)", timeout)
	case workers < 0:
		return fmt.Errorf("--workers %d: want 0 (all cores) or more", workers)
	}
	return nil
}

// positive checks a count flag that must be 1 or more.
func positive(name string, v int) error {
	if v < 1 {
		return fmt.Errorf("--%s %d: want 1 or more", name, v)
	}
	return nil
}

// oneLine cuts an error or a name to one short line for a listing.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

func bookInit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book init", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	rules := "19,19,6,2,1"
	fs.Var(rulesValue{&rules}, "rules", "rules m,n,k,p,q")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	r, err := engine.ParseRules(rules)
	if err != nil {
		return fmt.Errorf("--rules: %w", err)
	}
	if f.book == "" {
		return errors.New("--book FILE is required")
	}
	bk, err := proofbook.Create(ctx, f.book, r)
	if err != nil {
		return err
	}
	if err := bk.Close(); err != nil {
		return err
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"book": f.book, "rules": r.String()})
	}
	fmt.Fprintf(stdout, "created %s for Connect(%s)\n", f.book, r)
	return nil
}

func bookImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book import", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	files, err := parseFlagsFiles(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("give the SGF files to import")
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	type fileJSON struct {
		File      string `json:"file"`
		Games     int    `json:"games"`
		Positions int    `json:"positions"`
		Moves     int    `json:"moves"`
	}
	var done []fileJSON
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		st, err := bk.ImportSGF(ctx, string(data))
		if err != nil {
			return fmt.Errorf("%s: %w (nothing imported from it)", path, err)
		}
		done = append(done, fileJSON{path, st.Games, st.Positions, st.Edges})
		if !f.json {
			fmt.Fprintf(stdout, "%s: %d games, %d new positions, %d new moves\n", path, st.Games, st.Positions, st.Edges)
		}
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"files": done})
	}
	return nil
}

func bookImportGames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book import-games", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	games := fs.String("games", defaultGames, "the games file")
	batch := fs.Int("batch", 500, "games per transaction")
	source := fs.String("source", "littlegolem", "the games' origin (games are stored once per source and id)")
	verbose := fs.Bool("v", false, "list every skipped game (id and reason), and the longest write transaction")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if err := positive("batch", *batch); err != nil {
		return err
	}
	if strings.TrimSpace(*source) == "" {
		return errors.New("--source: want a name (the games' origin), not an empty string")
	}
	if *games == "" {
		return errors.New("--games FILE: want a file name, not an empty string")
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	in, err := os.Open(*games)
	if err != nil {
		return fmt.Errorf("--games: %w", err)
	}
	defer in.Close()
	start := time.Now()
	last := time.Now()
	st, err := bk.ImportGames(ctx, in, proofbook.ImportOptions{Source: *source, Batch: *batch,
		Progress: func(done, total int) {
			if time.Since(last) > time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "\r%d/%d games", done, total)
			}
		}})
	fmt.Fprint(stderr, "\r")
	if err != nil {
		return fmt.Errorf("%w (%d games committed before it)", err, st.Games)
	}
	// Skipped games counted by reason (most frequent first), then listed:
	// each on one short line (a broken file may hold megabytes in one turn).
	byReason := map[string]int{}
	for _, e := range st.Skipped {
		byReason[e.Reason()]++
	}
	reasons := make([]string, 0, len(byReason))
	for k := range byReason {
		reasons = append(reasons, k)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if byReason[reasons[i]] != byReason[reasons[j]] {
			return byReason[reasons[i]] > byReason[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	list := st.Skipped
	if !*verbose && len(list) > 5 {
		list = list[:5]
	}
	elapsed := time.Since(start)
	if f.json {
		type skipJSON struct {
			ID     string `json:"id"`
			Reason string `json:"reason"`
			Error  string `json:"error"`
		}
		sk := []skipJSON{}
		for _, e := range list {
			sk = append(sk, skipJSON{oneLine(e.ID, 40), e.Reason(), oneLine(e.Err.Error(), 160)})
		}
		return writeJSON(stdout, map[string]any{"games": st.Games, "already": st.Already, "skipped": len(st.Skipped),
			"skipped_by_reason": byReason, "skipped_games": sk, "positions": st.Positions, "moves": st.Edges,
			"transactions": st.Transactions, "longest_tx_ms": st.LongestTx.Milliseconds(), "ms": elapsed.Milliseconds()})
	}
	fmt.Fprintf(stdout, "%d games imported, %d already in the book, %d skipped; %d new positions, %d new moves in %s\n",
		st.Games, st.Already, len(st.Skipped), st.Positions, st.Edges, elapsed.Round(time.Millisecond))
	for _, k := range reasons {
		fmt.Fprintf(stdout, "skipped %d: %s\n", byReason[k], k)
	}
	for _, e := range list {
		fmt.Fprintf(stdout, "skipped game %s: %s\n", oneLine(e.ID, 40), oneLine(e.Err.Error(), 160))
	}
	if len(list) < len(st.Skipped) {
		fmt.Fprintf(stdout, "... (-v lists all %d)\n", len(st.Skipped))
	}
	if *verbose {
		fmt.Fprintf(stdout, "%d write transactions, the longest held the lock %s\n", st.Transactions, st.LongestTx.Round(time.Millisecond))
	}
	return nil
}

func bookExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book export", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, true)
	out := fs.String("out", "", "write to this file (default: standard output)")
	depth := fs.Int("depth", 0, "turns below the position (0: all)")
	maxNodes := fs.Int("max-nodes", 100000, "at most this many moves below the position (0: no limit); a cut export says so")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *depth < 0 {
		return fmt.Errorf("--depth %d: want 0 (all) or more", *depth)
	}
	if *maxNodes < 0 {
		return fmt.Errorf("--max-nodes %d: want 0 (no limit) or more", *maxNodes)
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	id, _, _, err := f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	// In the orientation of --turns, not the book's stored frame. The
	// whole SGF is made before --out is written: a failed export leaves
	// no file behind.
	line, err := engine.ParseTurns(bk.Rules(), f.turns)
	if err != nil {
		return fmt.Errorf("--turns: %w", err)
	}
	var buf strings.Builder
	st, err := bk.ExportSGF(ctx, id, &buf, proofbook.ExportOptions{MaxDepth: *depth, MaxNodes: *maxNodes, Line: line})
	if err != nil {
		return err
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(buf.String()), 0o644); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	if st.Truncated {
		fmt.Fprintf(stderr, "c6 book export: truncated at %d moves (--max-nodes); the book stores more below this position (--max-nodes 0 exports all)\n", *maxNodes)
	}
	if f.json {
		res := map[string]any{"id": int64(id), "nodes": st.Nodes, "truncated": st.Truncated}
		if *out != "" {
			res["out"] = *out
		} else {
			res["sgf"] = buf.String()
		}
		return writeJSON(stdout, res)
	}
	if *out == "" {
		_, err = io.WriteString(stdout, buf.String())
	}
	return err
}

func bookStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book stats", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	s, err := bk.Stats(ctx)
	if err != nil {
		return err
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"rules": s.Rules.String(), "positions": s.Positions, "moves": s.Edges,
			"games": s.Games, "notes": s.Notes, "verdicts": s.Verdicts, "schema": s.Schema, "bytes": s.FileBytes,
			"proved":    map[string]int64{"B": s.Proved[0], "W": s.Proved[1]},
			"open":      map[string]int64{"B": s.Open[0], "W": s.Open[1]},
			"disproved": map[string]int64{"B": s.Disproved[0], "W": s.Disproved[1]}})
	}
	fmt.Fprintf(stdout, "rules      Connect(%s)\nschema     %d\npositions  %d\nmoves      %d\ngames      %d\nnotes      %d\nverdicts   %d\n",
		s.Rules, s.Schema, s.Positions, s.Edges, s.Games, s.Notes, s.Verdicts)
	fmt.Fprintf(stdout, "proved     B %d, W %d\nopen       B %d, W %d\ndisproved  B %d, W %d\nsize       %.1f MB\n",
		s.Proved[0], s.Proved[1], s.Open[0], s.Open[1], s.Disproved[0], s.Disproved[1], float64(s.FileBytes)/1e6)
	return nil
}

func proofText(p proofbook.Proof) string {
	s := p.Status.String()
	if p.Status == proofbook.StatusProved {
		s += fmt.Sprintf(" (order %d, %s)", p.Order, p.How)
	} else if p.Status == proofbook.StatusDisproved {
		s += " (" + p.How + ")"
	} else {
		s += fmt.Sprintf(" pn %d dn %d", p.PN, p.DN)
	}
	return s
}

func bookShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book show", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, true)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	id, b, sym, err := f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	r := bk.Rules()
	p, err := bk.Position(ctx, id)
	if err != nil {
		return err
	}
	kids, err := bk.Children(ctx, id)
	if err != nil {
		return err
	}
	type childJSON struct {
		Move  string `json:"move"`
		ID    int64  `json:"id"`
		Black string `json:"black"`
		White string `json:"white"`
		Label string `json:"label,omitempty"`
	}
	var cj []childJSON
	for _, k := range kids {
		cj = append(cj, childJSON{engine.MoveName(r, proofbook.FromCanonical(r, sym, k.Move)), int64(k.ID),
			proofText(k.Proofs[0]), proofText(k.Proofs[1]), k.Label})
	}
	if f.json {
		out := map[string]any{"id": int64(id), "to_move": b.ToMove().String(), "comment": p.Comment, "label": p.Label,
			"black": proofText(p.Proofs[0]), "white": proofText(p.Proofs[1]), "children": cj}
		if p.Verdict != nil {
			v := p.Verdict
			var uns []string
			for _, u := range v.Unsolved {
				uns = append(uns, engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
			}
			items, err := itemNames(ctx, bk, id, v.Attacker, sym)
			if err != nil {
				return err
			}
			out["verdict"] = map[string]any{"status": v.Status, "order": v.Order, "attacker": v.Attacker.String(),
				"unsolved": uns, "all_unsolved": v.AllUnsolved, "calls": v.Calls, "nodes": v.Nodes, "ms": v.Millis, "engine": v.Engine,
				"certificate": v.Cert != nil, "tolerance": v.Tolerance, "open_items": items}
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "position %d, %s to move, %d stones\n", id, b.ToMove(), b.Stones(engine.Black)+b.Stones(engine.White))
	fmt.Fprintf(stdout, "Black attacker: %s\nWhite attacker: %s\n", proofText(p.Proofs[0]), proofText(p.Proofs[1]))
	if p.Label != "" {
		fmt.Fprintf(stdout, "label: %s\n", p.Label)
	}
	if p.Comment != "" {
		fmt.Fprintf(stdout, "comment: %s\n", strings.ReplaceAll(p.Comment, "\n", "\n  "))
	}
	if v := p.Verdict; v != nil {
		var uns []string
		for _, u := range v.Unsolved {
			uns = append(uns, engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
		}
		fmt.Fprintf(stdout, "verdict: %s for %s (order %d), %s, %d calls, %d nodes, %d ms, %s, %s\n",
			v.Status, v.Attacker, v.Order, unsolvedText(v.AllUnsolved, uns, v.Note), v.Calls, v.Nodes, v.Millis, v.Engine, certText(v))
		items, err := itemNames(ctx, bk, id, v.Attacker, sym)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "open items for %s: %d %v\n", v.Attacker, len(items), items)
	}
	fmt.Fprintf(stdout, "%d children:\n", len(kids))
	for _, c := range cj {
		fmt.Fprintf(stdout, "  %-10s B: %-28s W: %-28s %s\n", c.Move, c.Black, c.White, c.Label)
	}
	return nil
}

func bookAnnotate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book annotate", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, true)
	comment := fs.String("comment", "", "set the comment")
	label := fs.String("label", "", "set the user label (e.g. joseki, trap)")
	disprove := fs.Bool("disprove", false, "mark disproved for --attacker (expert's judgement)")
	undisprove := fs.Bool("undisprove", false, "clear the expert's disproof for --attacker")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	// Checked before anything is stored (annotate adds a missing line).
	switch {
	case *disprove && *undisprove:
		return errors.New("give --disprove or --undisprove, not both")
	case !set["comment"] && !set["label"] && !*disprove && !*undisprove:
		return errors.New("nothing to do: give --comment, --label, --disprove or --undisprove")
	case set["attacker"] && !*disprove && !*undisprove:
		return errors.New("--attacker goes with --disprove or --undisprove")
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	id, b, _, err := f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	if set["comment"] {
		if err := bk.SetComment(ctx, id, *comment); err != nil {
			return err
		}
	}
	if set["label"] {
		if err := bk.SetLabel(ctx, id, *label); err != nil {
			return err
		}
	}
	if *disprove || *undisprove {
		a, err := f.attackerFor(b)
		if err != nil {
			return err
		}
		if err := bk.SetDisproved(ctx, id, a, *disprove); err != nil {
			return err
		}
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"id": int64(id), "updated": true})
	}
	fmt.Fprintf(stdout, "position %d updated\n", id)
	return nil
}

func bookVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book verify", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, true)
	lambda := fs.Int("lambda", 2, "2 or 3")
	maxNodes := fs.Int64("max-nodes", 200000, "nodes per solver call")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	workers := fs.Int("workers", 0, "parallel solver calls (0: all cores)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if err := checkVerifyFlags(*lambda, *maxNodes, *timeout, *workers); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	if err := f.checkVerifyAttacker(bk); err != nil {
		return err
	}
	id, _, sym, err := f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	vctx := ctx // --timeout bounds the verifier, not the storing of its verdict
	if *timeout > 0 {
		var cancel context.CancelFunc
		vctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	// Verify the canonical board: the verdict's moves are then in the
	// frame the book stores.
	cb, err := bk.Board(ctx, id)
	if err != nil {
		return err
	}
	_, csym := cb.CanonicalKey()
	tol, ok := cb.DefenderDeficit(cb.ToMove().Opp())
	if !ok {
		return fmt.Errorf("the position's stone counts do not fit full turns of %s, the attacker", cb.ToMove().Opp())
	}
	v, err := engine.Verify(vctx, cb, engine.VerifyOptions{Lambda: *lambda, Workers: *workers, Tolerance: tol,
		Limits: engine.Limits{MaxNodes: *maxNodes}}, nil)
	if err != nil {
		return err
	}
	sv := proofbook.FromEngine(bk.Rules(), csym, v, *lambda)
	if err := bk.StoreVerdict(ctx, id, sv); err != nil {
		return err
	}
	p, err := bk.Position(ctx, id)
	if err != nil {
		return err
	}
	r := bk.Rules()
	var uns []string
	for _, u := range sv.Unsolved {
		uns = append(uns, engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
	}
	if f.json {
		items, err := itemNames(ctx, bk, id, sv.Attacker, sym)
		if err != nil {
			return err
		}
		return writeJSON(stdout, map[string]any{"id": int64(id), "status": sv.Status, "order": sv.Order,
			"unsolved": uns, "all_unsolved": sv.AllUnsolved, "calls": sv.Calls, "nodes": sv.Nodes, "ms": sv.Millis,
			"open_items": items, "tolerance": sv.Tolerance,
			"book_status": p.Proof(sv.Attacker).Status.String()})
	}
	items, err := itemNames(ctx, bk, id, sv.Attacker, sym)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "position %d: verdict %s (order %d) for %s; %s; %d calls, %d nodes, %d ms\n",
		id, sv.Status, sv.Order, sv.Attacker, unsolvedText(sv.AllUnsolved, uns, sv.Note), sv.Calls, sv.Nodes, sv.Millis)
	fmt.Fprintf(stdout, "open items: %d %v\n", len(items), items)
	fmt.Fprintf(stdout, "book status for %s: %s\n", sv.Attacker, proofText(p.Proof(sv.Attacker)))
	return nil
}

// itemNames lists the open items of a position's verdict in the user's
// frame (sym: the user's board onto the canonical frame); a one-stone item
// is an open seminull move.
func itemNames(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, a engine.Color, sym int) ([]string, error) {
	items, err := bk.Items(ctx, id, a)
	if err != nil {
		return nil, err
	}
	r := bk.Rules()
	out := []string{}
	for _, it := range items {
		name := engine.MoveName(r, proofbook.FromCanonical(r, sym, it.Move))
		if it.Move.Len() < r.P {
			name += " (seminull)"
		}
		out = append(out, name)
	}
	return out, nil
}

// certText says whether a stored verdict can count in a proof.
func certText(v *proofbook.Verdict) string {
	if v.Cert == nil {
		return "no certificate (proves nothing: re-verify)"
	}
	return fmt.Sprintf("certificate at tolerance %d", v.Tolerance)
}

// unsolvedText says which defender moves a verdict leaves open.
func unsolvedText(all bool, uns []string, note string) string {
	if all {
		s := "every defender move unsolved (no relevance zone bounds the defence)"
		if note != "" {
			s = "every defender move unsolved: " + note
		}
		return s
	}
	return fmt.Sprintf("%d unsolved %v", len(uns), uns)
}

func bookNext(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book next", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, true)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	id, b, sym, err := f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	a, err := f.attackerFor(b)
	if err != nil {
		return err
	}
	line, err := bk.Next(ctx, id, a)
	if err != nil {
		return err
	}
	r := bk.Rules()
	// The line is in the canonical frame of the start: map it back.
	ms := make([]engine.Move, len(line.Turns))
	for i, m := range line.Turns {
		ms[i] = proofbook.FromCanonical(r, sym, m)
	}
	full := strings.TrimSpace(f.turns + " " + engine.FormatTurns(r, ms))
	last := line.IDs[len(line.IDs)-1]
	p, err := bk.Position(ctx, last)
	if err != nil {
		return err
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"id": int64(last), "turns": full, "to_move": p.ToMove.String(),
			"status": p.Proof(a).Status.String(), "pn": p.Proof(a).PN, "dn": p.Proof(a).DN})
	}
	what := "propose an attacker move"
	if p.ToMove != a {
		what = "run the verifier"
	}
	fmt.Fprintf(stdout, "position %d (%s to move, %s): %s\n  --turns %q\n", last, p.ToMove, proofText(p.Proof(a)), what, full)
	return nil
}

func bookList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book open", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	att := "B"
	fs.Var(colorValue{&att}, "attacker", "attacker B or W")
	proved := fs.Bool("proved", false, "list proved positions instead")
	minOrder := fs.Int("min-order", 1, "with --proved: the least λ order listed (0 adds the game ends)")
	limit := fs.Int("limit", 20, "at most this many")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	a, err := engine.ParseColor(att)
	if err != nil {
		return fmt.Errorf("--attacker: %w", err)
	}
	if err := positive("limit", *limit); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case *minOrder < 0:
		return fmt.Errorf("--min-order %d: want 0 or more", *minOrder)
	case set["min-order"] && !*proved:
		return errors.New("--min-order goes with --proved")
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	var list []proofbook.Ranked
	if *proved {
		list, err = bk.Proved(ctx, a, *minOrder, *limit)
	} else {
		list, err = bk.OpenByPN(ctx, a, *limit)
	}
	if err != nil {
		return err
	}
	r := bk.Rules()
	type entryJSON struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
		Order  int    `json:"order"`
		PN     int64  `json:"pn"`
		DN     int64  `json:"dn"`
		Label  string `json:"label,omitempty"`
		Turns  string `json:"turns"`
	}
	out := []entryJSON{}
	for _, e := range list {
		line := ""
		if paths, err := bk.PathsFromRoot(ctx, e.ID, 1); err == nil && len(paths) > 0 {
			line = engine.FormatTurns(r, paths[0].Turns)
		}
		if f.json {
			out = append(out, entryJSON{int64(e.ID), e.Proof.Status.String(), e.Proof.Order, e.Proof.PN, e.Proof.DN, e.Label, line})
			continue
		}
		fmt.Fprintf(stdout, "%8d  %-30s %s  %s\n", e.ID, proofText(e.Proof), e.Label, line)
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"attacker": a.String(), "proved": *proved, "positions": out})
	}
	return nil
}

func bookSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book search", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	text := fs.String("text", "", "words to find (prefixes match)")
	limit := fs.Int("limit", 20, "at most this many")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if strings.TrimSpace(*text) == "" {
		return errors.New("--text: give the words to find")
	}
	if err := positive("limit", *limit); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	hits, err := bk.Search(ctx, *text, *limit)
	if err != nil {
		return err
	}
	r := bk.Rules()
	type hitJSON struct {
		ID      int64  `json:"id"`
		Comment string `json:"comment"`
		Label   string `json:"label,omitempty"`
		Turns   string `json:"turns"`
	}
	out := []hitJSON{}
	for _, h := range hits {
		line := ""
		if paths, err := bk.PathsFromRoot(ctx, h.ID, 1); err == nil && len(paths) > 0 {
			line = engine.FormatTurns(r, paths[0].Turns)
		}
		if f.json {
			out = append(out, hitJSON{int64(h.ID), h.Comment, h.Label, line})
			continue
		}
		fmt.Fprintf(stdout, "%8d  %q  %s\n", h.ID, h.Comment, line)
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"text": *text, "hits": out})
	}
	return nil
}

func bookCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book check", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	start := time.Now()
	var progress func(proofbook.CheckProgress)
	if isTerminalWriter(stderr) {
		last := time.Now()
		progress = func(p proofbook.CheckProgress) {
			if time.Since(last) > 200*time.Millisecond {
				last = time.Now()
				fmt.Fprintf(stderr, "\rchecking proofs: %d/%d   ", p.Checked, p.Total)
			}
		}
	}
	rep, err := bk.CheckWithProgress(ctx, progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if f.json {
		if err := writeJSON(stdout, map[string]any{"ok": rep.OK(), "positions": rep.Positions, "moves": rep.Edges,
			"statuses": rep.Statuses, "proved": rep.Proved, "proofs_rechecked": rep.Proofs, "seconds": secs,
			"problems": append([]string{}, rep.Problems...)}); err != nil || rep.OK() {
			return err
		}
		return fmt.Errorf("%d problems", len(rep.Problems))
	}
	fmt.Fprintf(stdout, "%d positions, %d moves, %d statuses re-derived (%d proved)\n", rep.Positions, rep.Edges, rep.Statuses, rep.Proved)
	fmt.Fprintf(stdout, "%d proofs re-checked from their certificates by proofcheck; %.1f s, %.0f positions/s\n",
		rep.Proofs, secs, float64(rep.Positions)/max(secs, 1e-3))
	for _, p := range rep.Problems {
		fmt.Fprintln(stdout, "problem:", p)
	}
	if !rep.OK() {
		return fmt.Errorf("%d problems", len(rep.Problems))
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}

func bookBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("c6 book backup", flag.ContinueOnError)
	var f bookFlags
	f.register(fs, false)
	to := fs.String("to", "", "the copy's file (must not exist)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *to == "" {
		return errors.New("--to FILE is required")
	}
	bk, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	if err := bk.Backup(ctx, *to); err != nil {
		return err
	}
	if f.json {
		return writeJSON(stdout, map[string]any{"backup": *to})
	}
	return nil
}
