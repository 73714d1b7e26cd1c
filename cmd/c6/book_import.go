package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"c6book/proofbook"
	"c6book/service"
)

// BookImportCommand is c6 book import: merge SGF files into the book.
type BookImportCommand struct{ partial bool }

func (c *BookImportCommand) flags(fs *flag.FlagSet) {
	fs.BoolVar(&c.partial, "partial", false, "read a turn with fewer stones than the rules place (B[] or W[]: null; one stone: seminull) as a proof line's null or seminull move (else it refuses the file); a game record with one counts no game")
}

// validate refuses the command without files.
func (*BookImportCommand) validate(e *bookEnv) error {
	if len(e.files) == 0 {
		return errors.New("give the SGF files to import")
	}
	return nil
}

func (c *BookImportCommand) run(e *bookEnv) error { return bookImport(e, c.partial) }

func bookImport(e *bookEnv, partial bool) error {
	var done []importFileJSON
	for _, path := range e.files {
		st, err := importSGFFile(e, path, partial)
		if err != nil {
			return fmt.Errorf("%s: %w (nothing imported from it)", path, err)
		}
		done = append(done, importFileJSON{path, st.Games, st.Positions, st.Edges, st.Recorded})
		if !e.f.json {
			fmt.Fprintf(e.stdout, "%s: %d games, %d new positions, %d new moves, %d new game records in the statistics\n",
				path, st.Games, st.Positions, st.Edges, st.Recorded)
		}
	}
	return e.print(bookImportJSON{Files: done}, nil)
}

// importSGFFile imports one SGF file as it is read (the reader's limits
// refuse an input too large, a device like /dev/zero included).
func importSGFFile(e *bookEnv, path string, partial bool) (proofbook.ImportStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return proofbook.ImportStats{}, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return proofbook.ImportStats{}, errors.New("a directory, not an SGF file")
	}
	return service.Wrap(e.bk).ImportSGF(e.ctx, f, partial)
}
