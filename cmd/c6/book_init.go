package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"c6book/engine/game"
	"c6book/proofbook"
)

// BookInitCommand is c6 book init: create a new book.
type BookInitCommand struct {
	rules string
	r     game.Rules // --rules, read by validate
}

func (c *BookInitCommand) flags(fs *flag.FlagSet) {
	c.rules = "19,19,6,2,1"
	fs.Var(rulesValue{&c.rules}, "rules", "rules m,n,k,p,q")
}

// validate checks the flags before the book is created.
func (c *BookInitCommand) validate(e *bookEnv) error {
	var err error
	if c.r, err = game.ParseRules(c.rules); err != nil {
		return fmt.Errorf("--rules: %w", err)
	}
	if e.f.book == "" {
		return errors.New("--book FILE is required")
	}
	return nil
}

func (c *BookInitCommand) run(e *bookEnv) error { return bookInit(e, c.r) }

func bookInit(e *bookEnv, r game.Rules) error {
	bk, err := proofbook.Create(e.ctx, e.f.book, r)
	if err != nil {
		return err
	}
	if err := bk.Close(); err != nil {
		return err
	}
	return e.print(bookInitJSON{Book: e.f.book, Rules: r.String()}, func(w io.Writer) {
		fmt.Fprintf(w, "created %s for Connect(%s)\n", e.f.book, r)
	})
}
