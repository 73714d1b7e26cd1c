// Package openingset reads the opening set of `make bench-verify`
// (tools/benchverify/openings.tsv, written by tools/openingset): the
// most-played three-turn openings of the LittleGolem games, each with its
// most-played attacker replies. tools/benchverify verifies the replies;
// tools/match plays from the openings.
package openingset

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Path is the set's place, from the project root.
const Path = "tools/benchverify/openings.tsv"

// Row is a line of the set: an opening's rank (1: the most played), how
// many games played it and its reply, and the four turns (the opening's
// three and the attacker's reply), as text.
type Row struct {
	Rank, OpeningGames, ReplyGames int
	Turns                          string
}

// Opening is the opening of a Row: its first three turns.
func (r Row) Opening() string {
	f := strings.Fields(r.Turns)
	return strings.Join(f[:min(3, len(f))], " ")
}

// Load reads the set at path.
func Load(path string) ([]Row, error) {
	var out []Row
	err := EachRow(path, 4, func(cols []string) error {
		var row Row
		var err error
		for i, p := range []*int{&row.Rank, &row.OpeningGames, &row.ReplyGames} {
			if *p, err = strconv.Atoi(cols[i]); err != nil {
				return fmt.Errorf("column %d: %q is not a number", i+1, cols[i])
			}
		}
		row.Turns = cols[3]
		if len(strings.Fields(row.Turns)) < 3 {
			return fmt.Errorf("%q: want three turns and the reply", row.Turns)
		}
		out = append(out, row)
		return nil
	})
	return out, err
}

// Opening is one of the set's openings and the games that played it.
type Opening struct {
	Turns string // three turns
	Games int
}

// Openings lists the set's openings, most played first (the set's order),
// each once: at most n (0: all).
func Openings(rows []Row, n int) []Opening {
	var out []Opening
	seen := map[string]bool{}
	for _, r := range rows {
		o := r.Opening()
		if seen[o] {
			continue
		}
		if n > 0 && len(out) == n {
			break
		}
		seen[o] = true
		out = append(out, Opening{Turns: o, Games: r.OpeningGames})
	}
	return out
}

// EachRow calls f with the columns of each row of the tab-separated file
// at path (blank lines and # comments skipped), which must have ncols
// columns; an error names the file and line.
func EachRow(path string, ncols int, f func(cols []string) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != ncols {
			return fmt.Errorf("%s:%d: want %d tab-separated columns", path, line, ncols)
		}
		if err := f(cols); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	return sc.Err()
}
