package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
)

// positionFlags are the flags that name a position: --turns or --sgf, and
// --rules.
type positionFlags struct {
	turns   string
	sgf     string
	rules   string
	partial bool
}

const partialUsage = "read turns with fewer stones than the rules place as null (\"-\") or seminull (one stone) moves: the sub-positions of a λ3 proof"

func (p *positionFlags) register(fs *flag.FlagSet) {
	registerTurns(fs, &p.turns, &p.partial, "the game so far in LittleGolem turn notation (\"j10 j11k10 ...\")")
	fs.StringVar(&p.sgf, "sgf", "", "read the game from this SGF file instead of --turns")
	fs.Var(rulesValue{&p.rules}, "rules", "rules m,n,k,p,q (default 19,19,6,2,1; an SGF's RU property wins)")
}

// registerTurns registers --turns and --partial, the position flags the
// position commands and the book subcommands share.
func registerTurns(fs *flag.FlagSet, turns *string, partial *bool, usage string) {
	fs.StringVar(turns, "turns", "", usage)
	fs.BoolVar(partial, "partial", false, partialUsage)
}

// readTurns reads --turns in rules r and replays them (as a proof line with
// --partial); its errors name --turns.
func readTurns(r game.Rules, turns string, partial bool) ([]game.Move, *board.Board, error) {
	ms, err := game.ParseTurns(r, turns)
	if err != nil {
		return nil, nil, fmt.Errorf("--turns: %w", err)
	}
	b, err := replay(r, ms, partial)
	if err != nil {
		return nil, nil, fmt.Errorf("--turns: %w", err)
	}
	return ms, b, nil
}

// replay plays turns strictly, or as a proof line with --partial.
func replay(r game.Rules, turns []game.Move, partial bool) (*board.Board, error) {
	if partial {
		return board.ReplayPartial(r, turns)
	}
	b, err := board.Replay(r, turns)
	if errors.Is(err, board.ErrStoneCount) {
		err = fmt.Errorf("%w (--partial reads it as a null or seminull move)", err)
	}
	return b, err
}

// ruleSet is the rules named by --rules (Connect6 without it).
func (p *positionFlags) ruleSet() (game.Rules, error) {
	if p.rules == "" {
		return game.Connect6(), nil
	}
	return game.ParseRules(p.rules)
}

// load replays the position named by the flags.
func (p *positionFlags) load() (*board.Board, error) {
	r, err := p.ruleSet()
	if err != nil {
		return nil, err
	}
	switch {
	case p.turns != "" && p.sgf != "":
		return nil, errors.New("give --turns or --sgf, not both")
	case p.sgf != "":
		f, err := os.Open(p.sgf)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		roots, err := sgf.ReadSGF(f, sgf.SGFLimits{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.sgf, err)
		}
		if len(roots) == 0 {
			return nil, fmt.Errorf("%s: no game in the file", p.sgf)
		}
		read := sgf.GameFromSGF
		if p.partial {
			read = sgf.LineFromSGF
		}
		rr, turns, err := read(roots[0], r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.sgf, err)
		}
		b, err := replay(rr, turns, p.partial)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.sgf, err)
		}
		return b, nil
	}
	_, b, err := readTurns(r, p.turns, p.partial)
	return b, err
}

// rulesValue is a --rules flag, checked when it is set: an empty --rules is an
// error, not the default.
type rulesValue struct{ s *string }

func (v rulesValue) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}

func (v rulesValue) Set(s string) error {
	if _, err := game.ParseRules(s); err != nil {
		return err
	}
	*v.s = s
	return nil
}

// colorValue is a colour flag (B or W), checked when it is set.
type colorValue struct{ s *string }

func (v colorValue) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}

func (v colorValue) Set(s string) error {
	if _, err := game.ParseColor(s); err != nil {
		return err
	}
	*v.s = s
	return nil
}

// parseFlags parses a command's flags; -h prints usage and returns
// errUsage. A bad flag is a one-line error naming it (the usage is one -h
// away), like every other bad input.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	files, err := parseFlagsFiles(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(files) > 0 {
		return fmt.Errorf("unexpected argument %q", files[0])
	}
	return nil
}

// options are a command's flags: register adds them to a flag set,
// Validate checks their values (a one-line error naming the flag).
type options interface {
	register(fs *flag.FlagSet)
	Validate() error
}

// parseOptions parses args into o with a flag set named name and checks
// them: the start of every command but book's.
func parseOptions(name string, o options, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	o.register(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	return o.Validate()
}

// parseFlagsFiles is parseFlags for a command that takes arguments (files)
// too: flags may come before, between and after them ("--" ends the flags).
func parseFlagsFiles(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stderr)
				fs.Usage()
				return nil, errUsage
			}
			return nil, fmt.Errorf("%v (run with -h for the flags)", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return files, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(files, rest...), nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// squareNames writes squares in notation.
func squareNames(r game.Rules, sq []game.Square) []string {
	out := make([]string, len(sq))
	for i, s := range sq {
		out[i] = game.SquareName(r, s)
	}
	return out
}

// moveNames writes moves in notation.
func moveNames(r game.Rules, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = game.MoveName(r, m)
	}
	return out
}
