package main

import (
	"errors"
	"flag"
	"time"

	"c6book/service"
)

// BookSplitCommand is c6 book split: a position's subtree, with its
// proofs, saved as a new book.
type BookSplitCommand struct{ to string }

func (c *BookSplitCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.to, "to", "", "the new book's file (must not exist)")
}

// validate checks the flags before the book is opened.
func (c *BookSplitCommand) validate(*bookEnv) error {
	if c.to == "" {
		return errors.New("--to FILE is required")
	}
	return nil
}

func (c *BookSplitCommand) run(e *bookEnv) error {
	_, b, _, err := e.f.locate(e.ctx, e.bk, false)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := service.Wrap(e.bk).Split(e.ctx, b, c.to, mergeProgress(e.stderr, "splitting"))
	sum := res.Summary
	if err != nil {
		return err // the new file is removed
	}
	return printMerge(e, bookSplitJSON{To: c.to, MS: time.Since(start).Milliseconds(), Summary: mergeSummaryJSON(sum)}, sum)
}
