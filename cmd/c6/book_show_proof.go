package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// c6 book show --proof: the proof of a proved position as a line read off
// the stored certificate (c6book.ProofWalk, which proofcheck re-checks
// first; the workbench's Show proof steps through the same line). The
// moves are named in the orientation of --turns.

// proofJSON is the proof line of book show --proof.
type proofJSON struct {
	Attacker string `json:"attacker"`
	// Lead is the attacker's proved move out of --turns when the proof is
	// of the position after it ("" when --turns has the defender to move).
	Lead string `json:"lead,omitempty"`
	// Twin, when the position is proved by its twin, names the defender
	// stone the twin lacks: the proof is the twin's, and none of its moves
	// touches that square.
	Twin  string          `json:"twin,omitempty"`
	Steps []proofStepJSON `json:"steps"`
}

// proofStepJSON is one step: the turn played (by whom), what it is, the
// attacker's threat squares and the strategy's zone after it, and the
// defender replies the proof answers there (the critical first; the line
// follows the first).
type proofStepJSON struct {
	Step    int      `json:"step"`
	Kind    string   `json:"kind"`
	Move    string   `json:"move,omitempty"`
	By      string   `json:"by,omitempty"`
	Text    string   `json:"text"`
	Threats []string `json:"threats,omitempty"`
	Zone    []string `json:"zone,omitempty"`
	Replies []string `json:"replies,omitempty"`
	Wins    bool     `json:"wins,omitempty"`
}

var stepKinds = map[c6book.StepKind]string{
	c6book.StepStart: "start", c6book.StepDefence: "defence", c6book.StepSeminull: "seminull",
	c6book.StepNull: "null", c6book.StepBook: "book", c6book.StepAttack: "attack", c6book.StepWin: "win",
}

// showProof reads the proof of position id (board b, --turns' frame; sym
// maps b to the book's canonical frame) for attacker a.
func showProof(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, b *board.Board, sym int, a game.Color) (*proofJSON, *c6book.ProofWalk, error) {
	r := bk.Rules()
	p, err := bk.Position(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if st := p.Proof(a).Status; st != c6book.StatusProved {
		return nil, nil, fmt.Errorf("--proof: the position is %s for %s, not proved", st, a)
	}
	out := &proofJSON{Attacker: a.String()}
	d, v := b, p.Verdict
	if b.ToMove() == a {
		// The attacker to move: the proof is the book's proved move, then
		// the proof of the position after it.
		kids, err := bk.Children(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		var lead game.Move
		found := false
		for _, k := range kids {
			if k.Proofs[a-1].Status == c6book.StatusProved {
				lead, found = proofbook.FromCanonical(r, sym, k.Move), true
				break
			}
		}
		if !found && p.Proof(a).How == c6book.HowTwin {
			// Proved by its twin (the position less the defender stone
			// x, proved with a zone that misses x): the twin's proof,
			// whose moves all avoid x, is this position's.
			tw, ok, err := bk.ProvingTwin(ctx, id, a)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				return nil, nil, errors.New("--proof: proved by a twin that is no longer stored")
			}
			x := proofbook.FromCanonical(r, sym, game.NewMove(tw.Stone)).At(0)
			tb := b.Clone()
			tb.Remove(x)
			_, tsym := tb.CanonicalKey()
			out, w, err := showProof(ctx, bk, tw.ID, tb, tsym, a)
			if err != nil {
				return nil, nil, err
			}
			out.Twin = game.SquareName(r, x)
			return out, w, nil
		}
		if !found {
			return nil, nil, errors.New("--proof: no proved move stored out of this position")
		}
		d = b.Clone()
		if err := d.Play(lead); err != nil {
			return nil, nil, err
		}
		out.Lead = game.MoveName(r, lead)
		cid, csym, err := bk.Locate(ctx, d)
		if err != nil {
			return nil, nil, err
		}
		cp, err := bk.Position(ctx, cid)
		if err != nil {
			return nil, nil, err
		}
		v, sym = cp.Verdict, csym
	}
	if v == nil || v.Attacker != a {
		return nil, nil, errors.New("--proof: no verdict stored for the proved position: nothing to show")
	}
	dv := v.Transform(r, game.InverseSymmetry(sym)) // in --turns' frame
	w, err := c6book.NewProofWalk(ctx, d, &dv)
	if err != nil {
		return nil, nil, fmt.Errorf("--proof: %w", err)
	}
	names := func(sq []game.Square) []string {
		out := make([]string, len(sq))
		for i, s := range sq {
			out[i] = game.SquareName(r, s)
		}
		return out
	}
	for i, st := range w.Steps() {
		sj := proofStepJSON{Step: i, Kind: stepKinds[st.Kind], Text: w.StepText(i), Threats: names(st.Threats), Zone: names(st.Zone), Wins: st.Wins}
		if i > 0 {
			sj.Move, sj.By = game.MoveName(r, st.Move), st.By.String()
		}
		for _, alt := range st.Alts {
			sj.Replies = append(sj.Replies, w.AltText(alt))
		}
		out.Steps = append(out.Steps, sj)
	}
	return out, w, nil
}

// printProof writes the proof line as text: one step a row, its threats,
// and the replies answered at each defender turn (the first few).
func printProof(w io.Writer, p *proofJSON) {
	if p.Twin != "" {
		fmt.Fprintf(w, "proved by its twin: the position without the defender's stone on %s is proved with a zone that misses %s; its proof, in which no move touches %s:\n", p.Twin, p.Twin, p.Twin)
	}
	if p.Lead != "" {
		fmt.Fprintf(w, "proof for %s: %s %s (the book's proved move), then:\n", p.Attacker, p.Attacker, p.Lead)
	} else {
		fmt.Fprintf(w, "proof for %s, read off the stored certificate (proofcheck re-checked it):\n", p.Attacker)
	}
	for _, st := range p.Steps {
		fmt.Fprintf(w, "  %2d. %s\n", st.Step, st.Text)
		if len(st.Threats) > 0 {
			fmt.Fprintf(w, "      threats on %s; zone %d squares\n", strings.Join(st.Threats, " "), len(st.Zone))
		}
		if n := len(st.Replies); n > 1 {
			show := st.Replies[1:min(n, 6)]
			more := ""
			if n > 6 {
				more = fmt.Sprintf(" … and %d more", n-6)
			}
			fmt.Fprintf(w, "      other replies answered: %s%s\n", strings.Join(show, "; "), more)
		}
	}
}
