package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/game"
	"c6book/proofbook"
)

// BookNextCommand is c6 book next: the most-proving open position for an
// attacker.
type BookNextCommand struct{}

func (*BookNextCommand) flags(*flag.FlagSet) {}

func (*BookNextCommand) validate(*bookEnv) error { return nil }

func (*BookNextCommand) run(e *bookEnv) error { return bookNext(e) }

func bookNext(e *bookEnv) error {
	ctx, bk := e.ctx, e.bk
	id, b, sym, err := e.f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	a, err := e.f.attackerFor(b)
	if err != nil {
		return err
	}
	line, err := bk.Next(ctx, id, a)
	if err != nil {
		return err
	}
	r := bk.Rules()
	// The line is in the canonical frame of the start: map it back.
	ms := make([]game.Move, len(line.Turns))
	for i, m := range line.Turns {
		ms[i] = proofbook.FromCanonical(r, sym, m)
	}
	full := strings.TrimSpace(e.f.turns + " " + game.FormatTurns(r, ms))
	last := line.IDs[len(line.IDs)-1]
	p, err := bk.Position(ctx, last)
	if err != nil {
		return err
	}
	// Where the auto-pilot (prove) got stuck on this line: a position left
	// to the expert, or a dead end of the verifier.
	var stuck []stuckJSON
	for _, pid := range line.IDs {
		why, err := autopilot.Stuck(ctx, bk, pid, a)
		if err != nil {
			return err
		}
		if why != c6book.NotStuck {
			stuck = append(stuck, stuckJSON{ID: int64(pid), Why: why})
		}
	}
	return e.print(bookNextJSON{ID: int64(last), Turns: full, ToMove: p.ToMove.String(),
		Status: p.Proof(a).Status, PN: p.Proof(a).PN, DN: p.Proof(a).DN, AutoPilotStuck: stuck},
		func(w io.Writer) {
			what := "propose an attacker move"
			if p.ToMove != a {
				what = "run the verifier"
			}
			fmt.Fprintf(w, "position %d (%s to move, %s): %s\n  --turns %q\n", last, p.ToMove, proofText(p.Proof(a)), what, full)
			for _, s := range stuck {
				fmt.Fprintf(w, "  position %d on this line: %s\n", s.ID, s.Why.Describe())
			}
		})
}
