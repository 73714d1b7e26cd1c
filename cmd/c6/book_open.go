package main

import (
	"c6book"
	"errors"
	"flag"
	"fmt"
	"io"

	"c6book/engine/game"
	"c6book/proofbook"
)

// BookOpenCommand is c6 book open: open positions by proof number, or
// proved positions.
type BookOpenCommand struct {
	att string // --attacker, read by validate into o.attacker
	o   listOpts
}

func (c *BookOpenCommand) flags(fs *flag.FlagSet) {
	c.att = "B"
	fs.Var(colorValue{&c.att}, "attacker", "attacker B or W")
	fs.BoolVar(&c.o.proved, "proved", false, "list proved positions instead")
	fs.IntVar(&c.o.minOrder, "min-order", 1, "with --proved: the least λ order listed (0 adds the game ends)")
	fs.IntVar(&c.o.limit, "limit", 20, "at most this many")
}

// validate checks the flags before the book is opened.
func (c *BookOpenCommand) validate(e *bookEnv) error {
	a, err := game.ParseColor(c.att)
	if err != nil {
		return fmt.Errorf("--attacker: %w", err)
	}
	c.o.attacker = a
	if err := positive("limit", c.o.limit); err != nil {
		return err
	}
	switch {
	case c.o.minOrder < 0:
		return fmt.Errorf("--min-order %d: want 0 or more", c.o.minOrder)
	case e.set["min-order"] && !c.o.proved:
		return errors.New("--min-order goes with --proved")
	}
	return nil
}

func (c *BookOpenCommand) run(e *bookEnv) error { return bookList(e, c.o) }

type listOpts struct {
	attacker game.Color
	proved   bool
	minOrder int
	limit    int
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
	// Each with its line from the root in the position's stable
	// orientation (its first game's, else its first stored path's).
	out := []entryJSON{}
	for _, en := range list {
		out = append(out, entryJSON{int64(en.ID), en.Proof.Status, en.Proof.Order, en.Proof.PN, en.Proof.DN, en.Label,
			game.FormatTurns(e.bk.Rules(), en.Turns)})
	}
	checked, err := e.bk.ProofsChecked(e.ctx)
	if err != nil {
		return err
	}
	res := bookOpenJSON{Attacker: o.attacker.String(), Proved: o.proved, Positions: out, ProofsChecked: checked}
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
		res.Other = &otherJSON{Attacker: other.String(), Count: n}
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
