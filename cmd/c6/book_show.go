package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"c6book/engine/game"
	"c6book/proofbook"
)

// BookShowCommand is c6 book show: a position's status, notes and
// children.
type BookShowCommand struct {
	proof bool // --proof: the proof line off the stored certificate (book_show_proof.go)
}

func (c *BookShowCommand) flags(fs *flag.FlagSet) {
	fs.BoolVar(&c.proof, "proof", false, "show the proof of a proved position, step by step, read off its stored certificate (for --attacker; default the side that has just moved)")
}

func (*BookShowCommand) validate(*bookEnv) error { return nil }

func (c *BookShowCommand) run(e *bookEnv) error { return bookShow(e, c.proof) }

func bookShow(e *bookEnv, proof bool) error {
	ctx, bk := e.ctx, e.bk
	id, b, sym, err := e.f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	r := bk.Rules()
	p, err := bk.Position(ctx, id)
	if err != nil {
		return err
	}
	kids, err := bk.Children(ctx, id)
	if err != nil {
		return err
	}
	gs, err := bk.GameStatsOf(ctx, id)
	if err != nil {
		return err
	}
	// The replies as the book orders them (most played first, then by
	// status), named in the orientation of --turns.
	cj := []childJSON{}
	for _, k := range kids {
		cj = append(cj, childJSON{game.MoveName(r, proofbook.FromCanonical(r, sym, k.Move)), int64(k.ID), statsJSON(k.Games),
			proofText(k.Proofs[0]), proofText(k.Proofs[1]), k.Label})
	}
	checked, err := bk.ProofsChecked(ctx)
	if err != nil {
		return err
	}
	out := bookShowJSON{ID: int64(id), ToMove: b.ToMove().String(), Comment: p.Comment, Label: p.Label, ProofsChecked: checked,
		Black: proofText(p.Proofs[0]), White: proofText(p.Proofs[1]), Games: statsJSON(gs), Children: cj}
	twins, err := bk.Twins(ctx, id)
	if err != nil {
		return err
	}
	line, _, err := e.f.line(r)
	if err != nil {
		return err
	}
	for _, tw := range twins {
		tp, err := bk.Position(ctx, tw.ID)
		if err != nil {
			return err
		}
		x := proofbook.FromCanonical(r, sym, game.NewMove(tw.Stone)).At(0)
		// The twin's line: --turns without the stone (its turn one stone
		// short), in --turns' orientation.
		out.Twins = append(out.Twins, twinJSON{game.SquareName(r, x), int64(tw.ID),
			proofText(tp.Proofs[0]), proofText(tp.Proofs[1]), game.FormatTurns(r, lineWithout(line, x))})
	}
	var uns, semi, items []string
	var why []unsolvedJSON
	if v := p.Verdict; v != nil {
		uns, semi = verdictMoves(r, sym, v)
		why = unsolvedWhy(r, sym, v)
		if items, err = itemNames(ctx, bk, id, v.Attacker, sym); err != nil {
			return err
		}
		vj := newVerdictJSON(r, v.Transform(r, game.InverseSymmetry(sym)))
		out.Verdict, out.OpenItems, out.UnsolvedWhy = &vj, &items, &why
	}
	if proof {
		a, err := e.f.attackerFor(b)
		if err != nil {
			return err
		}
		if out.Proof, _, err = showProof(ctx, bk, id, b, sym, a); err != nil {
			return err
		}
	}
	return e.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "position %d, %s to move, %d stones; %d games (Black won %d, White %d, %d undecided)\n", id, b.ToMove(),
			b.Stones(game.Black)+b.Stones(game.White), gs.Games, gs.BlackWins, gs.WhiteWins, gs.Unfinished)
		if !checked {
			fmt.Fprintln(w, proofbook.UncheckedNote)
		}
		fmt.Fprintf(w, "Black attacker: %s\nWhite attacker: %s\n", proofText(p.Proofs[0]), proofText(p.Proofs[1]))
		for _, tw := range out.Twins {
			fmt.Fprintf(w, "twin without %s: position %d (Black attacker: %s; White attacker: %s)\n", tw.Without, tw.ID, tw.Black, tw.White)
			if tw.Turns != "" {
				fmt.Fprintf(w, "  --partial --turns %q\n", tw.Turns)
			}
		}
		if p.Label != "" {
			fmt.Fprintf(w, "label: %s\n", p.Label)
		}
		if p.Comment != "" {
			fmt.Fprintf(w, "comment: %s\n", strings.ReplaceAll(p.Comment, "\n", "\n  "))
		}
		if v := p.Verdict; v != nil {
			fmt.Fprintf(w, "verdict: %s for %s (%s), %s, %d calls, %d nodes, %d ms, %s, %s\n",
				v.Status, v.Attacker, verdictOrderText(v), unsolvedText(v, uns, semi), v.Calls, v.Nodes, v.Millis, v.Engine, certText(v))
			printUnsolvedWhy(w, why)
			fmt.Fprintf(w, "open items for %s: %d %v\n", v.Attacker, len(items), items)
		}
		fmt.Fprintf(w, "%d replies, most played first:\n", len(kids))
		if len(kids) > 0 {
			fmt.Fprintf(w, "  %-10s %6s %6s  %-28s %-28s %s\n", "move", "games", "Black", "Black attacker", "White attacker", "label")
		}
		for i, c := range cj {
			fmt.Fprintf(w, "  %-10s %6d %6s  %-28s %-28s %s\n", c.Move, c.Games.Games, rateText(kids[i].Games), c.Black, c.White, c.Label)
		}
		if out.Proof != nil {
			printProof(w, out.Proof)
		}
	})
}

// lineWithout is line with the stone on x taken out of the turn that
// placed it (a turn of that stone alone becomes a null move).
func lineWithout(line []game.Move, x game.Square) []game.Move {
	out := make([]game.Move, len(line))
	for i, m := range line {
		out[i] = m
		if !m.Contains(x) {
			continue
		}
		var rest []game.Square
		for j := 0; j < m.Len(); j++ {
			if m.At(j) != x {
				rest = append(rest, m.At(j))
			}
		}
		out[i] = game.NewMove(rest...)
	}
	return out
}
