package service

import (
	"context"
	"math"
	"time"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// ProveSettings are the auto-pilot's options as the user chooses them
// (c6 book prove's flags, the workbench's Auto).
type ProveSettings struct {
	Verify VerifySettings // each verifier call (Workers 0: Workers(Jobs))
	Jobs   int            // verifier jobs at once, on different positions
	// MaxTime and MaxCalls stop the run (0: no limit).
	MaxTime  time.Duration
	MaxCalls int
	// FirstNodes is the node budget of a position's first verification,
	// then four times more each time, up to Verify.MaxNodes (0: every
	// call at Verify.MaxNodes).
	FirstNodes int64
	// Candidates is the first batch of attacker moves at a position
	// (doubled when they all fail, up to 8 times as many).
	Candidates  int
	PlayerNodes int64 // the player's node budget choosing them
	// GameLCB: an imported attacker move is tried before the player's
	// when the lower confidence bound (Wilson, GameZ standard deviations)
	// of the attacker's win rate in its games is at least this (0: every
	// imported move; above 1: none).
	GameLCB, GameZ float64
	// Shapes is the shape moves (player.ShapeCandidates: the triangles of
	// Connect(6,2,3) and other compact shapes) mixed with the player's at
	// a position (0: none).
	Shapes int
	// Screen is the new attacker moves at a position verified at once at
	// ScreenNodes nodes a solver call (0: no screen): a move the screen
	// proves is proved, the others are ordered by what they leave.
	Screen      int
	ScreenNodes int64
	// MaxPlayerNodes bounds the player's budget, which grows fourfold with
	// each widening at a position (0: 16 times PlayerNodes).
	MaxPlayerNodes int64
	// NoLearn: the run does not learn the shapes of moves that proved
	// (autopilot.ProveOptions.NoLearn; learning is on by default);
	// Postpone: the player waits at a position's first expansion when
	// moves that proved a sibling are there to try first (off by default).
	// Measured: docs/BENCHMARKS.md.
	NoLearn, Postpone bool
	// Widen: a position asks for new attacker moves when its best move's
	// proof number exceeds Widen times the moves it has not seen fail
	// (1 or more; jobsearch.JobOptions.Widen).
	Widen int
	// Finish: every Finish-th job of the auto-pilot is spent below a
	// near-closed position (1 or more; autopilot.ProveOptions.Finish; 0:
	// never).
	Finish int
	// SeminullItemFrom (λ3; 0: never): a refuted seminull stone whose full
	// moves leave this many unsolved or more is left as one open seminull
	// item (verify.VerifyOptions.SeminullItemFrom).
	SeminullItemFrom int
	// SeminullWeight (λ3; 0: none): the proof number a seminull position
	// counts in the search beyond its own, for the full moves its proof
	// will leave (autopilot.ProveOptions.SeminullWeight).
	SeminullWeight int
}

// ProveDefaults are the auto-pilot's defaults (λ3).
func ProveDefaults() ProveSettings {
	v := DefaultVerify()
	v.Lambda = 3
	return ProveSettings{Verify: v, Jobs: 1, Candidates: 4, PlayerNodes: player.DefaultCandidateNodes,
		GameLCB: 0.5, GameZ: player.GameZ, Shapes: 8, ScreenNodes: autopilot.DefaultScreenNodes, Widen: autopilot.DefaultWiden,
		Finish: autopilot.DefaultFinish, SeminullItemFrom: autopilot.DefaultSeminullItemFrom,
		SeminullWeight: autopilot.DefaultSeminullWeight}
}

// Validate checks the settings: a *SettingError naming the first bad one
// (the verifier's first).
func (s ProveSettings) Validate() error {
	if err := s.Verify.Validate(); err != nil {
		return err
	}
	switch {
	case s.Jobs < 1:
		return &SettingError{"jobs", s.Jobs, "1 or more"}
	case s.MaxCalls < 0:
		return &SettingError{"max-calls", s.MaxCalls, "0 (no limit) or more"}
	case s.MaxTime < 0:
		return &SettingError{"time", s.MaxTime, "a positive duration (0: no limit)"}
	case s.FirstNodes < 0:
		return &SettingError{"first-nodes", s.FirstNodes, "0 (every call at --max-nodes) or more"}
	case s.Candidates < 1:
		return &SettingError{"candidates", s.Candidates, "1 or more"}
	case s.PlayerNodes < 1:
		return &SettingError{"player-nodes", s.PlayerNodes, "1 or more"}
	case s.Shapes < 0:
		return &SettingError{"shapes", s.Shapes, "0 (none) or more"}
	case s.Screen < 0:
		return &SettingError{"screen", s.Screen, "0 (no screen) or more"}
	case s.ScreenNodes < 1:
		return &SettingError{"screen-nodes", s.ScreenNodes, "1 or more"}
	case s.Widen < 1:
		return &SettingError{"widen", s.Widen, "1 or more"}
	case s.Finish < 0:
		return &SettingError{"finish", s.Finish, "0 (never) or more"}
	case s.SeminullItemFrom < 0:
		return &SettingError{"seminull-item-from", s.SeminullItemFrom, "0 (never) or more"}
	case s.SeminullWeight < 0:
		return &SettingError{"seminull-weight", s.SeminullWeight, "0 (none) or more"}
	case s.MaxPlayerNodes < 0:
		return &SettingError{"max-player-nodes", s.MaxPlayerNodes, "0 (16 times --player-nodes) or more"}
	case math.IsNaN(s.GameLCB) || math.IsInf(s.GameLCB, 0) || s.GameLCB < 0:
		return &SettingError{"game-lcb", s.GameLCB, "a number from 0 up (0: every imported move first; above 1: none)"}
	case math.IsNaN(s.GameZ) || math.IsInf(s.GameZ, 0) || s.GameZ <= 0:
		return &SettingError{"game-z", s.GameZ, "a positive number of standard deviations, e.g. 1.645"}
	}
	return nil
}

// SolverWorkers is the parallel solver calls inside each job: the
// setting, or the cores shared among the jobs (Workers).
func (s ProveSettings) SolverWorkers() int {
	if s.Verify.Workers > 0 {
		return s.Verify.Workers
	}
	return Workers(s.Jobs)
}

// Options are the store's auto-pilot options for attacker a.
func (s ProveSettings) Options(a game.Color) autopilot.ProveOptions {
	v := s.Verify.Options()
	v.Workers = s.SolverWorkers()
	v.SeminullItemFrom = s.SeminullItemFrom
	lcb := s.GameLCB
	if lcb == 0 {
		lcb = -1 // 0 there means the default: every bound is at least 0
	}
	finish := s.Finish
	if finish == 0 {
		finish = -1 // 0 there means the default: never is -1
	}
	weight := s.SeminullWeight
	if weight == 0 {
		weight = -1 // 0 there means the default: none is -1
	}
	shapes := s.Shapes
	if shapes == 0 {
		shapes = -1 // 0 there means the default: none is -1
	}
	return autopilot.ProveOptions{Attacker: a, Jobs: s.Jobs, FirstNodes: s.FirstNodes, MaxCalls: s.MaxCalls, MaxTime: s.MaxTime,
		Candidates: s.Candidates, MaxCandidates: 8 * s.Candidates, PlayerNodes: s.PlayerNodes, GameLCB: lcb, GameZ: s.GameZ,
		Shapes: shapes, Screen: s.Screen, ScreenNodes: s.ScreenNodes, MaxPlayerNodes: s.MaxPlayerNodes, Verify: v,
		NoLearn: s.NoLearn, Postpone: s.Postpone, Widen: s.Widen, Finish: finish, SeminullWeight: weight}
}

// Prove runs the auto-pilot (autopilot.Prove) below position b for
// attacker a, every verifier call through ver (nil: in this process).
func (bk *Book) Prove(ctx context.Context, b *board.Board, a game.Color, ver verify.Verifier, s ProveSettings, progress func(c6book.ProveProgress)) (autopilot.ProveResult, error) {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return autopilot.ProveResult{}, err
	}
	return prove(ctx, bk.pb, id, a, ver, s, progress)
}

// prove runs the auto-pilot below position id (Prove, and the workbench's
// Auto through Store.AutoProve).
func prove(ctx context.Context, pb *proofbook.Book, id proofbook.PosID, a game.Color, ver verify.Verifier, s ProveSettings, progress func(c6book.ProveProgress)) (autopilot.ProveResult, error) {
	if ver == nil {
		ver = verify.LocalVerifier{}
	}
	return autopilot.Prove(ctx, pb, id, ver, s.Options(a), progress)
}
