package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"c6book/proofbook"
	"c6book/service"
)

// BookCheckCommand is c6 book check: the integrity check and re-validation
// of every stored proof.
type BookCheckCommand struct{}

func (*BookCheckCommand) flags(*flag.FlagSet) {}

func (*BookCheckCommand) validate(*bookEnv) error { return nil }

func (*BookCheckCommand) run(e *bookEnv) error { return bookCheck(e) }

func bookCheck(e *bookEnv) error {
	stderr := e.stderr
	start := time.Now()
	var progress func(proofbook.CheckProgress)
	if isTerminalWriter(stderr) {
		last := time.Now()
		progress = func(p proofbook.CheckProgress) {
			if time.Since(last) > 200*time.Millisecond {
				last = time.Now()
				fmt.Fprintf(stderr, "\rchecking proofs: %d/%d   ", p.Checked, p.Total)
			}
		}
	}
	rep, err := service.Wrap(e.bk).Check(e.ctx, progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if err := e.print(bookCheckJSON{OK: rep.OK(), Positions: rep.Positions, Moves: rep.Edges,
		Statuses: rep.Statuses, Proved: rep.Proved, ProofsRechecked: rep.Proofs, Seconds: secs,
		OutsideChange: rep.Outside, DigestRecorded: rep.Recorded,
		Problems: append([]string{}, rep.Problems...)},
		func(w io.Writer) {
			fmt.Fprintf(w, "%d positions, %d moves, %d statuses re-derived (%d proved)\n", rep.Positions, rep.Edges, rep.Statuses, rep.Proved)
			fmt.Fprintf(w, "%d proofs re-checked from their certificates by proofcheck; %.1f s, %.0f positions/s\n",
				rep.Proofs, secs, float64(rep.Positions)/max(secs, 1e-3))
			for _, p := range rep.Problems {
				fmt.Fprintln(w, "problem:", p)
			}
			if rep.Outside && rep.Recorded {
				fmt.Fprintln(w, "the proofs had been changed outside the program: every one re-checked, the book trusts them again")
			} else if rep.Outside && rep.OK() {
				fmt.Fprintln(w, "the proofs had been changed outside the program; they check, but the book is read-only: they stay unchecked")
			} else if rep.Outside {
				fmt.Fprintln(w, "the proofs had been changed outside the program and do not all check: they stay unchecked")
			}
			if rep.OK() {
				fmt.Fprintln(w, "ok")
			}
		}); err != nil {
		return err
	}
	if !rep.OK() {
		return fmt.Errorf("%d problems", len(rep.Problems))
	}
	return nil
}
