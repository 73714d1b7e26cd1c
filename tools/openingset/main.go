// Command openingset writes the opening set of `make bench-verify`: the
// --openings most-played three-turn openings of the LittleGolem games file,
// each with its --replies most-played fourth turns (the attacker's move:
// the player to move after three turns), one line per four-turn position.
// Moves are normalised (each turn's stones sorted) and counted by their
// spelling, not up to symmetry; ties go to the smaller spelling, so the
// same games file gives the same file byte for byte:
//
//	go run ./tools/openingset -games ../shared/data/littlegolem-connect6-games.json.gz -o tools/benchverify/openings.tsv
package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"c6book/engine/board"
	"c6book/engine/game"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "openingset:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("openingset", flag.ContinueOnError)
	games := fs.String("games", "../shared/data/littlegolem-connect6-games.json.gz", "games file {gid: [turns]}")
	out := fs.String("o", "", "output file (default: standard output)")
	nOpen := fs.Int("openings", 40, "three-turn openings")
	nReply := fs.Int("replies", 3, "attacker replies per opening")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*games)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *games, err)
	}
	var all map[string][]string
	if err := json.NewDecoder(zr).Decode(&all); err != nil {
		return fmt.Errorf("%s: %w", *games, err)
	}
	r := game.Connect6()
	openings := map[string]int{}
	replies := map[string]map[string]int{}
	for _, turns := range all {
		if len(turns) < 3 {
			continue
		}
		ms, err := game.ParseTurns(r, strings.Join(turns[:min(4, len(turns))], " "))
		if err != nil {
			continue // a game this program cannot read is left out
		}
		if _, err := board.Replay(r, ms); err != nil {
			continue
		}
		key := game.FormatTurns(r, ms[:3])
		openings[key]++
		if len(ms) >= 4 {
			if replies[key] == nil {
				replies[key] = map[string]int{}
			}
			replies[key][game.MoveName(r, ms[3])]++
		}
	}
	top := ranked(openings, *nOpen)
	w := stdout
	if *out != "" {
		of, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer of.Close()
		w = of
	}
	fmt.Fprintf(w, "# The opening set of make bench-verify (tools/openingset): the %d most-played three-turn openings of\n", *nOpen)
	fmt.Fprintf(w, "# the LittleGolem games, each with its %d most-played attacker replies (the fourth turn); the verifier\n", *nReply)
	fmt.Fprintln(w, "# runs on the position after the reply (defender to move). Regenerate: make openings.")
	fmt.Fprintln(w, "# rank\topening_games\treply_games\tturns")
	for i, o := range top {
		for _, rp := range ranked(replies[o.key], *nReply) {
			if _, err := fmt.Fprintf(w, "%d\t%d\t%d\t%s %s\n", i+1, o.n, rp.n, o.key, rp.key); err != nil {
				return err
			}
		}
	}
	if of, ok := w.(*os.File); ok && of != os.Stdout {
		return of.Sync()
	}
	return nil
}

type counted struct {
	key string
	n   int
}

// ranked returns the n most counted keys, most first, ties by key.
func ranked(m map[string]int, n int) []counted {
	var out []counted
	for k, c := range m {
		out = append(out, counted{k, c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].key < out[j].key
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
