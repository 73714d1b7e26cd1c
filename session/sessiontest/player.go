package sessiontest

import (
	"context"
	"math"
	"sync"
	"time"

	"c6book/engine/board"
	"c6book/engine/player"
	"c6book/session"
)

// Player is a Verifier with the engine's player (session.Player). With
// Answer set it answers that (a scripted answer); else it runs player.Play
// with a node budget (Nodes, default 20000: the same move on every
// machine). With Release set it first reports Progress, one report after
// another, then waits until Release is closed or it is cancelled (the
// context's error).
type Player struct {
	Verifier
	Answer   *session.PlayAnswer
	Nodes    int64
	Progress []session.PlayProgress
	Release  chan struct{}
	// PlayStarted, when set, receives the position of each Play.
	PlayStarted chan *board.Board

	mu      sync.Mutex
	budgets []time.Duration
}

var _ session.Player = (*Player)(nil)

// Budgets are the budgets Play was called with.
func (p *Player) Budgets() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.budgets...)
}

// Play implements session.Player.
func (p *Player) Play(ctx context.Context, b *board.Board, budget time.Duration, progress func(session.PlayProgress)) (session.PlayAnswer, error) {
	p.mu.Lock()
	p.budgets = append(p.budgets, budget)
	p.mu.Unlock()
	if p.PlayStarted != nil {
		p.PlayStarted <- b.Clone()
	}
	for _, pr := range p.Progress {
		progress(pr)
	}
	if p.Release != nil {
		select {
		case <-p.Release:
		case <-ctx.Done():
			return session.PlayAnswer{}, ctx.Err()
		}
	}
	if p.Answer != nil {
		return *p.Answer, nil
	}
	nodes := p.Nodes
	if nodes <= 0 {
		nodes = 20000
	}
	res, err := player.Play(ctx, b, player.PlayOptions{MaxNodes: nodes})
	if err != nil {
		return session.PlayAnswer{}, err
	}
	a := session.PlayAnswer{Move: res.Move, Score: res.Score, PV: res.PV, Nodes: res.Nodes, Depth: res.Depth, Reason: res.Reason,
		Lost: res.Reason == player.PlayLost}
	for _, c := range res.Candidates {
		sc := c.Score
		if math.IsInf(sc, 0) {
			sc = 0
		}
		a.Ranked = append(a.Ranked, session.Candidate{Move: c.Move, Score: sc, PV: c.PV, Loses: c.Loses})
	}
	return a, nil
}
