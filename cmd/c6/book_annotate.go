package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"c6book/service"
)

// BookAnnotateCommand is c6 book annotate: a position's comment, label,
// expert disproof or hold.
type BookAnnotateCommand struct{ o annotateOpts }

func (c *BookAnnotateCommand) flags(fs *flag.FlagSet) {
	o := &c.o
	fs.StringVar(&o.comment, "comment", "", "set the comment")
	fs.StringVar(&o.label, "label", "", "set the user label (e.g. joseki, trap)")
	fs.BoolVar(&o.disprove, "disprove", false, "mark disproved for --attacker (expert's judgement)")
	fs.BoolVar(&o.undisprove, "undisprove", false, "clear the expert's disproof for --attacker")
	fs.BoolVar(&o.hold, "hold", false, "leave to me: the auto-pilot (prove) skips the position for --attacker, and all below it")
	fs.BoolVar(&o.unhold, "unhold", false, "give the position back to the auto-pilot for --attacker")
}

// validate checks the flags before the book is opened.
func (c *BookAnnotateCommand) validate(e *bookEnv) error {
	o := &c.o
	switch {
	case o.disprove && o.undisprove:
		return errors.New("give --disprove or --undisprove, not both")
	case o.hold && o.unhold:
		return errors.New("give --hold or --unhold, not both")
	case !e.set["comment"] && !e.set["label"] && !o.disprove && !o.undisprove && !o.hold && !o.unhold:
		return errors.New("nothing to do: give --comment, --label, --disprove, --undisprove, --hold or --unhold")
	case e.set["attacker"] && !o.disprove && !o.undisprove && !o.hold && !o.unhold:
		return errors.New("--attacker goes with --disprove, --undisprove, --hold or --unhold")
	}
	return nil
}

func (c *BookAnnotateCommand) run(e *bookEnv) error { return bookAnnotate(e, c.o) }

type annotateOpts struct {
	comment, label       string
	disprove, undisprove bool
	hold, unhold         bool
}

func bookAnnotate(e *bookEnv, o annotateOpts) error {
	ctx, bk := e.ctx, e.bk
	id, b, _, err := e.f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	var a service.Annotation
	if e.set["comment"] {
		a.Comment = &o.comment
	}
	if e.set["label"] {
		a.Label = &o.label
	}
	if o.disprove || o.undisprove || o.hold || o.unhold {
		if a.Attacker, err = e.f.attackerFor(b); err != nil {
			return err
		}
	}
	if o.disprove || o.undisprove {
		a.Disproved = &o.disprove
	}
	if o.hold || o.unhold {
		a.Held = &o.hold
	}
	if err := service.Wrap(bk).Annotate(ctx, b, a); err != nil {
		return err
	}
	return e.print(bookAnnotateJSON{ID: int64(id), Updated: true}, func(w io.Writer) {
		fmt.Fprintf(w, "position %d updated\n", id)
	})
}
