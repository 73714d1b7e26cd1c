package threat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/latest"
)

// Mode selects the threat-space search.
type Mode int

const (
	// VCDT wins by continuous double threats (λ1).
	VCDT Mode = 1
	// VCST wins by continuous single or double threats (λ2); after a single
	// threat the defender's free stone is bounded by relevance zones.
	VCST Mode = 2
)

func (m Mode) String() string {
	switch m {
	case VCDT:
		return "vcdt"
	case VCST:
		return "vcst"
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

// ParseMode reads "vcdt" or "vcst".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "vcdt", "VCDT":
		return VCDT, nil
	case "vcst", "VCST":
		return VCST, nil
	}
	return 0, fmt.Errorf("mode %q: want vcdt or vcst", s)
}

// ParseFreePolicy reads "near" or "all".
func ParseFreePolicy(s string) (board.FreePolicy, error) {
	switch s {
	case "near":
		return board.FreeNear, nil
	case "all":
		return board.FreeAll, nil
	}
	return 0, fmt.Errorf("free-stone policy %q: want near or all", s)
}

// DefaultMaxNodes is the node budget when Limits.MaxNodes is zero.
const DefaultMaxNodes = 1_000_000

// Limits bound a search. Zero values mean: MaxNodes DefaultMaxNodes; no
// time limit; no depth limit.
type Limits struct {
	MaxNodes int64
	Timeout  time.Duration
	MaxDepth int // attacker moves on a line (0: unlimited)
}

// Progress is reported during a search.
type Progress struct {
	Nodes   int64
	Depth   int // deepest attacker move count seen
	Elapsed time.Duration
	Line    []game.Move // most-proving line
	PN, DN  uint32      // root proof and disproof numbers
}

// Params configure Solve.
type Params struct {
	Mode   Mode
	Limits Limits
	// Free is where free stones of attacker moves may go.
	Free board.FreePolicy
	// Tolerance is the number of defender stones the root's relevance zone
	// must tolerate: 0 for a position reached by a full defender move, 1
	// after a seminull move, p after a null move.
	Tolerance int
	// Progress, when set, receives reports from a separate goroutine, one
	// call at a time; a slow callback drops reports, it never slows the
	// search. Solve waits for a call in flight before it returns, unless
	// ctx is done: a cancelled Solve returns even if the callback is stuck.
	Progress func(Progress)
	// ProgressEvery is the minimum interval between reports (default 200ms).
	ProgressEvery time.Duration
	// keyHook, a test hook, sees the Zobrist key of every OR node the
	// search looks up in its transposition table.
	KeyHook func(key uint64)
	// expandHook, a test hook, sees the board at every OR node expanded.
	ExpandHook func(b *board.Board)
}

// Outcome of a search.
type Outcome int

const (
	// Unknown: no win found (see Result.Reason).
	Unknown Outcome = iota
	// Win: the attacker (the side to move) wins; Result.Tree proves it.
	Win
)

func (o Outcome) String() string {
	if o == Win {
		return "win"
	}
	return "unknown"
}

// UnsolvedReason says why a search found no win (Result.Reason) or why
// the verifier left a defender move unsolved (UnsolvedMove.Reason). The
// values are stored in verdicts: they keep their bytes.
type UnsolvedReason string

// Reasons for Unknown.
const (
	ReasonExhausted UnsolvedReason = "exhausted" // the threat space holds no win
	ReasonBudget    UnsolvedReason = "budget"    // node or time limit reached
	ReasonCancelled UnsolvedReason = "cancelled" // the context was cancelled
	ReasonLoss      UnsolvedReason = "lost"      // the defender has more than p threats
)

// Result of Solve.
type Result struct {
	Outcome  Outcome
	Reason   UnsolvedReason
	Move     game.Move     // the winning move
	Line     []game.Move   // principal line: attacker, defender, attacker, ...
	Nodes    int64         // tree nodes created
	Evals    int64         // positions evaluated by move generation
	Elapsed  time.Duration // wall time
	Tree     *Strategy     // the full solution tree (wins only)
	Mode     Mode          // the search that decided: VCST's double-threat pre-pass reports VCDT
	Zone     []game.Square // relevance zone of the root at the requested tolerance
	MaxDepth int
}

// Strategy is a solution tree node: the attacker plays Move, and for every
// defender reply the proof covers there is a sub-strategy. Replies with one
// stone (Seminull) stand for every defender move (s, s') with s' outside
// that reply's Zone; the moves with s' inside it are listed as replies too.
type Strategy struct {
	Move    game.Move
	Threats int           // attacker threats after Move (p+1: cannot be blocked)
	Six     bool          // Move makes k in a row
	Zone    []game.Square // relevance zone of the position before Move
	Replies []Reply       // defender replies and the attacker's answers
}

// Reply is a defender reply in a Strategy.
type Reply struct {
	Move     game.Move
	Seminull bool
	Then     *Strategy
}

// ErrUnsupported is returned for rules the solvers do not handle.
var ErrUnsupported = errors.New("solver supports p <= 2 only")

// Solve searches for a win of the side to move (the attacker) in the
// threat space of p.Mode by proof-number search. The board is not modified.
func Solve(ctx context.Context, b *board.Board, p Params) (Result, error) {
	if b.Rules().P > 2 {
		return Result{}, ErrUnsupported
	}
	if p.Mode != VCDT && p.Mode != VCST {
		return Result{}, fmt.Errorf("solve: unknown mode %d", p.Mode)
	}
	if b.Winner() != game.Empty {
		return Result{}, fmt.Errorf("solve: the game is over (%s has won)", b.Winner())
	}
	if b.Turn() == 0 && !b.FromSetup() && b.Stones(game.Black)+b.Stones(game.White) == 0 && b.Rules().Q != b.Rules().P {
		return Result{}, fmt.Errorf("solve: Black's first turn places %d stones; the solver plays %d a turn", b.Rules().Q, b.Rules().P)
	}
	if b.Empties() < b.Rules().P {
		return Result{}, errors.New("solve: too few empty squares for a full turn")
	}
	if p.Mode == VCST {
		return solveVCST(ctx, b, p)
	}
	return newSearch(ctx, b, p).run()
}

// vcstStages are solveVCST's searches, in order: the mode, and the most
// single-threat moves a line may hold (0: no cap).
var vcstStages = [...]struct {
	mode      Mode
	singleCap int8
}{{VCDT, 0}, {VCST, 1}, {VCST, 0}}

// solveVCST searches in stages, each on what the earlier ones left of the
// budget: VCDT first, then VCST with at most one single-threat move on a
// line, then VCST without a cap. A double-threat win is a VCST win too, so
// VCST never finds fewer wins than VCDT with the same budget (VCDT usually
// decides within a few thousand nodes), and a single threat followed by
// double threats (the commonest single-threat win) is found before the
// search spreads over lines of many single threats, whose threat space is
// far larger. A stage runs only when the one before has exhausted its
// threat space, and looks up the positions the earlier stages proved (a
// proof at a tolerance holds in any search of the same attacker).
func solveVCST(ctx context.Context, b *board.Board, p Params) (Result, error) {
	start := time.Now()
	lim := p.Limits
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = DefaultMaxNodes
	}
	// The stages report through one reporter, so that the caller's
	// callback is never called twice at once, even when a stage gave up
	// on a callback stuck at cancellation.
	prog := latest.NewReporter(p.Progress)
	defer prog.Stop(ctx)
	var (
		prev  *search
		total Result
	)
	for _, st := range vcstStages {
		sp := p
		sp.Mode = st.mode
		sp.Limits.MaxNodes = lim.MaxNodes - total.Nodes
		if sp.Limits.MaxNodes < 1 || (lim.Timeout > 0 && time.Since(start) >= lim.Timeout) {
			total.Reason = ReasonBudget
			break
		}
		s := newSearch(ctx, b, sp)
		s.prog = prog
		s.singleCap = st.singleCap
		if lim.Timeout > 0 {
			// The time budget counts from Solve's start, for all stages.
			s.deadline = start.Add(lim.Timeout)
		}
		if prev != nil {
			s.seedProofs(prev)
		}
		r, err := s.run()
		r.Nodes += total.Nodes
		r.Evals += total.Evals
		total = r
		if err != nil {
			return total, err
		}
		if r.Reason != ReasonExhausted {
			break
		}
		prev = s
	}
	total.Elapsed = time.Since(start)
	return total, nil
}

// Transform returns a copy of the strategy with every move and zone mapped
// by symmetry sym.
func (st *Strategy) Transform(r game.Rules, sym int) *Strategy {
	if st == nil {
		return nil
	}
	out := &Strategy{Move: r.TransformMove(sym, st.Move), Threats: st.Threats, Six: st.Six,
		Zone: game.TransformSquares(r, sym, st.Zone)}
	if st.Replies != nil {
		out.Replies = make([]Reply, len(st.Replies))
		for i, rp := range st.Replies {
			out.Replies[i] = Reply{Move: r.TransformMove(sym, rp.Move), Seminull: rp.Seminull, Then: rp.Then.Transform(r, sym)}
		}
	}
	return out
}
