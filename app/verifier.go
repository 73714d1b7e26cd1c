package main

import (
	"context"
	"math"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/service"
	"c6book/session"
)

// This file adapts the engine to the workbench's session: the Verify
// button's verifier (through the open book's queue, queue.go, and
// service.Verify, the one verifier path c6 verify takes too; the session
// then stores the verdict with service.Store's StoreVerdict) and the player
// behind Suggest and Engine move. The auto-pilot's verifier calls are wired
// in service.Store's AutoProve.

// engineVerifier runs the workbench's verifier jobs on v (the open
// book's queue; nil: verify.LocalVerifier).
type engineVerifier struct {
	limits  threat.Limits
	workers int
	v       verify.Verifier
	// playNodes bounds the player's work in nodes instead of time (tests:
	// the same answer on every machine; 0: the budget given).
	playNodes int64
	// budget (the Preferences' solver limits), when set, bounds each
	// solver call instead of limits.
	budget *solverBudget
}

func (ev engineVerifier) Verify(ctx context.Context, b *board.Board, lambda int, progress func(session.Progress)) (c6book.Verdict, error) {
	opts := verify.VerifyOptions{Lambda: lambda, Limits: ev.limits, Workers: ev.workers}
	if ev.budget != nil {
		opts.Limits = ev.budget.get()
	}
	res, err := service.Verify(ctx, ev.v, b, opts, func(p verify.VerifyProgress) {
		progress(session.Progress{Phase: session.Phase(p.Phase), Done: p.Done, Total: p.Total, Nodes: p.Nodes, Elapsed: p.Elapsed})
	})
	return res.Verdict, err // in b's frame
}

// The session finds the player by type assertion: a signature that drifts
// must fail here, not switch the player off.
var _ session.Player = engineVerifier{}

// threatNodes bounds the search for the opponent's winning line shown when
// every move loses.
const threatNodes = 200_000

// Play runs the engine's player (player.Play) on b within budget: the move
// for the side to move, every move it considered ranked with its score and
// line, and, when every move loses, the opponent's winning line after the
// best try.
func (ev engineVerifier) Play(ctx context.Context, b *board.Board, budget time.Duration, progress func(session.PlayProgress)) (session.PlayAnswer, error) {
	opts := player.PlayOptions{Timeout: budget, Progress: progress}
	if ev.playNodes > 0 {
		opts.Timeout, opts.MaxNodes = 0, ev.playNodes
	}
	res, err := player.Play(ctx, b, opts)
	if err != nil {
		return session.PlayAnswer{}, err
	}
	a := session.PlayAnswer{Move: res.Move, Score: res.Score, PV: res.PV, Nodes: res.Nodes, Depth: res.Depth, Reason: res.Reason,
		Elapsed: res.Elapsed, Lost: res.Reason == player.PlayLost || res.Score <= -player.WinScore/2}
	for _, c := range res.Candidates {
		pv := c.PV
		if len(pv) == 0 {
			pv = []game.Move{c.Move}
		}
		sc, unsearched := c.Score, math.IsInf(c.Score, 0) || math.IsNaN(c.Score)
		if unsearched {
			sc = 0 // the budget ran out before the search scored it
		}
		a.Ranked = append(a.Ranked, session.Candidate{Move: c.Move, Score: sc, PV: pv, Loses: c.Loses, Unsearched: unsearched,
			Games: c.Games, Wins: c.Wins})
	}
	if a.Lost {
		a.Threat = opponentWin(ctx, b, res)
	}
	return a, nil
}

// opponentWin is the opponent's winning line after res.Move at b (nil when
// none is found): the search's own line when it saw the loss, else a move
// that makes six, else a VCDT proof's line.
func opponentWin(ctx context.Context, b *board.Board, res player.PlayResult) []game.Move {
	after := b.Clone()
	if after.Play(res.Move) != nil || after.Winner() != game.Empty {
		return nil
	}
	if res.Score <= -player.WinScore/2 && len(res.PV) > 1 && res.PV[0] == res.Move {
		return res.PV[1:]
	}
	if mv, ok := after.WinningMove(after.ToMove()); ok && mv.Len() <= b.Rules().P {
		return []game.Move{mv}
	}
	if after.Empties() < b.Rules().P {
		return nil
	}
	r, err := threat.Solve(ctx, after, threat.Params{Mode: threat.VCDT, Limits: threat.Limits{MaxNodes: threatNodes}})
	if err != nil || r.Outcome != threat.Win {
		return nil
	}
	return r.Line
}
