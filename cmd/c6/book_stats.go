package main

import (
	"flag"
	"fmt"
	"io"

	"c6book/proofbook"
)

// BookStatsCommand is c6 book stats: counts of positions, moves, games
// and statuses.
type BookStatsCommand struct{}

func (*BookStatsCommand) flags(*flag.FlagSet) {}

func (*BookStatsCommand) validate(*bookEnv) error { return nil }

func (*BookStatsCommand) run(e *bookEnv) error { return bookStats(e) }

func bookStats(e *bookEnv) error {
	s, err := e.bk.Stats(e.ctx)
	if err != nil {
		return err
	}
	checked, err := e.bk.ProofsChecked(e.ctx)
	if err != nil {
		return err
	}
	return e.print(bookStatsJSON{Rules: s.Rules.String(), Positions: s.Positions, Moves: s.Edges,
		Games: s.Games, Notes: s.Notes, Verdicts: s.Verdicts, Schema: s.Schema, Bytes: s.FileBytes,
		Proved:        byColor{s.Proved[0], s.Proved[1]},
		ProvedByOrder: byColorOrder{s.ProvedByOrder[0], s.ProvedByOrder[1]},
		Open:          byColor{s.Open[0], s.Open[1]},
		Disproved:     byColor{s.Disproved[0], s.Disproved[1]},
		Unchecked:     byColor{s.Unchecked[0], s.Unchecked[1]}, ProofsChecked: checked},
		func(w io.Writer) {
			fmt.Fprintf(w, "rules      Connect(%s)\nschema     %d\npositions  %d\nmoves      %d\ngames      %d\nnotes      %d\nverdicts   %d\n",
				s.Rules, s.Schema, s.Positions, s.Edges, s.Games, s.Notes, s.Verdicts)
			fmt.Fprintf(w, "proved     B %d, W %d\n", s.Proved[0], s.Proved[1])
			for i, c := range []string{"B", "W"} {
				o := s.ProvedByOrder[i]
				fmt.Fprintf(w, "  %s        order 0 (won at once) %d, order 1 %d, order 2 %d, order 3 %d (open --proved lists %d)\n", c, o[0], o[1], o[2], o[3], o[1]+o[2]+o[3])
			}
			fmt.Fprintf(w, "open       B %d, W %d\ndisproved  B %d, W %d\nsize       %.1f MB\n",
				s.Open[0], s.Open[1], s.Disproved[0], s.Disproved[1], float64(s.FileBytes)/1e6)
			if !checked {
				fmt.Fprintf(w, "unchecked  B %d, W %d (%s)\n", s.Unchecked[0], s.Unchecked[1], proofbook.UncheckedNote)
			}
		})
}
