package session

import (
	"context"
	"errors"
	"fmt"

	"c6book"
	"c6book/engine/game"
)

// Prover runs the machine's work on the shown position, each as a Job: the
// verifier (Verify), the engine's candidates or its player (Suggest,
// PlayEngineMove: play.go) and the auto-pilot below the position
// (auto.go). Its methods run on the UI goroutine.
type Prover struct {
	s      *Session
	lambda int

	verify     *Job
	verifyKey  posKey
	verifyLine []game.Move // the line to the position verified
	verifyText VerifyEnd   // how the last verification ended, when no verdict shows

	auto autoState

	summary *RunSummary // how the last Verify or Auto run ended (summary.go)

	suggest    *Job // the candidate search or the player (play)
	play       playState
	cands      []Candidate
	candsKey   posKey
	candsValid bool
	candsWhy   NoCandidates // why cands is empty (nocands.go)
}

// reset forgets the jobs of the previous book (cancelled and waited for:
// their ends, delivered later, are dropped) and what they found.
func (p *Prover) reset() {
	p.verify, p.verifyText = nil, VerifyShown
	p.suggest, p.play.job = nil, nil
	p.play.answer, p.play.text = nil, ""
	p.candsValid = false
	p.auto = autoState{}
	p.summary = nil
}

// SetLambda chooses λ2 or λ3 for Verify (the auto-pilot is λ3, as c6 book
// prove).
func (p *Prover) SetLambda(l int) { p.lambda = l }

// errNotDefenderToMove is returned when Verify is asked with the attacker to
// move: the verifier needs the attacker's move played first.
var errNotDefenderToMove = errors.New("the verifier needs the defender to move: play the attacker's move first")

// Verify starts the verifier on the shown position (the defender to move)
// as a job; Stop cancels it. The verdict is stored in the book (unsolved
// moves become children, an undoable edit) and shown when it arrives.
func (p *Prover) Verify() {
	s, c := p.s, &p.s.cursor
	if p.verify != nil {
		return
	}
	if s.verifier == nil {
		s.fail(errors.New("no verifier"))
		return
	}
	if s.refuseEdit("verify (its verdict is stored)") {
		return
	}
	if c.pos.ToMove() != c.attacker.Opp() {
		s.fail(fmt.Errorf("%w (attacker %s, %s to move)", errNotDefenderToMove,
			ColourName(c.attacker), ColourName(c.pos.ToMove())))
		return
	}
	if w := c.pos.Winner(); w != game.Empty {
		s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	b, lambda, verifier := c.pos.Clone(), p.lambda, s.verifier
	p.verifyKey = keyOf(c.pos)
	p.verifyLine = c.prefix()
	p.verifyText = VerifyShown
	p.summary = nil
	e := &repliesEdit{editAt: editAt{line: p.verifyLine}}
	sum := &RunSummary{Kind: jobVerify, Line: p.VerifyLine(), Attacker: c.attacker, Lambda: lambda, Stop: stopDone}
	var job *Job
	job = s.Start(JobSpec{
		Kind: jobVerify,
		Run: func(ctx context.Context, store BookStore, progress func(Progress)) error {
			return summaryRun(ctx, store, b, sum, false, func() error {
				v, err := verifier.Verify(ctx, b, lambda, progress)
				if err != nil {
					return err
				}
				v.Lambda = lambda
				e.verdict = v
				sum.Calls = v.Calls
				progress(Progress{Phase: phaseStoring, Text: "storing the verdict (Stop gives up if another program keeps the book locked)…"})
				// The verdict is stored even if the user moved on meanwhile;
				// while another program holds the book, the store waits for
				// it until it is stored or the user presses Stop.
				return e.do(ctx, store, b)
			})
		},
		OnProgress: func(Progress) { s.changed(ChangeVerify) },
		OnDone: func(err error) {
			if err == nil && !isNoOp(e) && job == p.verify && job.store == s.store {
				s.history.push(e)
				sum.edit = e
			}
			if job == p.verify && job.store == s.store {
				sum.ended(err)
				p.summary = sum
			}
			p.finishVerify(job, e.verdict, err)
		},
	})
	p.verify = job
	s.changed(ChangeVerify)
}

// Summary is how the last Verify or Auto run on this book ended (ok false
// when none ended since the last one started).
func (p *Prover) Summary() (sum RunSummary, ok bool) {
	if p.summary == nil {
		return RunSummary{}, false
	}
	sum = *p.summary
	sum.Line = append([]game.Move(nil), sum.Line...)
	sum.Changed = append([]ReplyChange(nil), sum.Changed...)
	if sum.Left != nil {
		e := *sum.Left
		sum.Left = &e
	}
	return sum, true
}

// GoToChange shows the position after the i-th reply the last run changed
// (Summary's Changed).
func (p *Prover) GoToChange(i int) {
	if p.summary == nil || i < 0 || i >= len(p.summary.Changed) {
		return
	}
	line := append(append([]game.Move(nil), p.summary.Line...), p.summary.Changed[i].Move)
	p.s.cursor.openLine(line)
}

// GoToLeft shows the open position the last auto-pilot run left
// (Summary's Left).
func (p *Prover) GoToLeft() {
	if p.summary == nil || p.summary.Left == nil {
		return
	}
	p.s.cursor.openLine(append(append([]game.Move(nil), p.summary.Line...), p.summary.Left.Line...))
}

// Running reports whether a verification is running.
func (p *Prover) Running() bool { return p.verify != nil }

// VerifyJob is the running verification (nil when none).
func (p *Prover) VerifyJob() *Job { return p.verify }

// VerifyLine is the line to the position the running (or last)
// verification is about.
func (p *Prover) VerifyLine() []game.Move { return append([]game.Move(nil), p.verifyLine...) }

// VerifyElsewhere reports whether a verification runs on another position
// than the one shown.
func (p *Prover) VerifyElsewhere() bool {
	return p.verify != nil && keyOf(p.s.cursor.pos) != p.verifyKey
}

// GoToVerify shows the position the running verification is about.
func (p *Prover) GoToVerify() {
	if p.verify != nil {
		p.s.cursor.openLine(p.verifyLine)
	}
}

// VerifyEnd is what the last verification left to say when it left no
// verdict: its bytes are the words the workbench shows.
type VerifyEnd string

// How a verification ended.
const (
	VerifyShown   VerifyEnd = ""        // its verdict is shown (or none ran)
	verifyStopped VerifyEnd = "stopped" // cancelled
	verifyFailed  VerifyEnd = "error"   // it failed (the error went to the session's errors)
)

// VerifyText is what the last verification left to say ("stopped",
// "error"; VerifyShown when its verdict is shown).
func (p *Prover) VerifyText() VerifyEnd { return p.verifyText }

// Stop cancels the running verification and candidate search (or the
// player's).
func (p *Prover) Stop() {
	if p.verify != nil {
		p.verify.Cancel()
	}
	if p.suggest != nil {
		p.suggest.Cancel()
	}
}

func (p *Prover) finishVerify(job *Job, v c6book.Verdict, err error) {
	s, c := p.s, &p.s.cursor
	if job != p.verify || job.store != s.store {
		// Another book was opened meanwhile; the switch cancelled this
		// job and waited for it, so the verdict was stored there in full
		// or not at all. Say so unless it was the switch that stopped it.
		if err != nil && !errors.Is(err, context.Canceled) {
			s.fail(fmt.Errorf("verify (previous book): %w", err))
		}
		return
	}
	p.verify = nil
	if err != nil {
		if errors.Is(err, context.Canceled) {
			p.verifyText = verifyStopped
		} else {
			p.verifyText = verifyFailed
			s.fail(fmt.Errorf("verify: %w", err))
		}
		s.changed(ChangeVerify)
		return
	}
	c.forget()
	delete(c.nkids, p.verifyKey) // its unsolved moves became replies
	s.changed(ChangeVerify)
	c.refresh(true)
	if keyOf(c.pos) == p.verifyKey {
		// Shown at once; the book's copy replaces it when it arrives
		// (unless the book gives it back without this one's counts).
		vv := v
		c.verdict = &vv
		gen := c.gen
		s.call(func(context.Context, BookStore) func() {
			return func() {
				if gen == c.gen && (c.verdict == nil || c.verdict.Calls != v.Calls || c.verdict.Nodes != v.Nodes) {
					c.verdict = &vv
					s.changed(ChangePosition)
				}
			}
		})
		s.changed(ChangePosition)
	}
}

// Suggest asks the engine for attacker moves in the shown position (the
// attacker to move), as a job: the player's ranked moves with their scores
// and lines within PlayBudget when the verifier has a Player (PlayText
// sums them up), else the Suggester's candidates.
func (p *Prover) Suggest() {
	s, c := p.s, &p.s.cursor
	pl, isPlayer := s.verifier.(Player)
	sg, ok := s.verifier.(Suggester)
	if !ok && !isPlayer || p.suggest != nil {
		return
	}
	if c.pos.ToMove() != c.attacker {
		s.fail(fmt.Errorf("candidates are attacker moves: %s is the attacker, %s is to move",
			ColourName(c.attacker), ColourName(c.pos.ToMove())))
		return
	}
	if why := NoMove(c.pos); why != "" {
		s.fail(errors.New(why))
		return
	}
	if isPlayer {
		p.startPlay(pl, false)
		return
	}
	key, b := keyOf(c.pos), c.pos.Clone()
	var cs []Candidate
	var job *Job
	job = s.Start(JobSpec{
		Kind: jobSuggest,
		Run: func(ctx context.Context, _ BookStore, _ func(Progress)) (err error) {
			cs, err = sg.Candidates(ctx, b, 30)
			return err
		},
		OnDone: func(err error) {
			if p.suggest != job {
				return // another book was opened meanwhile
			}
			p.suggest = nil
			if err != nil {
				why := noCandCancelled
				if !errors.Is(err, context.Canceled) {
					why = noCandError
					s.fail(fmt.Errorf("candidates: %w", err))
				}
				p.setCandidates(nil, key, why)
				s.changed(ChangeCandidates)
				return
			}
			p.setCandidates(cs, key, noCandNoThreat)
			s.changed(ChangeCandidates)
		},
	})
	p.suggest = job
	s.changed(ChangeCandidates)
}

// Suggesting reports whether a candidate search or the player (Suggest,
// PlayEngineMove) is running.
func (p *Prover) Suggesting() bool { return p.suggest != nil }

// Candidates returns the engine's proposals for the shown position; ok is
// false when none were asked for it.
func (p *Prover) Candidates() (cs []Candidate, ok bool) {
	if !p.candsValid || p.candsKey != keyOf(p.s.cursor.pos) {
		return nil, false
	}
	return append([]Candidate(nil), p.cands...), true
}
