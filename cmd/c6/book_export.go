package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"c6book/engine/board"
	"c6book/service"
)

// BookExportCommand is c6 book export: the line to a position and its
// subtree as SGF.
type BookExportCommand struct {
	out             string
	depth, maxNodes int
	proofLines      bool
}

func (c *BookExportCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "", "write to this file (default: standard output)")
	fs.IntVar(&c.depth, "depth", 0, "turns below the position (0: all)")
	fs.IntVar(&c.maxNodes, "max-nodes", 100000, "at most this many moves below the position (0: no limit); a cut export says so")
	fs.BoolVar(&c.proofLines, "proof-lines", false, "also write the moves of proof lines (null moves as B[] or W[], seminull moves as a lone stone), for import --partial; else export-proof writes them")
}

// validate checks the flags before the book is opened.
func (c *BookExportCommand) validate(*bookEnv) error {
	if c.depth < 0 {
		return fmt.Errorf("--depth %d: want 0 (all) or more", c.depth)
	}
	if c.maxNodes < 0 {
		return fmt.Errorf("--max-nodes %d: want 0 (no limit) or more", c.maxNodes)
	}
	return nil
}

func (c *BookExportCommand) run(e *bookEnv) error {
	return bookExport(e, c.out, c.depth, c.maxNodes, c.proofLines)
}

func bookExport(e *bookEnv, out string, depth, maxNodes int, proofLines bool) error {
	id, b, _, err := e.f.locate(e.ctx, e.bk, false)
	if err != nil {
		return err
	}
	// In the orientation of --turns, not the book's stored frame.
	line, _, err := e.f.line(e.bk.Rules())
	if err != nil {
		return err
	}
	opts := service.ExportOptions{MaxDepth: depth, MaxNodes: maxNodes, Line: line, ProofLines: proofLines}
	bk := service.Wrap(e.bk)
	res := bookExportJSON{ID: int64(id)}
	var st service.ExportStats
	switch {
	case out != "":
		// Written as it is exported, to a file beside --out renamed at the
		// end: a failed export leaves no file behind.
		if st, err = exportToFile(e, b, out, opts); err != nil {
			return err
		}
		res.Out = &out
	case e.f.json:
		// The JSON object holds the SGF: made whole first.
		var buf strings.Builder
		if st, err = bk.ExportSGF(e.ctx, b, &buf, opts); err != nil {
			return err
		}
		sgf := buf.String()
		res.SGF = &sgf
	default:
		if st, err = bk.ExportSGF(e.ctx, b, e.stdout, opts); err != nil {
			return err
		}
	}
	if st.Truncated {
		fmt.Fprintf(e.stderr, "c6 book export: truncated at %d moves (--max-nodes); the book stores more below this position (--max-nodes 0 exports all)\n", maxNodes)
	}
	res.Nodes, res.Truncated = st.Nodes, st.Truncated
	if e.f.json || out != "" {
		return e.print(res, nil) // with --out, the text output is empty
	}
	return nil
}

// exportToFile writes the export to a temporary file in out's folder and
// renames it to out once it is complete.
func exportToFile(e *bookEnv, b *board.Board, out string, opts service.ExportOptions) (st service.ExportStats, err error) {
	err = writeFileAtomic("--out", out, func(w io.Writer) error {
		st, err = service.Wrap(e.bk).ExportSGF(e.ctx, b, w, opts)
		return err
	})
	return st, err
}

// writeFileAtomic writes a file with write to a temporary file in out's
// folder and renames it to out once it is complete: a failed write leaves
// no file behind (errors name the flag, e.g. --out).
func writeFileAtomic(flag, out string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", flag, cerr)
	}
	if err == nil {
		if err = os.Chmod(f.Name(), 0o644); err == nil {
			err = os.Rename(f.Name(), out)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", flag, err)
		}
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
