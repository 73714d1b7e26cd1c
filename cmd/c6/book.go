package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
)

// defaultGames is the shared LittleGolem games file, from the repo root.
const defaultGames = "../shared/data/littlegolem-connect6-games.json.gz"

// bookSub is one book subcommand: its flags, checked before the book is
// opened, and the small function that runs it on the open book.
type bookSub struct {
	name    string
	summary string
	// position: the subcommand reads a position (--turns, --partial,
	// --attacker).
	position bool
	// attacker: the usage of --attacker when it means more than the
	// default's.
	attacker string
	// files: the subcommand takes file arguments besides its flags.
	files bool
	// create: the subcommand makes the book (init): it is not opened.
	create bool
	// writes: the subcommand writes the book: it is refused at once when
	// the book is read-only or SQLite reports it damaged (the write gate,
	// proofbook.Book.CheckWritable), before any work.
	writes bool
	// proofs: the subcommand shows proof statuses: when the book's proofs
	// were changed outside the program since the last check it says so
	// (they show as "unchecked").
	proofs bool
	// flags registers the subcommand's own flags and returns its run
	// function (and an optional check of the flags' values).
	flags func(fs *flag.FlagSet) bookRun
}

// bookRun is what a subcommand does once its flags are parsed. check runs
// before the book is opened (a refused flag leaves the book untouched); run
// runs on the open book.
type bookRun struct {
	check func(e *bookEnv) error
	run   func(e *bookEnv) error
}

// bookEnv is what a book subcommand works with.
type bookEnv struct {
	ctx            context.Context
	f              bookFlags
	set            map[string]bool // the flags given on the command line
	files          []string        // the arguments that are not flags
	bk             *proofbook.Book // nil for a subcommand that creates the book
	stdout, stderr io.Writer
}

// print writes v as one JSON object with --json, or calls text.
func (e *bookEnv) print(v any, text func(w io.Writer)) error {
	if e.f.json {
		return writeJSON(e.stdout, v)
	}
	if text != nil {
		text(e.stdout)
	}
	return nil
}

// bookCommands is the table of the book subcommands, in the order `c6 book
// -h` lists them.
func bookCommands() []bookSub {
	return []bookSub{
		{name: "init", summary: "create a new book (--rules m,n,k,p,q)", create: true, flags: initFlags},
		{name: "import", summary: "merge SGF files (games, collections, variations) into the book", files: true, writes: true, flags: importFlags},
		{name: "import-games", summary: "merge a LittleGolem games file {gid: [turns]} (.json or .json.gz)", writes: true, flags: importGamesFlags},
		{name: "export", proofs: true, summary: "write the line to a position and its subtree as SGF", position: true, flags: exportFlags},
		{name: "stats", proofs: true, summary: "count positions, moves, games, statuses",
			flags: func(*flag.FlagSet) bookRun { return bookRun{run: bookStats} }},
		{name: "show", proofs: true, summary: "a position's status, notes and children", position: true,
			flags: func(*flag.FlagSet) bookRun { return bookRun{run: bookShow} }},
		{name: "games", summary: "the games through a position (source, id, length, result), or one game's turns", position: true, flags: gamesFlags},
		{name: "annotate", summary: "set a position's comment, label, or expert disproof", position: true, writes: true, flags: annotateFlags},
		{name: "verify", summary: "run the verifier on a position and store the verdict", position: true, writes: true, flags: verifyFlags,
			attacker: "attacker B or W: must be the side that just moved, the only side the verifier proves for (default: that side)"},
		{name: "prove", proofs: true, summary: "the auto-pilot: prove a position by proposing attacker moves and verifying, storing every verdict", position: true, writes: true, flags: proveFlags,
			attacker: "attacker B or W (default: the side that just moved; on the empty board, Black)"},
		{name: "next", proofs: true, summary: "the most-proving open position for an attacker", position: true,
			flags: func(*flag.FlagSet) bookRun { return bookRun{run: bookNext} }},
		{name: "open", proofs: true, summary: "open positions by proof number, or proved positions", flags: listFlags},
		{name: "search", proofs: true, summary: "full-text search in comments", flags: searchFlags},
		{name: "check", summary: "integrity check and re-validation of every stored proof",
			flags: func(*flag.FlagSet) bookRun { return bookRun{run: bookCheck} }},
		{name: "backup", summary: "write a consistent copy of the book", flags: backupFlags},
	}
}

func bookUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: c6 book <subcommand> --book FILE [flags]")
	for _, c := range bookCommands() {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "run 'c6 book <subcommand> -h' for a subcommand's flags")
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
	for _, c := range bookCommands() {
		if c.name != args[0] {
			continue
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		if err := c.runArgs(ctx, args[1:], stdout, stderr); err != nil {
			if errors.Is(err, errUsage) {
				return err
			}
			return fmt.Errorf("%s: %w", args[0], err)
		}
		return nil
	}
	bookUsage(stderr)
	return fmt.Errorf("unknown subcommand %q", args[0])
}

// runArgs parses the subcommand's flags, checks them, opens the book, runs
// the subcommand and closes the book.
func (c bookSub) runArgs(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("c6 book "+c.name, flag.ContinueOnError)
	e := &bookEnv{ctx: ctx, set: map[string]bool{}, stdout: stdout, stderr: stderr}
	e.f.register(fs, c.position, c.attacker)
	r := c.flags(fs)
	if c.files {
		e.files, err = parseFlagsFiles(fs, args, stderr)
	} else {
		err = parseFlags(fs, args, stderr)
	}
	if err != nil {
		return err
	}
	fs.Visit(func(fl *flag.Flag) { e.set[fl.Name] = true })
	if r.check != nil {
		if err := r.check(e); err != nil {
			return err
		}
	}
	if !c.create {
		if e.bk, err = e.f.open(ctx); err != nil {
			return err
		}
		defer func() {
			if cerr := e.bk.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
		if note := e.bk.UpgradeNote(); note != "" {
			fmt.Fprintf(stderr, "c6 book: %s: %s\n", e.bk.Path(), note)
		}
		if c.writes {
			if err := e.bk.CheckWritable(ctx); err != nil {
				return err
			}
		}
		if c.proofs {
			ok, err := e.bk.ProofsChecked(ctx)
			if err != nil {
				return err
			}
			if !ok {
				fmt.Fprintf(stderr, "c6 book: %s: %s\n", e.bk.Path(), proofbook.UncheckedNote)
			}
		}
	}
	return r.run(e)
}

// bookFlags are the flags every book subcommand shares.
type bookFlags struct {
	book     string
	turns    string
	attacker string
	json     bool
	partial  bool
}

func (f *bookFlags) register(fs *flag.FlagSet, position bool, attackerUsage string) {
	if attackerUsage == "" {
		attackerUsage = "attacker B or W (default: the side that just moved)"
	}
	fs.StringVar(&f.book, "book", "", "the book file (required)")
	if position {
		registerTurns(fs, &f.turns, &f.partial, "the position: turns from the empty board (\"j10 j11k10 ...\"); empty: the root")
		fs.Var(colorValue{&f.attacker}, "attacker", attackerUsage)
	}
	fs.BoolVar(&f.json, "json", false, "write JSON")
}

func (f *bookFlags) open(ctx context.Context) (*proofbook.Book, error) {
	if f.book == "" {
		return nil, errors.New("--book FILE is required")
	}
	return proofbook.Open(ctx, f.book)
}

// line reads --turns in the book's rules: the moves and the board.
func (f *bookFlags) line(r engine.Rules) ([]engine.Move, *engine.Board, error) {
	return readTurns(r, f.turns, f.partial)
}

// locate replays --turns and finds the position (and the board and its
// symmetry). add stores the line when it is missing.
func (f *bookFlags) locate(ctx context.Context, bk *proofbook.Book, add bool) (proofbook.PosID, *engine.Board, int, error) {
	ms, b, err := f.line(bk.Rules())
	if err != nil {
		return 0, nil, 0, err
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
	_, b, err := f.line(bk.Rules())
	if err != nil {
		return err
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

func initFlags(fs *flag.FlagSet) bookRun {
	rules := "19,19,6,2,1"
	fs.Var(rulesValue{&rules}, "rules", "rules m,n,k,p,q")
	var r engine.Rules
	return bookRun{
		check: func(e *bookEnv) error {
			var err error
			if r, err = engine.ParseRules(rules); err != nil {
				return fmt.Errorf("--rules: %w", err)
			}
			if e.f.book == "" {
				return errors.New("--book FILE is required")
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookInit(e, r) },
	}
}

func bookInit(e *bookEnv, r engine.Rules) error {
	bk, err := proofbook.Create(e.ctx, e.f.book, r)
	if err != nil {
		return err
	}
	if err := bk.Close(); err != nil {
		return err
	}
	return e.print(map[string]any{"book": e.f.book, "rules": r.String()}, func(w io.Writer) {
		fmt.Fprintf(w, "created %s for Connect(%s)\n", e.f.book, r)
	})
}

// needFiles refuses a file command without files.
func needFiles(e *bookEnv) error {
	if len(e.files) == 0 {
		return errors.New("give the SGF files to import")
	}
	return nil
}

func importFlags(fs *flag.FlagSet) bookRun {
	partial := fs.Bool("partial", false, "read a turn with fewer stones than the rules place (B[] or W[]: null; one stone: seminull) as a proof line's null or seminull move (else it refuses the file); a game record with one counts no game")
	return bookRun{check: needFiles, run: func(e *bookEnv) error { return bookImport(e, *partial) }}
}

func bookImport(e *bookEnv, partial bool) error {
	type fileJSON struct {
		File      string `json:"file"`
		Games     int    `json:"games"`
		Positions int    `json:"positions"`
		Moves     int    `json:"moves"`
		Recorded  int    `json:"game_records"` // counted in the statistics
	}
	var done []fileJSON
	for _, path := range e.files {
		st, err := importSGFFile(e, path, partial)
		if err != nil {
			return fmt.Errorf("%s: %w (nothing imported from it)", path, err)
		}
		done = append(done, fileJSON{path, st.Games, st.Positions, st.Edges, st.Recorded})
		if !e.f.json {
			fmt.Fprintf(e.stdout, "%s: %d games, %d new positions, %d new moves, %d new game records in the statistics\n",
				path, st.Games, st.Positions, st.Edges, st.Recorded)
		}
	}
	return e.print(map[string]any{"files": done}, nil)
}

// importSGFFile imports one SGF file as it is read (the reader's limits
// refuse an input too large, a device like /dev/zero included).
func importSGFFile(e *bookEnv, path string, partial bool) (proofbook.ImportStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return proofbook.ImportStats{}, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return proofbook.ImportStats{}, errors.New("a directory, not an SGF file")
	}
	return e.bk.ImportSGFReader(e.ctx, f, proofbook.SGFImportOptions{Partial: partial})
}

type importGamesOpts struct {
	games, source string
	batch         int
	verbose       bool
}

func importGamesFlags(fs *flag.FlagSet) bookRun {
	var o importGamesOpts
	fs.StringVar(&o.games, "games", defaultGames, "the games file")
	fs.IntVar(&o.batch, "batch", 500, "games per transaction")
	fs.StringVar(&o.source, "source", "littlegolem", "the games' origin (games are stored once per source and id)")
	fs.BoolVar(&o.verbose, "v", false, "list every skipped game (id and reason), and the longest write transaction")
	return bookRun{
		check: func(*bookEnv) error {
			if err := positive("batch", o.batch); err != nil {
				return err
			}
			if strings.TrimSpace(o.source) == "" {
				return errors.New("--source: want a name (the games' origin), not an empty string")
			}
			if o.games == "" {
				return errors.New("--games FILE: want a file name, not an empty string")
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookImportGames(e, o) },
	}
}

func bookImportGames(e *bookEnv, o importGamesOpts) error {
	stderr := e.stderr
	in, err := os.Open(o.games)
	if err != nil {
		return fmt.Errorf("--games: %w", err)
	}
	defer in.Close()
	start := time.Now()
	opts := proofbook.ImportOptions{Source: o.source, Batch: o.batch}
	tty := isTerminalWriter(stderr)
	if tty {
		// What the committed transactions hold, a few times a second.
		opts.ProgressEvery = 200 * time.Millisecond
		opts.OnProgress = func(p proofbook.ImportProgress) {
			if !p.Final {
				fmt.Fprintf(stderr, "\r\033[Kimporting: %d/%d games committed (%d new)", p.Done, p.Total, p.Stored)
			}
		}
	}
	st, err := e.bk.ImportGames(e.ctx, in, opts)
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("cancelled: %d games stored, %d already in the book (%d of them repaired), %d skipped before it (all kept; importing again adds the rest)",
			st.Games, st.Already, st.Repaired, len(st.Skipped))
	}
	if err != nil && st.Transactions == 0 {
		return fmt.Errorf("%w; nothing imported", err)
	}
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
	if !o.verbose && len(list) > 5 {
		list = list[:5]
	}
	elapsed := time.Since(start)
	type skipJSON struct {
		ID     string `json:"id"`
		Reason string `json:"reason"`
		Error  string `json:"error"`
	}
	sk := []skipJSON{}
	for _, e := range list {
		sk = append(sk, skipJSON{oneLine(e.ID, 40), e.Reason(), oneLine(e.Err.Error(), 160)})
	}
	return e.print(map[string]any{"games": st.Games, "already": st.Already, "skipped": len(st.Skipped),
		"skipped_by_reason": byReason, "skipped_games": sk, "repaired": st.Repaired, "positions": st.Positions, "moves": st.Edges,
		"transactions": st.Transactions, "longest_tx_ms": st.LongestTx.Milliseconds(), "ms": elapsed.Milliseconds()},
		func(w io.Writer) {
			fmt.Fprintf(w, "%d games imported, %d already in the book, %d skipped; %d new positions, %d new moves in %s\n",
				st.Games, st.Already, len(st.Skipped), st.Positions, st.Edges, elapsed.Round(time.Millisecond))
			if st.Repaired > 0 {
				fmt.Fprintf(w, "%d games already in the book repaired: their own line replaces the one an upgrade chose\n", st.Repaired)
			}
			for _, k := range reasons {
				fmt.Fprintf(w, "skipped %d: %s\n", byReason[k], k)
			}
			for _, e := range list {
				fmt.Fprintf(w, "skipped game %s: %s\n", oneLine(e.ID, 40), oneLine(e.Err.Error(), 160))
			}
			if len(list) < len(st.Skipped) {
				fmt.Fprintf(w, "... (-v lists all %d)\n", len(st.Skipped))
			}
			if o.verbose {
				fmt.Fprintf(w, "%d write transactions, the longest held the lock %s\n", st.Transactions, st.LongestTx.Round(time.Millisecond))
			}
		})
}

func exportFlags(fs *flag.FlagSet) bookRun {
	out := fs.String("out", "", "write to this file (default: standard output)")
	depth := fs.Int("depth", 0, "turns below the position (0: all)")
	maxNodes := fs.Int("max-nodes", 100000, "at most this many moves below the position (0: no limit); a cut export says so")
	return bookRun{
		check: func(*bookEnv) error {
			if *depth < 0 {
				return fmt.Errorf("--depth %d: want 0 (all) or more", *depth)
			}
			if *maxNodes < 0 {
				return fmt.Errorf("--max-nodes %d: want 0 (no limit) or more", *maxNodes)
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookExport(e, *out, *depth, *maxNodes) },
	}
}

func bookExport(e *bookEnv, out string, depth, maxNodes int) error {
	id, _, _, err := e.f.locate(e.ctx, e.bk, false)
	if err != nil {
		return err
	}
	// In the orientation of --turns, not the book's stored frame.
	line, _, err := e.f.line(e.bk.Rules())
	if err != nil {
		return err
	}
	opts := proofbook.ExportOptions{MaxDepth: depth, MaxNodes: maxNodes, Line: line}
	res := map[string]any{"id": int64(id)}
	var st proofbook.ExportStats
	switch {
	case out != "":
		// Written as it is exported, to a file beside --out renamed at the
		// end: a failed export leaves no file behind.
		if st, err = exportToFile(e, id, out, opts); err != nil {
			return err
		}
		res["out"] = out
	case e.f.json:
		// The JSON object holds the SGF: made whole first.
		var buf strings.Builder
		if st, err = e.bk.ExportSGF(e.ctx, id, &buf, opts); err != nil {
			return err
		}
		res["sgf"] = buf.String()
	default:
		if st, err = e.bk.ExportSGF(e.ctx, id, e.stdout, opts); err != nil {
			return err
		}
	}
	if st.Truncated {
		fmt.Fprintf(e.stderr, "c6 book export: truncated at %d moves (--max-nodes); the book stores more below this position (--max-nodes 0 exports all)\n", maxNodes)
	}
	res["nodes"], res["truncated"] = st.Nodes, st.Truncated
	if e.f.json || out != "" {
		return e.print(res, nil) // with --out, the text output is empty
	}
	return nil
}

// exportToFile writes the export to a temporary file in out's folder and
// renames it to out once it is complete.
func exportToFile(e *bookEnv, id proofbook.PosID, out string, opts proofbook.ExportOptions) (proofbook.ExportStats, error) {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return proofbook.ExportStats{}, fmt.Errorf("--out: %w", err)
	}
	st, err := e.bk.ExportSGF(e.ctx, id, f, opts)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("--out: %w", cerr)
	}
	if err == nil {
		if err = os.Chmod(f.Name(), 0o644); err == nil {
			err = os.Rename(f.Name(), out)
		}
		if err != nil {
			err = fmt.Errorf("--out: %w", err)
		}
	}
	if err != nil {
		os.Remove(f.Name())
		return st, err
	}
	return st, nil
}

func bookStats(e *bookEnv) error {
	s, err := e.bk.Stats(e.ctx)
	if err != nil {
		return err
	}
	checked, err := e.bk.ProofsChecked(e.ctx)
	if err != nil {
		return err
	}
	return e.print(map[string]any{"rules": s.Rules.String(), "positions": s.Positions, "moves": s.Edges,
		"games": s.Games, "notes": s.Notes, "verdicts": s.Verdicts, "schema": s.Schema, "bytes": s.FileBytes,
		"proved":          map[string]int64{"B": s.Proved[0], "W": s.Proved[1]},
		"proved_by_order": map[string][4]int64{"B": s.ProvedByOrder[0], "W": s.ProvedByOrder[1]},
		"open":            map[string]int64{"B": s.Open[0], "W": s.Open[1]},
		"disproved":       map[string]int64{"B": s.Disproved[0], "W": s.Disproved[1]},
		"unchecked":       map[string]int64{"B": s.Unchecked[0], "W": s.Unchecked[1]}, "proofs_checked": checked},
		func(w io.Writer) {
			fmt.Fprintf(w, "rules      Connect(%s)\nschema     %d\npositions  %d\nmoves      %d\ngames      %d\nnotes      %d\nverdicts   %d\n",
				s.Rules, s.Schema, s.Positions, s.Edges, s.Games, s.Notes, s.Verdicts)
			fmt.Fprintf(w, "proved     B %d, W %d\n", s.Proved[0], s.Proved[1])
			for i, c := range []string{"B", "W"} {
				o := s.ProvedByOrder[i]
				fmt.Fprintf(w, "  %s        order 0 (won at once) %d, order 1 %d, order 2 %d, order 3 %d (open --proved lists %d)\n", c, o[0], o[1], o[2], o[3], o[1]+o[2]+o[3])
			}
			fmt.Fprintf(w, "open       B %d, W %d\ndisproved  B %d, W %d\nsize       %.1f MB\n",
				s.Open[0], s.Open[1], s.Disproved[0], s.Disproved[1], float64(s.FileBytes)/1e6)
			if !checked {
				fmt.Fprintf(w, "unchecked  B %d, W %d (%s)\n", s.Unchecked[0], s.Unchecked[1], proofbook.UncheckedNote)
			}
		})
}

// verdictOrderText says a verdict's λ order: the order of its argument
// (README, "Orders"), not the λ of the run; an open verdict's is the order
// of what it refuted so far, which its items may raise.
func verdictOrderText(v *c6book.Verdict) string {
	switch {
	case v.Order == 0:
		return "no order: nothing refuted"
	case v.Status == c6book.StatusProved:
		return fmt.Sprintf("order %d", v.Order)
	}
	return fmt.Sprintf("order %d so far", v.Order)
}

func proofText(p c6book.Proof) string {
	s := p.Status.String()
	if p.Status == c6book.StatusProved || p.Status == c6book.StatusUnchecked {
		s += fmt.Sprintf(" (order %d, %s)", p.Order, p.How)
	} else if p.Status == c6book.StatusDisproved {
		s += " (" + p.How + ")"
	} else {
		s += fmt.Sprintf(" pn %d dn %d", p.PN, p.DN)
	}
	return s
}

func bookShow(e *bookEnv) error {
	ctx, bk := e.ctx, e.bk
	id, b, sym, err := e.f.locate(ctx, bk, false)
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
	gs, err := bk.GameStatsOf(ctx, id)
	if err != nil {
		return err
	}
	// The replies as the book orders them (most played first, then by
	// status), named in the orientation of --turns.
	type childJSON struct {
		Move  string        `json:"move"`
		ID    int64         `json:"id"`
		Games gameStatsJSON `json:"games"`
		Black string        `json:"black"`
		White string        `json:"white"`
		Label string        `json:"label,omitempty"`
	}
	cj := []childJSON{}
	for _, k := range kids {
		cj = append(cj, childJSON{engine.MoveName(r, proofbook.FromCanonical(r, sym, k.Move)), int64(k.ID), statsJSON(k.Games),
			proofText(k.Proofs[0]), proofText(k.Proofs[1]), k.Label})
	}
	checked, err := bk.ProofsChecked(ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"id": int64(id), "to_move": b.ToMove().String(), "comment": p.Comment, "label": p.Label, "proofs_checked": checked,
		"black": proofText(p.Proofs[0]), "white": proofText(p.Proofs[1]), "games": statsJSON(gs), "children": cj}
	var uns, semi, items []string
	var why []unsolvedJSON
	if v := p.Verdict; v != nil {
		uns, semi = verdictMoves(r, sym, v)
		why = unsolvedWhy(r, sym, v)
		if items, err = itemNames(ctx, bk, id, v.Attacker, sym); err != nil {
			return err
		}
		out["verdict"] = newVerdictJSON(r, v.Transform(r, engine.InverseSymmetry(sym)))
		out["open_items"] = items
		out["unsolved_why"] = why
	}
	return e.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "position %d, %s to move, %d stones; %d games (Black won %d, White %d, %d unfinished)\n", id, b.ToMove(),
			b.Stones(engine.Black)+b.Stones(engine.White), gs.Games, gs.BlackWins, gs.WhiteWins, gs.Unfinished)
		if !checked {
			fmt.Fprintln(w, proofbook.UncheckedNote)
		}
		fmt.Fprintf(w, "Black attacker: %s\nWhite attacker: %s\n", proofText(p.Proofs[0]), proofText(p.Proofs[1]))
		if p.Label != "" {
			fmt.Fprintf(w, "label: %s\n", p.Label)
		}
		if p.Comment != "" {
			fmt.Fprintf(w, "comment: %s\n", strings.ReplaceAll(p.Comment, "\n", "\n  "))
		}
		if v := p.Verdict; v != nil {
			fmt.Fprintf(w, "verdict: %s for %s (%s), %s, %d calls, %d nodes, %d ms, %s, %s\n",
				v.Status, v.Attacker, verdictOrderText(v), unsolvedText(v, uns, semi), v.Calls, v.Nodes, v.Millis, v.Engine, certText(v))
			printUnsolvedWhy(w, why)
			fmt.Fprintf(w, "open items for %s: %d %v\n", v.Attacker, len(items), items)
		}
		fmt.Fprintf(w, "%d replies, most played first:\n", len(kids))
		if len(kids) > 0 {
			fmt.Fprintf(w, "  %-10s %6s %6s  %-28s %-28s %s\n", "move", "games", "Black", "Black attacker", "White attacker", "label")
		}
		for i, c := range cj {
			fmt.Fprintf(w, "  %-10s %6d %6s  %-28s %-28s %s\n", c.Move, c.Games.Games, rateText(kids[i].Games), c.Black, c.White, c.Label)
		}
	})
}

type annotateOpts struct {
	comment, label       string
	disprove, undisprove bool
	hold, unhold         bool
}

func annotateFlags(fs *flag.FlagSet) bookRun {
	var o annotateOpts
	fs.StringVar(&o.comment, "comment", "", "set the comment")
	fs.StringVar(&o.label, "label", "", "set the user label (e.g. joseki, trap)")
	fs.BoolVar(&o.disprove, "disprove", false, "mark disproved for --attacker (expert's judgement)")
	fs.BoolVar(&o.undisprove, "undisprove", false, "clear the expert's disproof for --attacker")
	fs.BoolVar(&o.hold, "hold", false, "leave to me: the auto-pilot (prove) skips the position for --attacker, and all below it")
	fs.BoolVar(&o.unhold, "unhold", false, "give the position back to the auto-pilot for --attacker")
	return bookRun{
		// Checked before anything is stored (annotate adds a missing line).
		check: func(e *bookEnv) error {
			switch {
			case o.disprove && o.undisprove:
				return errors.New("give --disprove or --undisprove, not both")
			case o.hold && o.unhold:
				return errors.New("give --hold or --unhold, not both")
			case !e.set["comment"] && !e.set["label"] && !o.disprove && !o.undisprove && !o.hold && !o.unhold:
				return errors.New("nothing to do: give --comment, --label, --disprove, --undisprove, --hold or --unhold")
			case e.set["attacker"] && !o.disprove && !o.undisprove && !o.hold && !o.unhold:
				return errors.New("--attacker goes with --disprove, --undisprove, --hold or --unhold")
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookAnnotate(e, o) },
	}
}

func bookAnnotate(e *bookEnv, o annotateOpts) error {
	ctx, bk := e.ctx, e.bk
	id, b, _, err := e.f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	if e.set["comment"] {
		if err := bk.SetComment(ctx, id, o.comment); err != nil {
			return err
		}
	}
	if e.set["label"] {
		if err := bk.SetLabel(ctx, id, o.label); err != nil {
			return err
		}
	}
	if o.disprove || o.undisprove {
		a, err := e.f.attackerFor(b)
		if err != nil {
			return err
		}
		if err := bk.SetDisproved(ctx, id, a, o.disprove); err != nil {
			return err
		}
	}
	if o.hold || o.unhold {
		a, err := e.f.attackerFor(b)
		if err != nil {
			return err
		}
		if err := bk.SetHold(ctx, id, a, o.hold); err != nil {
			return err
		}
	}
	return e.print(map[string]any{"id": int64(id), "updated": true}, func(w io.Writer) {
		fmt.Fprintf(w, "position %d updated\n", id)
	})
}

type verifyOpts struct {
	lambda   int
	maxNodes int64
	timeout  time.Duration
	workers  int
	nats     natsFlags
}

func verifyFlags(fs *flag.FlagSet) bookRun {
	var o verifyOpts
	fs.IntVar(&o.lambda, "lambda", 2, "2 or 3")
	fs.Int64Var(&o.maxNodes, "max-nodes", 200000, "nodes per solver call")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget of each solver call (0: none)")
	fs.IntVar(&o.workers, "workers", 0, "parallel solver calls (0: all cores)")
	o.nats.register(fs)
	return bookRun{
		check: func(*bookEnv) error {
			if err := o.nats.check(); err != nil {
				return err
			}
			return checkVerifyFlags(o.lambda, o.maxNodes, o.timeout, o.workers)
		},
		run: func(e *bookEnv) error { return bookVerify(e, o) },
	}
}

func bookVerify(e *bookEnv, o verifyOpts) error {
	ctx, bk := e.ctx, e.bk
	if err := e.f.checkVerifyAttacker(bk); err != nil {
		return err
	}
	id, _, sym, err := e.f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	// --timeout bounds each solver call, as in `c6 verify`: a call out of
	// time leaves its move unsolved, and the verdict is stored.
	verifier, release, err := o.nats.verifier(ctx, e.stderr)
	if err != nil {
		return err
	}
	res, err := bk.Verify(ctx, id, verifier, engine.VerifyOptions{Lambda: o.lambda, Workers: o.workers,
		Limits: engine.Limits{MaxNodes: o.maxNodes, Timeout: o.timeout}}, nil)
	release()
	if err != nil {
		return err
	}
	sv := res.Verdict
	p, err := bk.Position(ctx, id)
	if err != nil {
		return err
	}
	r := bk.Rules()
	uns, semi := verdictMoves(r, sym, &sv)
	items, err := itemNames(ctx, bk, id, sv.Attacker, sym)
	if err != nil {
		return err
	}
	why := unsolvedWhy(r, sym, &sv)
	return e.print(map[string]any{"id": int64(id), "verdict": newVerdictJSON(r, sv.Transform(r, engine.InverseSymmetry(sym))),
		"open_items": items, "unsolved_why": why, "book_status": p.Proof(sv.Attacker).Status},
		func(w io.Writer) {
			fmt.Fprintf(w, "position %d: verdict %s (%s) for %s; %s; %d calls, %d nodes, %d ms\n",
				id, sv.Status, verdictOrderText(&sv), sv.Attacker, unsolvedText(&sv, uns, semi), sv.Calls, sv.Nodes, sv.Millis)
			printUnsolvedWhy(w, why)
			fmt.Fprintf(w, "open items: %d %v\n", len(items), items)
			fmt.Fprintf(w, "book status for %s: %s\n", sv.Attacker, proofText(p.Proof(sv.Attacker)))
		})
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
func certText(v *c6book.Verdict) string {
	if v.Cert == nil {
		return "no certificate (proves nothing: re-verify)"
	}
	return fmt.Sprintf("certificate at tolerance %d", v.Tolerance)
}

// verdictMoves names a stored verdict's unsolved defender moves and its
// open seminull moves in the user's frame (sym: the user's board onto the
// canonical frame).
func verdictMoves(r engine.Rules, sym int, v *c6book.Verdict) (uns, semi []string) {
	for _, u := range v.Unsolved {
		uns = append(uns, engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
	}
	for _, u := range v.OpenSeminull {
		semi = append(semi, engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
	}
	return uns, semi
}

// unsolvedText says which defender moves a verdict leaves open: the
// unsolved full moves and the open seminull moves (uns and semi, named).
func unsolvedText(v *c6book.Verdict, uns, semi []string) string {
	if v.AllUnsolved {
		s := "every defender move unsolved (no relevance zone bounds the defence)"
		if v.Note != "" {
			s = "every defender move unsolved: " + v.Note
		}
		return s
	}
	s := fmt.Sprintf("%d unsolved %v", len(uns), uns)
	if len(semi) > 0 {
		s += fmt.Sprintf(", %d open seminull %v", len(semi), semi)
	}
	return s
}

func bookNext(e *bookEnv) error {
	ctx, bk := e.ctx, e.bk
	id, b, sym, err := e.f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	a, err := e.f.attackerFor(b)
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
	full := strings.TrimSpace(e.f.turns + " " + engine.FormatTurns(r, ms))
	last := line.IDs[len(line.IDs)-1]
	p, err := bk.Position(ctx, last)
	if err != nil {
		return err
	}
	// Where the auto-pilot (prove) got stuck on this line: a position left
	// to the expert, or a dead end of the verifier.
	var stuck []map[string]any
	for _, pid := range line.IDs {
		why, err := bk.Stuck(ctx, pid, a)
		if err != nil {
			return err
		}
		if why != "" {
			stuck = append(stuck, map[string]any{"id": int64(pid), "why": why})
		}
	}
	return e.print(map[string]any{"id": int64(last), "turns": full, "to_move": p.ToMove.String(),
		"status": p.Proof(a).Status, "pn": p.Proof(a).PN, "dn": p.Proof(a).DN, "auto_pilot_stuck": stuck},
		func(w io.Writer) {
			what := "propose an attacker move"
			if p.ToMove != a {
				what = "run the verifier"
			}
			fmt.Fprintf(w, "position %d (%s to move, %s): %s\n  --turns %q\n", last, p.ToMove, proofText(p.Proof(a)), what, full)
			for _, s := range stuck {
				what := "left to the expert: the auto-pilot skips it"
				if s["why"] == "dead end" {
					what = "the auto-pilot's dead end: the verifier leaves every defender move open"
				}
				fmt.Fprintf(w, "  position %d on this line: %s\n", s["id"], what)
			}
		})
}

type listOpts struct {
	attacker engine.Color
	proved   bool
	minOrder int
	limit    int
}

func listFlags(fs *flag.FlagSet) bookRun {
	att := "B"
	fs.Var(colorValue{&att}, "attacker", "attacker B or W")
	var o listOpts
	fs.BoolVar(&o.proved, "proved", false, "list proved positions instead")
	fs.IntVar(&o.minOrder, "min-order", 1, "with --proved: the least λ order listed (0 adds the game ends)")
	fs.IntVar(&o.limit, "limit", 20, "at most this many")
	return bookRun{
		check: func(e *bookEnv) error {
			a, err := engine.ParseColor(att)
			if err != nil {
				return fmt.Errorf("--attacker: %w", err)
			}
			o.attacker = a
			if err := positive("limit", o.limit); err != nil {
				return err
			}
			switch {
			case o.minOrder < 0:
				return fmt.Errorf("--min-order %d: want 0 or more", o.minOrder)
			case e.set["min-order"] && !o.proved:
				return errors.New("--min-order goes with --proved")
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookList(e, o) },
	}
}

func bookList(e *bookEnv, o listOpts) error {
	var list []proofbook.Ranked
	var err error
	if o.proved {
		list, err = e.bk.Proved(e.ctx, o.attacker, o.minOrder, o.limit)
	} else {
		list, err = e.bk.OpenByPN(e.ctx, o.attacker, o.limit)
	}
	if err != nil {
		return err
	}
	type entryJSON struct {
		ID     int64         `json:"id"`
		Status c6book.Status `json:"status"`
		Order  int           `json:"order"`
		PN     int64         `json:"pn"`
		DN     int64         `json:"dn"`
		Label  string        `json:"label,omitempty"`
		Turns  string        `json:"turns"`
	}
	// Each with its line from the root in the position's stable
	// orientation (its first game's, else its first stored path's).
	out := []entryJSON{}
	for _, en := range list {
		out = append(out, entryJSON{int64(en.ID), en.Proof.Status, en.Proof.Order, en.Proof.PN, en.Proof.DN, en.Label,
			engine.FormatTurns(e.bk.Rules(), en.Turns)})
	}
	checked, err := e.bk.ProofsChecked(e.ctx)
	if err != nil {
		return err
	}
	res := map[string]any{"attacker": o.attacker.String(), "proved": o.proved, "positions": out, "proofs_checked": checked}
	// None for the attacker asked: say how many the other attacker has
	// (one line, not silence).
	var none string
	if len(list) == 0 {
		other := o.attacker.Opp()
		st, what := c6book.StatusOpen, "open"
		if o.proved {
			st, what = c6book.StatusProved, "proved"
		}
		n, err := e.bk.CountStatus(e.ctx, other, st, o.minOrder)
		if err != nil {
			return err
		}
		none = fmt.Sprintf("no %s positions for %s; %d for %s", what, o.attacker, n, other)
		res["other"] = map[string]any{"attacker": other.String(), "count": n}
	}
	return e.print(res,
		func(w io.Writer) {
			if !checked && o.proved {
				fmt.Fprintln(w, proofbook.UncheckedNote)
			}
			if none != "" {
				fmt.Fprintln(w, none)
			}
			for i, en := range list {
				fmt.Fprintf(w, "%8d  %-30s %s  %s\n", en.ID, proofText(en.Proof), en.Label, out[i].Turns)
			}
		})
}

func searchFlags(fs *flag.FlagSet) bookRun {
	text := fs.String("text", "", "words to find (prefixes match)")
	limit := fs.Int("limit", 20, "at most this many")
	return bookRun{
		check: func(*bookEnv) error {
			if strings.TrimSpace(*text) == "" {
				return errors.New("--text: give the words to find")
			}
			return positive("limit", *limit)
		},
		run: func(e *bookEnv) error { return bookSearch(e, *text, *limit) },
	}
}

func bookSearch(e *bookEnv, text string, limit int) error {
	hits, err := e.bk.Search(e.ctx, text, limit)
	if err != nil {
		return err
	}
	// Each with its stones, statuses and line from the root in the
	// position's stable orientation (its first game's, else its first
	// stored path's), in which its comment was most likely written.
	type hitJSON struct {
		ID      int64  `json:"id"`
		Comment string `json:"comment"`
		Label   string `json:"label,omitempty"`
		Stones  int    `json:"stones"`
		Black   string `json:"black"`
		White   string `json:"white"`
		Turns   string `json:"turns"`
	}
	out := []hitJSON{}
	for _, h := range hits {
		out = append(out, hitJSON{int64(h.ID), h.Comment, h.Label, h.Stones, proofText(h.Proofs[0]), proofText(h.Proofs[1]),
			engine.FormatTurns(e.bk.Rules(), h.Turns)})
	}
	return e.print(map[string]any{"text": text, "hits": out}, func(w io.Writer) {
		for _, h := range out {
			fmt.Fprintf(w, "%8d  %q  B: %s  W: %s  %s\n", h.ID, h.Comment, h.Black, h.White, h.Turns)
		}
	})
}

func bookCheck(e *bookEnv) error {
	stderr := e.stderr
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
	rep, err := e.bk.CheckWithProgress(e.ctx, progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if err := e.print(map[string]any{"ok": rep.OK(), "positions": rep.Positions, "moves": rep.Edges,
		"statuses": rep.Statuses, "proved": rep.Proved, "proofs_rechecked": rep.Proofs, "seconds": secs,
		"outside_change": rep.Outside, "digest_recorded": rep.Recorded,
		"problems": append([]string{}, rep.Problems...)},
		func(w io.Writer) {
			fmt.Fprintf(w, "%d positions, %d moves, %d statuses re-derived (%d proved)\n", rep.Positions, rep.Edges, rep.Statuses, rep.Proved)
			fmt.Fprintf(w, "%d proofs re-checked from their certificates by proofcheck; %.1f s, %.0f positions/s\n",
				rep.Proofs, secs, float64(rep.Positions)/max(secs, 1e-3))
			for _, p := range rep.Problems {
				fmt.Fprintln(w, "problem:", p)
			}
			if rep.Outside && rep.Recorded {
				fmt.Fprintln(w, "the proofs had been changed outside the program: every one re-checked, the book trusts them again")
			} else if rep.Outside && rep.OK() {
				fmt.Fprintln(w, "the proofs had been changed outside the program; they check, but the book is read-only: they stay unchecked")
			} else if rep.Outside {
				fmt.Fprintln(w, "the proofs had been changed outside the program and do not all check: they stay unchecked")
			}
			if rep.OK() {
				fmt.Fprintln(w, "ok")
			}
		}); err != nil {
		return err
	}
	if !rep.OK() {
		return fmt.Errorf("%d problems", len(rep.Problems))
	}
	return nil
}

func backupFlags(fs *flag.FlagSet) bookRun {
	to := fs.String("to", "", "the copy's file (must not exist)")
	return bookRun{
		check: func(*bookEnv) error {
			if *to == "" {
				return errors.New("--to FILE is required")
			}
			return nil
		},
		run: func(e *bookEnv) error { return bookBackup(e, *to) },
	}
}

func bookBackup(e *bookEnv, to string) error {
	if err := e.bk.Backup(e.ctx, to); err != nil {
		return err
	}
	return e.print(map[string]any{"backup": to}, nil)
}
