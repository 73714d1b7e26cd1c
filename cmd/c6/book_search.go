package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"c6book/engine/game"
)

// BookSearchCommand is c6 book search: full-text search in comments.
type BookSearchCommand struct {
	text  string
	limit int
}

func (c *BookSearchCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.text, "text", "", "words to find (prefixes match)")
	fs.IntVar(&c.limit, "limit", 20, "at most this many")
}

// validate checks the flags before the book is opened.
func (c *BookSearchCommand) validate(*bookEnv) error {
	if strings.TrimSpace(c.text) == "" {
		return errors.New("--text: give the words to find")
	}
	return positive("limit", c.limit)
}

func (c *BookSearchCommand) run(e *bookEnv) error { return bookSearch(e, c.text, c.limit) }

func bookSearch(e *bookEnv, text string, limit int) error {
	hits, err := e.bk.Search(e.ctx, text, limit)
	if err != nil {
		return err
	}
	out := []hitJSON{}
	for _, h := range hits {
		out = append(out, hitJSON{int64(h.ID), h.Comment, h.Label, h.Stones, proofText(h.Proofs[0]), proofText(h.Proofs[1]),
			game.FormatTurns(e.bk.Rules(), h.Turns)})
	}
	return e.print(bookSearchJSON{Text: text, Hits: out}, func(w io.Writer) {
		for _, h := range out {
			fmt.Fprintf(w, "%8d  %q  B: %s  W: %s  %s\n", h.ID, h.Comment, h.Black, h.White, h.Turns)
		}
	})
}
