package session

import (
	"context"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Show proof: the winning strategy of a proved position stepped through on
// the board, read off the certificate the book stores (c6book.ProofWalk,
// which proofcheck re-checks before anything is shown). While a proof is
// shown the board shows its step instead of the cursor's position; moving
// the cursor closes it.

// ProofView is the proof shown.
type ProofView struct {
	Walk *c6book.ProofWalk
	// Lead is the attacker's proved move out of the shown position when
	// the proof is of the position after it (the shown position has the
	// attacker to move); none otherwise.
	Lead game.Move
	// ByTwin: the shown position is proved by its twin, the position
	// without the defender's stone on TwinStone, and the proof shown is
	// the twin's (its Lead, its verdict). None of its moves touches
	// TwinStone; the boards shown keep the stone (ProofBoard).
	ByTwin    bool
	TwinStone game.Square
	// at is the cursor's visit the proof belongs to.
	visit int
}

// ProofShown is the proof shown (nil when none).
func (s *Session) ProofShown() *ProofView {
	if p := s.proof; p != nil && p.visit == s.cursor.visit {
		return p
	}
	return nil
}

// CanShowProof reports whether the shown position is proved for the
// attacker (Show proof has something to show).
func (s *Session) CanShowProof() bool {
	c := &s.cursor
	return c.loaded && c.info.Status == c6book.StatusProved
}

// ShowProof reads the proof of the shown position off its stored
// certificate: the position's own verdict when the defender is to move,
// else the verdict of the proved move's position (the book's move that
// proves it). The certificate is checked off the UI goroutine; one that
// does not check is an error and nothing is shown.
func (s *Session) ShowProof() {
	c := &s.cursor
	if c.info.Status != c6book.StatusProved {
		s.fail(fmt.Errorf("show proof: this position is not proved for %s", ColourName(c.attacker)))
		return
	}
	b, a, visit := c.pos.Clone(), c.attacker, c.visit
	var lead game.Move
	byTwin := false
	if b.ToMove() == a {
		var found bool
		lead, found = provedMove(c.children)
		// Proved by its twin (the position less the defender stone x,
		// proved with a zone that misses x): the twin's proof is shown.
		byTwin = !found && c.info.ByTwin
		if !found && !byTwin {
			s.fail(errors.New("show proof: no proved move stored out of this position"))
			return
		}
	}
	x := c.info.TwinStone
	s.stopProof()
	s.proofBusy = true
	s.changed(ChangeProof)
	// The verdict is read by a book call; the certificate is checked off
	// the book's queue (a large one takes seconds: reads of positions do
	// not wait for it), cancelled when the user moves on or closes it.
	s.call(func(ctx context.Context, store BookStore) func() {
		pb := b
		var err error
		if byTwin {
			if pb, lead, err = twinLead(ctx, store, b, a, x); err != nil {
				return func() {
					s.proofBusy = false
					s.fail(fmt.Errorf("show proof: %w", err))
					s.changed(ChangeProof)
				}
			}
		}
		d, v, err := loadProof(ctx, store, pb, a, lead)
		return func() {
			if err != nil || visit != c.visit {
				s.proofBusy = false
				if err != nil {
					s.fail(fmt.Errorf("show proof: %w", err))
				}
				s.changed(ChangeProof)
				return
			}
			ctx, cancel := context.WithCancel(s.storeCtx)
			s.proofCancel = cancel
			s.Go(func() func() {
				walk, err := c6book.NewProofWalk(ctx, d, v)
				return func() {
					if ctx.Err() != nil {
						return // closed, or the user moved on (stopProof)
					}
					cancel()
					s.proofBusy, s.proofCancel = false, nil
					if err != nil {
						s.fail(fmt.Errorf("show proof: %w", err))
						s.changed(ChangeProof)
						return
					}
					if visit != c.visit {
						s.changed(ChangeProof)
						return // the user moved on meanwhile
					}
					s.proof = &ProofView{Walk: walk, Lead: lead, ByTwin: byTwin, TwinStone: x, visit: visit}
					s.changed(ChangeProof | ChangeBoard)
				}
			})
		}
	})
}

// stopProof cancels a certificate being checked for Show proof and drops
// the proof shown (the cursor moved, or the proof was closed).
func (s *Session) stopProof() {
	if s.proofCancel != nil {
		s.proofCancel()
		s.proofCancel = nil
	}
	s.proofBusy = false
	s.proof = nil
}

// twinLead is the twin of b (b less the defender stone x) and its proved
// move.
func twinLead(ctx context.Context, store BookStore, b *board.Board, a game.Color, x game.Square) (*board.Board, game.Move, error) {
	tb := b.Clone()
	if tb.At(x) != a.Opp() {
		return nil, game.Move{}, fmt.Errorf("the twin's stone %s is not %s's", game.SquareName(b.Rules(), x), ColourName(a.Opp()))
	}
	tb.Remove(x)
	kids, err := store.Children(ctx, tb, a)
	if err != nil {
		return nil, game.Move{}, err
	}
	if m, ok := provedMove(kids); ok {
		return tb, m, nil
	}
	return nil, game.Move{}, fmt.Errorf("proved by its twin, this position without %s's stone on %s, which has no proved move stored",
		ColourName(a.Opp()), game.SquareName(b.Rules(), x))
}

// provedMove is the first proved move of kids, the one a proof shown
// from an attacker-to-move position leads with.
func provedMove(kids []Child) (game.Move, bool) {
	for _, ch := range kids {
		if ch.Status == c6book.StatusProved {
			return ch.Move, true
		}
	}
	return game.Move{}, false
}

// loadProof reads the verdict of b (after lead when it is a move): the
// position it is on and the verdict, in b's frame.
func loadProof(ctx context.Context, store BookStore, b *board.Board, a game.Color, lead game.Move) (*board.Board, *c6book.Verdict, error) {
	d := b
	if lead.Len() > 0 {
		d = b.Clone()
		if err := d.Play(lead); err != nil {
			return nil, nil, err
		}
	}
	p, err := store.Position(ctx, d, a)
	if err != nil {
		return nil, nil, err
	}
	if p.Verdict == nil {
		return nil, nil, errors.New("no verdict stored for this position")
	}
	return d, p.Verdict, nil
}

// ProofBusy reports whether a proof is being read and checked.
func (s *Session) ProofBusy() bool { return s.proofBusy }

// CloseProof stops showing the proof.
func (s *Session) CloseProof() {
	if s.proof != nil || s.proofBusy {
		s.stopProof()
		s.changed(ChangeProof | ChangeBoard)
	}
}

// ProofStep moves the proof shown by delta steps (←/→); false when no
// proof is shown.
func (s *Session) ProofStep(delta int) bool {
	p := s.ProofShown()
	if p == nil {
		return false
	}
	p.Walk.Seek(p.Walk.At() + delta)
	s.changed(ChangeProof | ChangeBoard)
	return true
}

// ProofChoose makes the proof shown follow defender reply i of its step.
func (s *Session) ProofChoose(i int) {
	p := s.ProofShown()
	if p == nil {
		return
	}
	if err := p.Walk.Choose(s.storeCtx, i); err != nil {
		s.fail(err)
	}
	s.changed(ChangeProof | ChangeBoard)
}

// ProofBoard is the board of the proof step shown, with its zone and the
// attacker's threats (nil when no proof is shown).
func (s *Session) ProofBoard() (b *board.Board, zone, threats []game.Square) {
	p := s.ProofShown()
	if p == nil {
		return nil, nil, nil
	}
	st := p.Walk.Step()
	if p.ByTwin {
		// The twin's board, with the stone it lacks (no move of its
		// proof touches that square).
		b := st.Board.Clone()
		b.Place(p.TwinStone, p.Walk.Attacker().Opp())
		return b, st.Zone, st.Threats
	}
	return st.Board, st.Zone, st.Threats
}

// ProofText says what the step shown is, with the line so far ("step 3 of
// 7").
func (s *Session) ProofText() string {
	p := s.ProofShown()
	if p == nil {
		return ""
	}
	w := p.Walk
	text := fmt.Sprintf("Step %d of %d: %s", w.At(), len(w.Steps())-1, w.StepText(w.At()))
	if p.Lead.Len() > 0 && w.At() == 0 {
		text = fmt.Sprintf("%s %s, the book's proved move; then: %s", ColourName(w.Attacker()),
			game.MoveName(s.rules, p.Lead), text)
	}
	if p.ByTwin {
		sq := game.SquareName(s.rules, p.TwinStone)
		text = fmt.Sprintf("The proof of its twin, this position without %s's stone on %s (proved with a zone that misses %s; no move below touches it). %s",
			ColourName(w.Attacker().Opp()), sq, sq, text)
	}
	return text
}
