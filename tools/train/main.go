// Command train learns the policy model's line-pattern weights from the
// LittleGolem games and writes them as engine/player/patterns_gen.go:
//
//	nice go run ./tools/train [--games FILE] [--out FILE] [--seed 1] [--epochs 3]
//
// Run it from the project root. The games are split by a hash of their id
// (one in --holdout held out), the model (a linear softmax over the squares
// near the stones, features the line patterns through each square for both
// players) is trained by SGD on the winners' moves in a fixed order drawn
// from --seed, and the held-out agreement with the winners' moves is
// printed for single stones and whole two-stone moves, beside that of the
// old one-ply pattern ranking. The same flags write the same file, byte for
// byte.
//
// With --book it writes engine/player/gamebook_gen.go instead: the games' opening
// moves (player.GameMoves), counted up to symmetry from every decided game
// (--book-turns 10, --book-games 20, --book-move-games 5), also byte for
// byte:
//
//	go run ./tools/train --book
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	games := fs.String("games", "../shared/data/littlegolem-connect6-games.json.gz", "LittleGolem games {gid: [turns]} (.json or .json.gz)")
	out := fs.String("out", "engine/player/patterns_gen.go", "the generated Go file (- for stdout)")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed of the training order")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training games")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "SGD step of the first epoch (halved each epoch)")
	fs.IntVar(&cfg.HoldOut, "holdout", cfg.HoldOut, "one game in N is held out (by its id)")
	evalTurns := fs.Int("eval-turns", 0, "held-out turns measured (0: all)")
	baseline := fs.Bool("baseline", true, "measure the old pattern ranking on the same turns")
	book := fs.Bool("book", false, "instead: write the games' opening moves (engine/player/gamebook_gen.go, or --out) from every decided game")
	bcfg := defaultBookConfig()
	fs.IntVar(&bcfg.Turns, "book-turns", bcfg.Turns, "--book: positions within this many turns after Black's first")
	fs.IntVar(&bcfg.Games, "book-games", bcfg.Games, "--book: positions reached by at least this many decided games")
	fs.IntVar(&bcfg.MoveGames, "book-move-games", bcfg.MoveGames, "--book: moves played in at least this many of them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.Epochs < 1 || cfg.HoldOut < 2 || cfg.Rate <= 0 {
		return fmt.Errorf("need --epochs >= 1, --holdout >= 2, --rate > 0")
	}
	if *book {
		if bcfg.Turns < 1 || bcfg.Games < 1 || bcfg.MoveGames < 1 {
			return fmt.Errorf("need --book-turns, --book-games and --book-move-games >= 1")
		}
		if !isFlagSet(fs, "out") {
			*out = "engine/player/gamebook_gen.go"
		}
	}
	start := time.Now()
	all, skipped, err := readGames(*games)
	if err != nil {
		return err
	}
	if *book {
		src, positions, err := writeBook(all, bcfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%d decided games (%d others skipped): %d positions\n", len(all), skipped, positions)
		return writeOut(*out, src, stdout, stderr, start)
	}
	trainSet, testSet := split(all, cfg.HoldOut)
	fmt.Fprintf(stderr, "%d games won by a six (%d others skipped): %d to train, %d held out\n", len(all), skipped, len(trainSet), len(testSet))
	m := train(trainSet, cfg, func(f string, a ...any) {
		fmt.Fprintf(stderr, "%s (%.0fs)\n", fmt.Sprintf(f, a...), time.Since(start).Seconds())
	})
	w := m.quantize()
	rep := evaluate(testSet, w, *evalTurns, *baseline)
	fmt.Fprintf(stdout, "held out: %d games\n", rep.games)
	fmt.Fprintf(stdout, "learned  single stone: %s\n", rep.single)
	fmt.Fprintf(stdout, "learned  two-stone move: %s\n", rep.pair)
	if *baseline {
		fmt.Fprintf(stdout, "evalFor  single stone: %s\n", rep.baseSingle)
		fmt.Fprintf(stdout, "rankCandidates two-stone move: %s\n", rep.basePair)
	}
	return writeOut(*out, writeGo(w, cfg, len(trainSet), rep), stdout, stderr, start)
}

// isFlagSet reports whether the command line gave flag name.
func isFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writeOut writes the generated file to out (- : stdout).
func writeOut(out string, src []byte, stdout, stderr io.Writer, start time.Time) error {
	if out == "-" {
		_, err := stdout.Write(src)
		return err
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s (%.0fs)\n", out, time.Since(start).Seconds())
	return nil
}

// split divides the games into the training and the held-out set.
func split(games []game, holdout int) (trainSet, testSet []game) {
	for _, g := range games {
		if heldOut(g.id, holdout) {
			testSet = append(testSet, g)
		} else {
			trainSet = append(trainSet, g)
		}
	}
	return trainSet, testSet
}
