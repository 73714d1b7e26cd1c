package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"c6book/proofbook"
	"c6book/service"
)

// BookImportGamesCommand is c6 book import-games: merge a LittleGolem
// games file.
type BookImportGamesCommand struct{ o importGamesOpts }

func (c *BookImportGamesCommand) flags(fs *flag.FlagSet) {
	o := &c.o
	fs.StringVar(&o.games, "games", defaultGames, "the games file")
	fs.IntVar(&o.batch, "batch", 500, "games per transaction")
	fs.StringVar(&o.source, "source", "littlegolem", "the games' origin (games are stored once per source and id)")
	fs.BoolVar(&o.verbose, "v", false, "list every skipped game (id and reason), and the longest write transaction")
}

// validate checks the flags before the book is opened.
func (c *BookImportGamesCommand) validate(*bookEnv) error {
	o := &c.o
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
}

func (c *BookImportGamesCommand) run(e *bookEnv) error { return bookImportGames(e, c.o) }

type importGamesOpts struct {
	games, source string
	batch         int
	verbose       bool
}

func bookImportGames(e *bookEnv, o importGamesOpts) error {
	stderr := e.stderr
	in, err := os.Open(o.games)
	if err != nil {
		return fmt.Errorf("--games: %w", err)
	}
	defer in.Close()
	start := time.Now()
	opts := service.ImportGamesOptions{Source: o.source, Batch: o.batch}
	tty := isTerminalWriter(stderr)
	if tty {
		// What the committed transactions hold, a few times a second.
		opts.ProgressEvery = 200 * time.Millisecond
		opts.Progress = func(p proofbook.ImportProgress) {
			fmt.Fprintf(stderr, "\r\033[Kimporting: %d/%d games committed (%d new)", p.Done, p.Total, p.Stored)
		}
	}
	res, err := service.Wrap(e.bk).ImportGames(e.ctx, in, opts)
	st := res.ImportStats
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if res.Cancelled {
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
	byReason := map[proofbook.SkipReason]int{}
	for _, e := range st.Skipped {
		byReason[e.Reason()]++
	}
	reasons := make([]proofbook.SkipReason, 0, len(byReason))
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
	sk := []skipJSON{}
	for _, e := range list {
		sk = append(sk, skipJSON{oneLine(e.ID, 40), e.Reason(), oneLine(e.Err.Error(), 160)})
	}
	return e.print(bookImportGamesJSON{Games: st.Games, Already: st.Already, Skipped: len(st.Skipped),
		SkippedByReason: byReason, SkippedGames: sk, Repaired: st.Repaired, Positions: st.Positions, Moves: st.Edges,
		Transactions: st.Transactions, LongestTxMS: st.LongestTx.Milliseconds(), MS: elapsed.Milliseconds()},
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
