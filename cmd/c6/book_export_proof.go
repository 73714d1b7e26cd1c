package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"c6book/engine/game"
	"c6book/service"
)

// BookExportProofCommand is c6 book export-proof: a position's proof as
// an SGF tree any SGF reader can replay.
type BookExportProofCommand struct {
	sgf      string
	maxNodes int
}

func (c *BookExportProofCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.sgf, "sgf", "", "write to this file (default: standard output)")
	fs.IntVar(&c.maxNodes, "max-nodes", 100000, "at most this many moves below the position (0: no limit); a cut export says so")
}

// validate checks the flags before the book is opened.
func (c *BookExportProofCommand) validate(*bookEnv) error {
	if c.maxNodes < 0 {
		return fmt.Errorf("--max-nodes %d: want 0 (no limit) or more", c.maxNodes)
	}
	return nil
}

func (c *BookExportProofCommand) run(e *bookEnv) error {
	id, b, _, err := e.f.locate(e.ctx, e.bk, false)
	if err != nil {
		return err
	}
	attacker := game.Empty
	if e.f.attacker != "" {
		if attacker, err = game.ParseColor(e.f.attacker); err != nil {
			return fmt.Errorf("--attacker: %w", err)
		}
	}
	line, _, err := e.f.line(e.bk.Rules())
	if err != nil {
		return err
	}
	opts := service.ExportOptions{MaxNodes: c.maxNodes, Line: line}
	res := bookExportProofJSON{ID: int64(id)}
	var st service.ProofExportStats
	export := func(w io.Writer) error {
		st, err = service.Wrap(e.bk).ExportProof(e.ctx, b, attacker, w, opts)
		return err
	}
	switch {
	case c.sgf != "":
		if err := writeFileAtomic("--sgf", c.sgf, export); err != nil {
			return err
		}
		res.Out = &c.sgf
	case e.f.json:
		var buf strings.Builder
		if err := export(&buf); err != nil {
			return err
		}
		s := buf.String()
		res.SGF = &s
	default:
		if err := export(e.stdout); err != nil {
			return err
		}
	}
	if st.Truncated {
		fmt.Fprintf(e.stderr, "c6 book export-proof: cut at %d moves (--max-nodes): the SGF holds part of the proof (--max-nodes 0 exports all)\n", c.maxNodes)
	}
	res.Attacker, res.Nodes, res.Leaves, res.Truncated = st.Attacker.String(), st.Nodes, st.Leaves, st.Truncated
	if e.f.json || c.sgf != "" {
		return e.print(res, func(w io.Writer) {
			fmt.Fprintf(w, "proof for %s: %d moves, %d leaves written to %s\n", st.Attacker, st.Nodes, st.Leaves, c.sgf)
		})
	}
	return nil
}
