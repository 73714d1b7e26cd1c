package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"c6book/service"
)

// BookMergeCommand is c6 book merge: another book's moves, notes, games
// and verdicts added to this one, every certificate re-checked on the way
// in.
type BookMergeCommand struct{ from string }

func (c *BookMergeCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.from, "from", "", "the book to merge into --book (read, never written)")
}

// validate checks the flags before the book is opened.
func (c *BookMergeCommand) validate(*bookEnv) error {
	if strings.TrimSpace(c.from) == "" {
		return errors.New("--from FILE is required")
	}
	return nil
}

func (c *BookMergeCommand) run(e *bookEnv) error {
	start := time.Now()
	res, err := service.Wrap(e.bk).Merge(e.ctx, c.from, mergeProgress(e.stderr, "merging"))
	sum := res.Summary
	if err != nil {
		return mergeError(err, sum)
	}
	return printMerge(e, bookMergeJSON{From: c.from, MS: time.Since(start).Milliseconds(), Summary: mergeSummaryJSON(sum)}, sum)
}

// mergeProgress shows a merge's or split's progress on a terminal (nil
// otherwise: a pipe gets the summary only).
func mergeProgress(stderr io.Writer, what string) func(service.MergeProgress) {
	if !isTerminalWriter(stderr) {
		return nil
	}
	return func(p service.MergeProgress) {
		if p.Final {
			fmt.Fprint(stderr, "\r\033[K")
			return
		}
		fmt.Fprintf(stderr, "\r\033[K%s: %s %d/%d", what, p.Phase, p.Done, p.Total)
	}
}

// mergeError says what a stopped merge or split kept.
func mergeError(err error, sum service.MergeSummary) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("cancelled: %d positions, %d games and %d verdicts committed before it are kept (merging again adds the rest)",
			sum.Positions, sum.Games, sum.Verdicts)
	}
	return err
}

// printMerge prints a merge's or split's summary (JSON: v).
func printMerge(e *bookEnv, v any, sum service.MergeSummary) error {
	return e.print(v, func(w io.Writer) {
		for _, l := range sum.Describe(0) {
			fmt.Fprintln(w, l)
		}
	})
}
