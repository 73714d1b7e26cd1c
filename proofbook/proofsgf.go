package proofbook

import (
	"context"
	"fmt"
	"io"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
)

// ProofExportStats says what ExportProof wrote.
type ProofExportStats struct {
	Attacker game.Color
	Nodes    int // moves written below the exported position
	Leaves   int // positions won outright or proved by their verdict alone
	// Truncated: MaxNodes stopped the export; the SGF holds a prefix of
	// the proof.
	Truncated bool
}

// ExportProof writes the proof of position id for attacker (Empty: the
// side it is proved for, Black first) as one SGF game any SGF reader can
// replay: the line from the empty board to the position, then the proof
// tree: at the attacker's turns the proving move (the proved move of the
// smallest order, then the smallest zone, as the book's status takes
// it), at the defender's turns every item the position's verdict leaves
// (each defender reply the proof must answer, as a variation), down to
// positions won outright or proved by their verdict alone. Each node's
// comment (C) says the position's status for the attacker (order, how,
// zone) and, at the defender's turns, the verdict and what its
// certificate (re-checked by proofcheck when it was stored) refutes. A
// position reached again by a transposition is written once; later
// occurrences are leaves marked XT[1]. opts.Line and opts.MaxNodes work as
// for ExportSGF (MaxDepth and Progress too). A position not proved for the
// attacker is refused.
func (bk *Book) ExportProof(ctx context.Context, id PosID, attacker game.Color, out io.Writer, opts ExportOptions) (ProofExportStats, error) {
	var st ProofExportStats
	if opts.MaxNodes < 0 || opts.MaxDepth < 0 {
		return st, fmt.Errorf("export proof: limits %d nodes, depth %d: want 0 (no limit) or more", opts.MaxNodes, opts.MaxDepth)
	}
	mask, err := bk.proofMask(ctx)
	if err != nil {
		return st, err
	}
	pos, err := bk.position(ctx, id, mask)
	if err != nil {
		return st, err
	}
	if attacker == game.Empty {
		for _, a := range []game.Color{game.Black, game.White} {
			if pos.Proofs[a-1].Status == c6book.StatusProved {
				attacker = a
				break
			}
		}
		if attacker == game.Empty {
			return st, fmt.Errorf("position %d is not proved for either side: no proof to export", id)
		}
	}
	if attacker != game.Black && attacker != game.White {
		return st, fmt.Errorf("export proof: attacker %v: want Black or White", attacker)
	}
	if p := pos.Proofs[attacker-1]; p.Status != c6book.StatusProved {
		return st, fmt.Errorf("position %d is %s for %s, not proved: no proof to export", id, p.Status, attacker)
	}
	st.Attacker = attacker
	line, err := bk.exportLine(ctx, id, opts)
	if err != nil {
		return st, err
	}
	r := bk.rules
	sw := sgf.NewSGFWriter(out)
	root := sgfRootProps(r)
	gc := fmt.Sprintf("c6book proof for %s: at %s's turns the proving move, at %s's turns every reply the proof answers (variations); "+
		"each comment gives the status (order, how, zone) and, at %s's turns, what the verdict's certificate refutes",
		attacker, attacker, attacker.Opp(), attacker.Opp())
	root = append(root, sgf.SGFProp{ID: "GC", Values: []string{gc}})
	b := bk.tmpl.Clone()
	sw.Open()
	props, err := bk.writeLine(ctx, sw, line, b, root, mask)
	if err != nil {
		return st, err
	}
	var seen idSet
	var expand func(props []sgf.SGFProp, pid PosID, depth int) error
	expand = func(props []sgf.SGFProp, pid PosID, depth int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := &sgf.SGFNode{Props: props}
		if err := bk.annotate(ctx, n, pid, b, mask); err != nil {
			return err
		}
		p, err := bk.position(ctx, pid, mask)
		if err != nil {
			return err
		}
		pr := p.Proofs[attacker-1]
		var notes []string
		notes = append(notes, proofText(pr, b.ToMove() == attacker))
		if seen.has(pid) {
			n.Set("XT", "1")
			sw.Node(withComment(n, append(notes, "transposition: its proof is written above")...).Props...)
			return nil
		}
		seen.add(pid)
		if p.Winner == attacker || pr.Status != c6book.StatusProved {
			st.Leaves++
			sw.Node(withComment(n, notes...).Props...)
			return nil
		}
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			sw.Node(withComment(n, notes...).Props...)
			return nil
		}
		// The moves below, in the position's canonical frame.
		var moves []childRow
		list, tm, err := loadPos(ctx, bk.r, r, pid)
		if err != nil {
			return err
		}
		kids, err := readChildren(ctx, bk.r, r, pid, attacker)
		if err != nil {
			return err
		}
		cb := bk.board(list, tm)
		if tm == attacker {
			if best := provingChild(kids); best != nil {
				moves = []childRow{*best}
				notes = append(notes, fmt.Sprintf("%s's proving move: %s", attacker, game.MoveName(r, FromCanonical(r, symOf(b), best.move))))
			}
		} else if p.Verdict != nil {
			it, err := c6book.ProofItems(cb, attacker, p.Verdict, proofChildren(kids))
			if err != nil {
				return err
			}
			for _, x := range it.Items {
				if x.Child >= 0 {
					moves = append(moves, kids[x.Child])
				}
			}
			notes = append(notes, verdictText(p.Verdict, len(it.Items)))
			if len(it.Items) == 0 {
				st.Leaves++
			}
		}
		sw.Node(withComment(n, notes...).Props...)
		sym := symOf(b)
		variations := len(moves) > 1
		for _, k := range moves {
			more, err := exportMove(sw, b, opts, &st.Nodes, sym, pid, k.move, variations, func(props []sgf.SGFProp) error {
				return expand(props, k.id, depth+1)
			})
			if !more {
				st.Truncated = true
			}
			if !more || err != nil {
				return err
			}
		}
		return nil
	}
	if err := expand(props, id, 0); err != nil {
		return st, err
	}
	sw.Close()
	return st, sw.Flush()
}

func symOf(b *board.Board) int {
	_, sym := b.CanonicalKey()
	return sym
}

// provingChild is the proved move of an attacker-to-move position that its
// status rests on: the smallest order, then the smallest zone (orProof's
// choice, up to the defender windows it adds to every move alike).
func provingChild(kids []childRow) *childRow {
	var best *childRow
	for i := range kids {
		c := &kids[i]
		if c.proof.Status != c6book.StatusProved || c.proof.Zone == nil {
			continue
		}
		if best == nil || c.proof.Order < best.proof.Order || c.proof.Order == best.proof.Order && len(c.proof.Zone) < len(best.proof.Zone) {
			best = c
		}
	}
	return best
}

// proofText describes a position's status for the attacker.
func proofText(p c6book.Proof, attackerToMove bool) string {
	who := "defender"
	if attackerToMove {
		who = "attacker"
	}
	s := fmt.Sprintf("%s: %s (%s to move)", p.Attacker, p.Status, who)
	if p.Status == c6book.StatusProved {
		how := map[c6book.ProofHow]string{c6book.HowWin: "k in a row", c6book.HowMove: "by its proving move", c6book.HowVerdict: "by its verdict and the proofs of every item"}[p.How]
		if how == "" {
			how = string(p.How)
		}
		s += fmt.Sprintf(", order %d, %s, zone %d squares", p.Order, how, len(p.Zone))
	}
	if p.Expert {
		s += ", disproved by the expert"
	}
	return s
}

// verdictText describes a defender-to-move position's verdict and its
// certificate.
func verdictText(v *c6book.Verdict, items int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "verdict: %s, order %d, λ%d by %s", v.Status, v.Order, v.Lambda, v.Engine)
	if c := v.Cert; c != nil {
		var parts []string
		if len(c.Covered) > 0 {
			parts = append(parts, fmt.Sprintf("%d defender moves refuted one by one", len(c.Covered)))
		}
		if c.NullTree != nil {
			parts = append(parts, fmt.Sprintf("a null-move win with a zone of %d squares (every move outside it loses)", len(c.NullZone)))
		}
		if len(c.Seminull) > 0 {
			parts = append(parts, fmt.Sprintf("%d seminull wins", len(c.Seminull)))
		}
		switch {
		case len(parts) == 0 && items > 0:
			parts = append(parts, "every other defender move loses at once")
		case len(parts) == 0:
			parts = append(parts, "every defender move loses at once")
		}
		fmt.Fprintf(&sb, "; certificate (checked by proofcheck): %s", strings.Join(parts, ", "))
	} else {
		sb.WriteString("; no certificate")
	}
	if items == 0 {
		sb.WriteString("; no reply left: proved by the verdict alone")
	} else {
		fmt.Fprintf(&sb, "; %d replies left, each proved below", items)
	}
	return sb.String()
}

// withComment appends texts to node n's comment (C), below the position's
// own comment.
func withComment(n *sgf.SGFNode, texts ...string) *sgf.SGFNode {
	c, _ := n.Get("C")
	all := strings.Join(texts, "\n")
	if c != "" {
		all = c + "\n\n" + all
	}
	n.Set("C", all)
	return n
}
