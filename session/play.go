package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
)

// The player in the workbench: Suggest lists the player's ranked moves for
// the shown position (the attacker to move) with their scores and
// principal variations; PlayEngineMove plays the player's move for the side
// to move, as a user's move would be played. Both run as a job within the
// session's budget (PlayBudget), report their latest progress and stop on
// Stop.

// defaultPlayBudget is the player's time for a move until SetPlayBudget.
const defaultPlayBudget = time.Second

// PlayProgress is the player's progress: the engine's report itself, one
// type from the engine to the workbench (not a copy made field by field).
type PlayProgress = player.PlayProgress

// PlayAnswer is the player's answer for a position.
type PlayAnswer struct {
	Move game.Move
	// Score is from the mover's side: player.WinScore less the turns to
	// the win for a win found, its negative for a loss.
	Score  float64
	PV     []game.Move // from the position, starting with Move
	Nodes  int64
	Depth  int
	Reason player.PlayReason // the engine's
	// Ranked are the moves the player considered, best first, with their
	// Score and PV.
	Ranked []Candidate
	// Lost: every move loses (the opponent has more threats than one turn
	// blocks, or wins after every move searched).
	Lost bool
	// Threat is, when Lost, the opponent's winning line after Move (from
	// the position after it; empty when the player could not find it).
	Threat  []game.Move
	Elapsed time.Duration
}

// Player is the engine's player (optional: a Verifier may implement it;
// Suggest then uses it instead of Suggester). Play chooses the move of the
// side to move at b within budget; progress may be called from any
// goroutine and must not block. A cancelled Play returns ctx's error.
type Player interface {
	Play(ctx context.Context, b *board.Board, budget time.Duration, progress func(PlayProgress)) (PlayAnswer, error)
}

// playState is the player's run and its last answer.
type playState struct {
	budget time.Duration // 0: defaultPlayBudget
	run    int           // bumped at each start: reports of older runs are dropped
	job    *Job          // the running Play (nil when none; Prover.suggest too)
	move   bool          // the run plays its move (PlayEngineMove), else lists (Suggest)
	key    posKey        // the position it runs on
	prog   PlayProgress  // its latest progress
	hasPrg bool

	answer    *PlayAnswer // the last Suggest answer, for ansKey
	ansKey    posKey
	text      string // what the last run left to say ("stopped"…), for textKey
	textKey   posKey
	textVisit int
}

// PlayBudget is the player's time for a move (Suggest, PlayEngineMove).
func (p *Prover) PlayBudget() time.Duration {
	if p.play.budget <= 0 {
		return defaultPlayBudget
	}
	return p.play.budget
}

// SetPlayBudget sets the player's time for a move (≤ 0: the default);
// the next run uses it.
func (p *Prover) SetPlayBudget(d time.Duration) {
	if d < 0 {
		d = 0
	}
	p.play.budget = d
}

// player is the engine's player, if the verifier has one.
func (p *Prover) player() (Player, bool) {
	pl, ok := p.s.verifier.(Player)
	return pl, ok
}

// HasPlayer reports whether the engine's player is available.
func (p *Prover) HasPlayer() bool {
	_, ok := p.player()
	return ok
}

// NoMove says why the side to move has no move at b ("" when it has one):
// the game is over or the board is full.
func NoMove(b *board.Board) string {
	if w := b.Winner(); w != game.Empty {
		return fmt.Sprintf("the game is over: %s has won", ColourName(w))
	}
	if b.Empties() == 0 {
		return "the board is full: there is no legal move"
	}
	return ""
}

// Thinking reports whether the player runs (for Suggest or for an engine
// move), and whether it is for an engine move.
func (p *Prover) Thinking() (running, engineMove bool) {
	return p.play.job != nil, p.play.move
}

// PlayEngineMove plays the player's move for the side to move, once it has
// chosen it (within PlayBudget, off the UI goroutine): the line goes on
// with it as with a move the user plays (stored when new, an undoable
// edit). Stop cancels it; a move chosen after the user moved on is not
// played.
func (p *Prover) PlayEngineMove() {
	s, c := p.s, &p.s.cursor
	pl, ok := p.player()
	if !ok {
		s.fail(errors.New("engine move: no engine player"))
		return
	}
	if p.suggest != nil {
		return // the player is busy
	}
	if why := NoMove(c.pos); why != "" {
		s.fail(errors.New("engine move: " + why))
		return
	}
	c.DropPending()
	p.startPlay(pl, true)
}

// startPlay runs the player on the shown position.
func (p *Prover) startPlay(pl Player, move bool) {
	s, c := p.s, &p.s.cursor
	p.play.run++
	run, key, visit, b, budget := p.play.run, keyOf(c.pos), c.visit, c.pos.Clone(), p.PlayBudget()
	var ans PlayAnswer
	var job *Job
	job = s.Start(JobSpec{
		Kind: jobPlay,
		Run: func(ctx context.Context, _ BookStore, progress func(Progress)) error {
			var err error
			ans, err = pl.Play(ctx, b, budget, func(pp PlayProgress) {
				progress(Progress{Phase: Phase(pp.Stage), Nodes: pp.Nodes, Elapsed: pp.Elapsed, Play: pp})
			})
			return err
		},
		OnProgress: func(pr Progress) {
			if p.play.run == run && p.play.job == job {
				p.play.prog, p.play.hasPrg = pr.Play, true
				s.changed(ChangeCandidates)
			}
		},
		OnDone: func(err error) { p.finishPlay(job, run, key, visit, ans, err) },
	})
	p.play.job, p.play.move, p.play.key = job, move, key
	p.play.prog, p.play.hasPrg = PlayProgress{}, false
	p.play.text = ""
	p.suggest = job
	s.changed(ChangeCandidates)
}

func (p *Prover) finishPlay(job *Job, run int, key posKey, visit int, ans PlayAnswer, err error) {
	s, c := p.s, &p.s.cursor
	if p.play.job != job || p.play.run != run {
		return // another book was opened meanwhile
	}
	move := p.play.move
	p.play.job, p.suggest = nil, nil
	defer s.changed(ChangeCandidates)
	if err != nil {
		text, why := "Stopped.", noCandCancelled
		if !errors.Is(err, context.Canceled) {
			text, why = "The engine failed: "+err.Error(), noCandError
			s.fail(fmt.Errorf("engine: %w", err))
		}
		p.play.text, p.play.textKey, p.play.textVisit = text, key, visit
		if !move {
			p.setCandidates(nil, key, why)
		}
		return
	}
	if !move {
		a := ans
		if len(a.Ranked) == 0 && a.Move.Len() > 0 {
			// The player answered at once (a six, a VCDT, the only move,
			// the opening book) without ranking others: its move is the
			// candidate.
			pv := a.PV
			if len(pv) == 0 || pv[0] != a.Move {
				pv = []game.Move{a.Move}
			}
			a.Ranked = []Candidate{{Move: a.Move, Score: a.Score, PV: pv}}
		}
		a.Ranked = noted(s.rules, a.Ranked)
		if len(a.Ranked) == 1 && a.Ranked[0].Move == a.Move {
			if r := reasonText(a.Reason); r != "" {
				a.Ranked[0].Note = r + " · " + a.Ranked[0].Note
			}
		}
		p.play.answer, p.play.ansKey = &a, key
		p.setCandidates(a.Ranked, key, noCandNoMove)
		return
	}
	switch {
	case visit != c.visit || keyOf(c.pos) != key:
		p.play.text, p.play.textKey, p.play.textVisit = "The engine's move was not played: the position changed meanwhile.", keyOf(c.pos), c.visit
	case ans.Move.Len() == 0:
		s.fail(errors.New("engine move: the engine gave no move"))
	default:
		text := "Engine played " + game.MoveName(s.rules, ans.Move) + " (" + scoreText(ans.Score) + ")"
		if ans.Lost {
			text += ": every move loses"
		}
		c.PlayMove(ans.Move)
		p.play.text, p.play.textKey, p.play.textVisit = text+".", keyOf(c.pos), c.visit
	}
}

// reasonText is how the player found its move, when it did not search:
// "makes six", "wins by VCDT", "the only move", "from the opening book".
func reasonText(reason player.PlayReason) string {
	switch reason {
	case player.PlaySix:
		return "makes six"
	case player.PlayVCDT, player.PlayVCST:
		return "wins by " + strings.ToUpper(string(reason))
	case player.PlayOnly:
		return "the only move"
	case player.PlayOpening:
		return "from the opening book"
	}
	return ""
}

// noted fills each candidate's Note: its score and principal variation.
func noted(r game.Rules, cs []Candidate) []Candidate {
	out := make([]Candidate, len(cs))
	for i, c := range cs {
		note := scoreText(c.Score)
		if c.Unsearched {
			note = "not searched (out of time)"
		}
		if c.Games > 0 {
			note += fmt.Sprintf(" · games: %d of %d won", c.Wins, c.Games)
		}
		if c.Loses {
			note += " · loses to a VCDT"
		}
		if len(c.PV) > 1 && c.PV[0] == c.Move {
			note += " · then " + lineText(r, c.PV[1:], 6)
		}
		c.Note = note
		out[i] = c
	}
	return out
}

// scoreText is a player's score for people: "+1.25", "wins in 3 turns",
// "loses in 2 turns".
func scoreText(sc float64) string {
	switch {
	case sc >= player.WinScore/2:
		return "wins in " + turns(max(int(player.WinScore-sc+0.5), 1))
	case sc <= -player.WinScore/2:
		return "loses in " + turns(max(int(player.WinScore+sc+0.5), 1))
	}
	return fmt.Sprintf("%+.2f", sc)
}

func turns(n int) string {
	return Plural(n, "turn", "turns")
}

// lineText names up to n moves of a line, "…" after them.
func lineText(r game.Rules, ms []game.Move, n int) string {
	parts := make([]string, 0, min(len(ms), n)+1)
	for i, m := range ms {
		if i == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, game.MoveName(r, m))
	}
	return strings.Join(parts, " ")
}

// playAnswer is the player's last Suggest answer for the shown position
// (ok false when there is none).
func (p *Prover) playAnswer() (a PlayAnswer, ok bool) {
	if p.play.answer == nil || p.play.ansKey != keyOf(p.s.cursor.pos) {
		return PlayAnswer{}, false
	}
	return *p.play.answer, true
}

// PlayText is what the player has to say about the shown position: its
// progress while it runs, the summary of its answer (the best move, its
// score and line; that every move loses and the opponent's threat), why it
// cannot run, or what its last run left to say. "" when nothing.
func (p *Prover) PlayText() string {
	r, pos := p.s.rules, p.s.cursor.pos
	if p.play.job != nil {
		what := "Suggest"
		if p.play.move {
			what = "Engine move"
		}
		budget := p.PlayBudget()
		if !p.play.hasPrg {
			return fmt.Sprintf("%s: thinking (%s)…", what, budget)
		}
		pr := p.play.prog
		text := fmt.Sprintf("%s: thinking (%s of %s) · %s · %s", what, pr.Elapsed.Round(100*time.Millisecond), budget, pr.Stage, Plural(pr.Nodes, "node", "nodes"))
		if pr.Best.Len() > 0 {
			text += fmt.Sprintf(" · depth %d, best %s (%s)", pr.Depth, game.MoveName(r, pr.Best), scoreText(pr.Score))
		}
		return text + "…"
	}
	if why := NoMove(pos); why != "" {
		return strings.ToUpper(why[:1]) + why[1:] + "."
	}
	if p.play.text != "" && p.play.textKey == keyOf(pos) && p.play.textVisit == p.s.cursor.visit {
		return p.play.text
	}
	a, ok := p.playAnswer()
	if !ok {
		return ""
	}
	mover, opp := ColourName(pos.ToMove()), ColourName(pos.ToMove().Opp())
	var sb strings.Builder
	if a.Lost {
		fmt.Fprintf(&sb, "%s loses: %s wins whatever %s plays.", mover, opp, mover)
		if len(a.Threat) > 0 {
			fmt.Fprintf(&sb, " The threat: after %s, %s plays %s.", game.MoveName(r, a.Move), opp, lineText(r, a.Threat, 8))
		} else {
			fmt.Fprintf(&sb, " (The engine did not find %s's winning line after %s.)", opp, game.MoveName(r, a.Move))
		}
		sb.WriteString(" (")
	} else {
		fmt.Fprintf(&sb, "Best %s (%s)", game.MoveName(r, a.Move), scoreText(a.Score))
		switch a.Reason {
		case player.PlaySix:
			sb.WriteString(": makes six")
		case player.PlayVCDT, player.PlayVCST:
			fmt.Fprintf(&sb, ": wins by %s", strings.ToUpper(string(a.Reason)))
		case player.PlayOnly:
			sb.WriteString(": the only move")
		case player.PlayGames:
			sb.WriteString(": the best record in the games")
		}
		// (Each ranked move's row shows its line.)
		sb.WriteString(" · ")
	}
	el := a.Elapsed.Round(100 * time.Millisecond)
	if a.Elapsed < time.Second {
		el = a.Elapsed.Round(10 * time.Millisecond) // (not "0s")
	}
	fmt.Fprintf(&sb, "depth %d · %s · %s", a.Depth, Plural(a.Nodes, "node", "nodes"), el)
	if a.Lost {
		sb.WriteString(")")
	}
	return sb.String()
}
