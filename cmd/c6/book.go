package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
	"c6book/service"
)

// defaultGames is the shared LittleGolem games file, from the repo root.
const defaultGames = "../shared/data/littlegolem-connect6-games.json.gz"

// bookSub is one row of the book's table: a subcommand's name, what it
// needs from the shared steps (a position, files, an open book, the write
// gate, the unchecked note) and the subcommand type itself (cmd).
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
	// cmd is the subcommand itself: its flags, their check and its run.
	cmd bookSubcommand
}

// bookSubcommand is what a book subcommand type (BookProveCommand, ...,
// each in a file of its own) does: register its flags, validate them
// before the book is opened (a refused flag leaves the book untouched; one
// place for every flag check, a one-line error), and run on the open book.
type bookSubcommand interface {
	flags(fs *flag.FlagSet)
	validate(e *bookEnv) error
	run(e *bookEnv) error
}

// bookRunner is a book subcommand as a Command of the book's table.
type bookRunner struct {
	sub bookSub
	stdio
}

func (r bookRunner) Run(ctx context.Context, args []string) error {
	return r.sub.runArgs(ctx, args, r.stdout, r.stderr)
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
		{name: "init", summary: "create a new book (--rules m,n,k,p,q)", create: true, cmd: &BookInitCommand{}},
		{name: "import", summary: "merge SGF files (games, collections, variations) into the book", files: true, writes: true, cmd: &BookImportCommand{}},
		{name: "import-games", summary: "merge a LittleGolem games file {gid: [turns]} (.json or .json.gz)", writes: true, cmd: &BookImportGamesCommand{}},
		{name: "export", proofs: true, summary: "write the line to a position and its subtree as SGF", position: true, cmd: &BookExportCommand{}},
		{name: "stats", proofs: true, summary: "count positions, moves, games, statuses", cmd: &BookStatsCommand{}},
		{name: "show", proofs: true, summary: "a position's status, notes and children", position: true, cmd: &BookShowCommand{}},
		{name: "games", summary: "the games through a position (source, id, length, result), or one game's turns", position: true, cmd: &BookGamesCommand{}},
		{name: "annotate", summary: "set a position's comment, label, or expert disproof", position: true, writes: true, cmd: &BookAnnotateCommand{}},
		{name: "verify", summary: "run the verifier on a position and store the verdict", position: true, writes: true, cmd: &BookVerifyCommand{},
			attacker: "attacker B or W: must be the side that just moved, the only side the verifier proves for (default: that side)"},
		{name: "prove", proofs: true, summary: "the auto-pilot: prove a position by proposing attacker moves and verifying, storing every verdict", position: true, writes: true, cmd: &BookProveCommand{},
			attacker: "attacker B or W (default: the side that just moved; on the empty board, Black)"},
		{name: "atlas", proofs: true, summary: "the opening atlas: prove each class of White's second move near the centre for Black, nearest first (resumable)", writes: true, cmd: &BookAtlasCommand{}},
		{name: "next", proofs: true, summary: "the most-proving open position for an attacker", position: true, cmd: &BookNextCommand{}},
		{name: "open", proofs: true, summary: "open positions by proof number, or proved positions", cmd: &BookOpenCommand{}},
		{name: "search", proofs: true, summary: "full-text search in comments", cmd: &BookSearchCommand{}},
		{name: "check", summary: "integrity check and re-validation of every stored proof", cmd: &BookCheckCommand{}},
		{name: "backup", summary: "write a consistent copy of the book", cmd: &BookBackupCommand{}},
		{name: "merge", summary: "add another book (--from): moves, notes, games, verdicts (every certificate re-checked)", writes: true, cmd: &BookMergeCommand{}},
		{name: "split", summary: "save a position's subtree with its proofs as a new book (--to)", position: true, cmd: &BookSplitCommand{}},
		{name: "export-proof", proofs: true, summary: "write a position's proof as an SGF tree (--sgf)", position: true, cmd: &BookExportProofCommand{},
			attacker: "attacker B or W (default: the side the position is proved for)"},
	}
}

func bookUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: c6 book <subcommand> --book FILE [flags]")
	for _, c := range bookCommands() {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "run 'c6 book <subcommand> -h' for a subcommand's flags")
	fmt.Fprintln(w, undecidedMeaning)
}

// BookCommand is c6 book: it runs the book subcommand args[0]. Ctrl-C
// cancels the running one (an import keeps its committed batches).
type BookCommand struct{ stdio }

func (c *BookCommand) Run(ctx context.Context, args []string) error {
	var table []namedCommand
	for _, sub := range bookCommands() {
		table = append(table, namedCommand{sub.name, sub.summary, bookRunner{sub, c.stdio}})
	}
	err := dispatch(ctx, table, args, bookUsage, c.stderr)
	var unknown unknownError
	switch {
	case err == nil || errors.Is(err, errUsage):
		return err
	case errors.As(err, &unknown):
		bookUsage(c.stderr)
		return fmt.Errorf("unknown subcommand %q", unknown.name)
	}
	return fmt.Errorf("%s: %w", args[0], err)
}

// runArgs parses the subcommand's flags, checks them, opens the book, runs
// the subcommand and closes the book.
func (c bookSub) runArgs(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("c6 book "+c.name, flag.ContinueOnError)
	e := &bookEnv{ctx: ctx, set: map[string]bool{}, stdout: stdout, stderr: stderr}
	e.f.register(fs, c.position, c.attacker)
	c.cmd.flags(fs)
	if c.files {
		e.files, err = parseFlagsFiles(fs, args, stderr)
	} else {
		err = parseFlags(fs, args, stderr)
	}
	if err != nil {
		return err
	}
	fs.Visit(func(fl *flag.Flag) { e.set[fl.Name] = true })
	if err := c.cmd.validate(e); err != nil {
		return err
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
	return c.cmd.run(e)
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
func (f *bookFlags) line(r game.Rules) ([]game.Move, *board.Board, error) {
	return readTurns(r, f.turns, f.partial)
}

// locate replays --turns and finds the position (and the board and its
// symmetry). add stores the line when it is missing.
func (f *bookFlags) locate(ctx context.Context, bk *proofbook.Book, add bool) (proofbook.PosID, *board.Board, int, error) {
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
func (f *bookFlags) attackerFor(b *board.Board) (game.Color, error) {
	if f.attacker == "" {
		return b.ToMove().Opp(), nil
	}
	c, err := game.ParseColor(f.attacker)
	if err != nil {
		return game.Empty, fmt.Errorf("--attacker: %w", err)
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

// verifyLimits are the verifier flags verify, book verify and book prove share
// (each registers them with its own defaults and usage).
type verifyLimits struct {
	lambda   int
	maxNodes int64
	timeout  time.Duration
	workers  int
}

// settings are the flags' verifier settings.
func (l verifyLimits) settings() service.VerifySettings {
	return service.VerifySettings{Lambda: l.lambda, MaxNodes: l.maxNodes, Timeout: l.timeout, Workers: l.workers}
}

// Validate checks the verifier flags: a one-line error naming the flag.
func (l verifyLimits) Validate() error { return l.settings().Validate() }

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
