package bookfile

import (
	"context"
	"fmt"
	"io"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
	"c6book/internal/idset"
	"c6book/proofbook"
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

// ExportProof writes the proof of bk's position id for attacker (Empty:
// the side it is proved for, Black first) as one SGF game any SGF reader
// can replay: the line from the empty board to the position, then the
// proof tree: at the attacker's turns the proving move (the proved move of
// the smallest order, then the smallest zone, as the book's status takes
// it), at the defender's turns every item the position's verdict leaves
// (each defender reply the proof must answer, as a variation), down to
// positions won outright or proved by their verdict alone; at a position
// proved by its twin (the position less one defender stone x, proved with
// a zone that misses x) the twin's proof, whose moves never touch x. Each
// node's comment (C) says the position's status for the attacker (order,
// how, zone) and, at the defender's turns, the verdict and what its
// certificate (re-checked by proofcheck when it was stored) refutes. A
// position reached again by a transposition is written once; later
// occurrences are leaves marked XT[1]. opts.Line and opts.MaxNodes work as
// for ExportSGF (MaxDepth and Progress too). A position not proved for the
// attacker is refused.
func ExportProof(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, attacker game.Color, out io.Writer, opts ExportOptions) (ProofExportStats, error) {
	var st ProofExportStats
	if opts.MaxNodes < 0 || opts.MaxDepth < 0 {
		return st, fmt.Errorf("export proof: limits %d nodes, depth %d: want 0 (no limit) or more", opts.MaxNodes, opts.MaxDepth)
	}
	pos, err := bk.Position(ctx, id)
	if err != nil {
		return st, err
	}
	if attacker, err = proofAttacker(pos, attacker); err != nil {
		return st, err
	}
	st.Attacker = attacker
	line, err := exportLine(ctx, bk, id, opts)
	if err != nil {
		return st, err
	}
	r := bk.Rules()
	ex := &proofExport{bk: bk, r: r, attacker: attacker, opts: opts, st: &st, sw: sgf.NewSGFWriter(out)}
	root := sgfRootProps(r)
	gc := fmt.Sprintf("c6book proof for %s: at %s's turns the proving move, at %s's turns every reply the proof answers (variations); "+
		"each comment gives the status (order, how, zone) and, at %s's turns, what the verdict's certificate refutes",
		attacker, attacker, attacker.Opp(), attacker.Opp())
	root = append(root, sgf.SGFProp{ID: "GC", Values: []string{gc}})
	if ex.b, err = board.NewBoard(r); err != nil {
		return st, err
	}
	ex.sw.Open()
	props, err := writeLine(ctx, bk, ex.sw, line, ex.b, root)
	if err != nil {
		return st, err
	}
	if err := ex.expand(ctx, props, id, 0); err != nil {
		return st, err
	}
	ex.sw.Close()
	return st, ex.sw.Flush()
}

// proofAttacker is the side ExportProof writes pos's proof for: attacker,
// or (Empty) the side it is proved for, Black first; an error when pos is
// not proved for it.
func proofAttacker(pos proofbook.Position, attacker game.Color) (game.Color, error) {
	if attacker == game.Empty {
		for _, a := range []game.Color{game.Black, game.White} {
			if pos.Proofs[a-1].Status == c6book.StatusProved {
				attacker = a
				break
			}
		}
		if attacker == game.Empty {
			return attacker, fmt.Errorf("position %d is not proved for either side: no proof to export", pos.ID)
		}
	}
	if attacker != game.Black && attacker != game.White {
		return attacker, fmt.Errorf("export proof: attacker %v: want Black or White", attacker)
	}
	if p := pos.Proofs[attacker-1]; p.Status != c6book.StatusProved {
		return attacker, fmt.Errorf("position %d is %s for %s, not proved: no proof to export", pos.ID, p.Status, attacker)
	}
	return attacker, nil
}

// proofExport is the state of ExportProof's walk: the board at the node
// being written, and the positions written so far.
type proofExport struct {
	bk       *proofbook.Book
	r        game.Rules
	attacker game.Color
	opts     ExportOptions
	st       *ProofExportStats
	sw       *sgf.SGFWriter
	b        *board.Board
	seen     idset.Set
}

// expand writes position pid's node (props: its move) and its proof below.
func (ex *proofExport) expand(ctx context.Context, props []sgf.SGFProp, pid proofbook.PosID, depth int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, attacker := ex.b, ex.attacker
	n := &sgf.SGFNode{Props: props}
	p, err := annotate(ctx, ex.bk, n, pid, b)
	if err != nil {
		return err
	}
	pr := p.Proofs[attacker-1]
	notes := []string{proofText(pr, b.ToMove() == attacker)}
	if ex.seen.Has(int64(pid)) {
		n.Set("XT", "1")
		ex.sw.Node(withComment(n, append(notes, "transposition: its proof is written above")...).Props...)
		return nil
	}
	ex.seen.Add(int64(pid))
	if p.Winner == attacker || pr.Status != c6book.StatusProved {
		ex.st.Leaves++
		ex.sw.Node(withComment(n, notes...).Props...)
		return nil
	}
	if ex.opts.MaxDepth > 0 && depth >= ex.opts.MaxDepth {
		ex.sw.Node(withComment(n, notes...).Props...)
		return nil
	}
	moves, more, err := ex.proofMoves(ctx, p)
	if err != nil {
		return err
	}
	from := pid // the position whose stored moves continue the proof
	if len(moves) == 0 && b.ToMove() == attacker && pr.How == c6book.HowTwin {
		// Proved by its twin, the position less the defender stone x
		// (with a zone that misses x): the twin's proof follows, written
		// on the board without x (its frame); none of its moves touches
		// x, so the SGF replays on the board with it.
		tw, ok, err := ex.bk.ProvingTwin(ctx, pid, attacker)
		if err != nil {
			return err
		}
		if ok {
			x := proofbook.FromCanonical(ex.r, symOf(b), game.NewMove(tw.Stone)).At(0)
			tp, err := ex.bk.Position(ctx, tw.ID)
			if err != nil {
				return err
			}
			saved, tb := ex.b, b.Clone()
			tb.Remove(x)
			ex.b = tb
			defer func() { ex.b = saved }()
			moves, more, err = ex.proofMoves(ctx, tp)
			if err != nil {
				return err
			}
			name := game.SquareName(ex.r, x)
			more = append([]string{fmt.Sprintf("the proof of its twin, the position without %s's stone on %s (proved with a zone that misses %s), follows; none of its moves touches %s",
				attacker.Opp(), name, name, name)}, more...)
			from, b = tw.ID, tb
		}
	}
	ex.sw.Node(withComment(n, append(notes, more...)...).Props...)
	sym := symOf(b)
	variations := len(moves) > 1
	for _, k := range moves {
		more, err := exportMove(ex.sw, b, ex.opts, &ex.st.Nodes, sym, from, k.Move, variations, func(props []sgf.SGFProp) error {
			return ex.expand(ctx, props, k.Child, depth+1)
		})
		if !more {
			ex.st.Truncated = true
		}
		if !more || err != nil {
			return err
		}
	}
	return nil
}

// proofMoves are the moves the proof of p continues with (in p's canonical
// frame), and what the node's comment says of them: at the attacker's
// turn its proving move, at the defender's every item the verdict leaves.
func (ex *proofExport) proofMoves(ctx context.Context, p proofbook.Position) ([]proofbook.Edge, []string, error) {
	r, attacker := ex.r, ex.attacker
	kids, err := ex.bk.Edges(ctx, p.ID, attacker)
	if err != nil {
		return nil, nil, err
	}
	if p.ToMove == attacker {
		if best := provingChild(kids); best != nil {
			return []proofbook.Edge{*best}, []string{fmt.Sprintf("%s's proving move: %s", attacker, game.MoveName(r, proofbook.FromCanonical(r, symOf(ex.b), best.Move)))}, nil
		}
		return nil, nil, nil
	}
	if p.Verdict == nil {
		return nil, nil, nil
	}
	cb, err := p.Board(r)
	if err != nil {
		return nil, nil, err
	}
	pcs := make([]c6book.ProofChild, len(kids))
	for i, k := range kids {
		pcs[i] = c6book.ProofChild{Move: k.Move, Proof: k.Proof}
	}
	it, err := c6book.ProofItems(cb, attacker, p.Verdict, pcs)
	if err != nil {
		return nil, nil, err
	}
	var moves []proofbook.Edge
	for _, x := range it.Items {
		if x.Child >= 0 {
			moves = append(moves, kids[x.Child])
		}
	}
	if len(it.Items) == 0 {
		ex.st.Leaves++
	}
	return moves, []string{verdictText(p.Verdict, len(it.Items))}, nil
}

func symOf(b *board.Board) int {
	_, sym := b.CanonicalKey()
	return sym
}

// provingChild is the proved move of an attacker-to-move position that its
// status rests on: the smallest order, then the smallest zone (orProof's
// choice, up to the defender windows it adds to every move alike).
func provingChild(kids []proofbook.Edge) *proofbook.Edge {
	var best *proofbook.Edge
	for i := range kids {
		c := &kids[i]
		if c.Proof.Status != c6book.StatusProved || c.Proof.Zone == nil {
			continue
		}
		if best == nil || c.Proof.Order < best.Proof.Order || c.Proof.Order == best.Proof.Order && len(c.Proof.Zone) < len(best.Proof.Zone) {
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
		how := map[c6book.ProofHow]string{c6book.HowWin: "k in a row", c6book.HowMove: "by its proving move", c6book.HowVerdict: "by its verdict and the proofs of every item",
			c6book.HowTwin: "by its twin: one defender stone less, proved with a zone that misses it"}[p.How]
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
