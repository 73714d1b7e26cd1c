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
	return e.print(map[string]any{"rules": s.Rules.String(), "positions": s.Positions, "moves": s.Edges,
		"games": s.Games, "notes": s.Notes, "verdicts": s.Verdicts, "schema": s.Schema, "bytes": s.FileBytes,
		"proved":          map[string]int64{"B": s.Proved[0], "W": s.Proved[1]},
		"proved_by_order": map[string][4]int64{"B": s.ProvedByOrder[0], "W": s.ProvedByOrder[1]},
		"open":            map[string]int64{"B": s.Open[0], "W": s.Open[1]},
		"disproved":       map[string]int64{"B": s.Disproved[0], "W": s.Disproved[1]},
		"unchecked":       map[string]int64{"B": s.Unchecked[0], "W": s.Unchecked[1]}, "proofs_checked": checked},
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
