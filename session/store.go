package session

import (
	"context"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// The session never runs SQL. It talks to the proof book and to the
// verifier through the small interfaces below; the app wires them to
// proofbook and engine, the tests to in-memory fakes.

// Child is a stored move out of a position (a row of the replies list), in
// the orientation of the board it was asked for. New columns are new fields
// here, filled by the store.
type Child struct {
	Move   game.Move
	Status c6book.Status    // for the attacker asked for
	Label  string           // the child position's user label
	Note   bool             // the child position has a comment or marks
	Games  c6book.GameStats // the games through the position the move leads to
}

// Position is what the book knows about one position.
type Position struct {
	Found   bool // the position is stored in the book
	Comment string
	Label   string
	// Marks are the board labels (text on squares), in the orientation of
	// the board asked for.
	Marks  map[game.Square]string
	Status c6book.Status // for the attacker asked for
	// ByTwin: the position is proved by its twin (c6book.HowTwin), the
	// position less the defender stone TwinStone (orientation of the board
	// asked for), proved with a zone that misses it.
	ByTwin    bool
	TwinStone game.Square
	Verdict   *c6book.Verdict  // the latest verdict stored for the attacker, if any
	Games     c6book.GameStats // the games through the position
	// Held: the expert keeps the position for the attacker ("leave to
	// me"): the auto-pilot skips it and everything below it.
	Held bool
	// Warning is a line about the whole book the workbench shows in its
	// status bar, e.g. that its proofs were changed outside the program
	// since the last check (they then show as unchecked); "" when none.
	Warning string
	// Stuck says why the auto-pilot cannot work here for the attacker:
	// held, a dead end (its verdict leaves every defender move open) or
	// not stuck.
	Stuck c6book.StuckReason
}

// Entry is a position found by a query (proved positions, comment search,
// the next position to work on): its line from the root and a summary.
type Entry struct {
	// Line is the line from the root in the position's stable orientation
	// (nil when the store resolves it on demand: Resolve). The session
	// opens it in the orientation of the user's line when that line meets
	// it.
	Line   []game.Move
	Short  string // the line for a list row ("… 7. k9l9 8. m10m11"); "" to format Line
	Ref    int64  // the store's reference to the position
	Stones int    // stones on the board (for display when Line is nil)
	Status c6book.Status
	Label  string
	Text   string // comment excerpt
	// Stuck lists the positions on Line where the auto-pilot is stuck
	// (Next fills it).
	Stuck []StuckAt
}

// StuckAt is a position on a line where the auto-pilot is stuck: the one
// after the line's first Ply moves, and why (held, a dead end).
type StuckAt struct {
	Ply int
	Why c6book.StuckReason
}

// BookStore is the proof book as the workbench sees it. Positions are given
// as boards (the book reduces them by symmetry); moves come back in the
// orientation of the board that was passed in. Every call may touch disk and
// returns an error instead of panicking.
type BookStore interface {
	Rules() game.Rules
	Position(ctx context.Context, b *board.Board, attacker game.Color) (Position, error)
	// Children lists the stored moves out of b with their status for the
	// attacker; the whole list at once (the UI keeps it in memory).
	Children(ctx context.Context, b *board.Board, attacker game.Color) ([]Child, error)
	// AddMove stores the move m out of b (and the position it leads to);
	// created is false when it was already stored.
	AddMove(ctx context.Context, b *board.Board, m game.Move) (created bool, err error)
	// RemoveMove deletes the edge b -m-> (undo of AddMove); positions that
	// become unreachable may be kept or dropped by the book.
	RemoveMove(ctx context.Context, b *board.Board, m game.Move) error
	SetComment(ctx context.Context, b *board.Board, text string) error
	SetLabel(ctx context.Context, b *board.Board, label string) error
	SetMarks(ctx context.Context, b *board.Board, marks map[game.Square]string) error
	// SetDisproved records (or clears) the expert's judgement that the
	// attacker does not win b.
	SetDisproved(ctx context.Context, b *board.Board, attacker game.Color, on bool) error
	// StoreVerdict records the verdict of Verify on b (the defender to
	// move) and adds its unsolved defender moves as children of b; it
	// returns what it stored (the new replies, and what UndoVerdict
	// needs). RemoveMove refuses a reply a stored verdict that counts
	// leaves to prove: undo the verify instead.
	StoreVerdict(ctx context.Context, b *board.Board, v c6book.Verdict) (VerdictStored, error)
	// UndoVerdict takes back a StoreVerdict on b (st, its answer): the
	// verdict it replaced is back (none: b has no verdict), the replies it
	// added are removed (moves stored before stay) and the statuses are
	// derived again; the book is as it was before. It fails, changing
	// nothing, when b's verdict was replaced since.
	UndoVerdict(ctx context.Context, b *board.Board, st VerdictStored) error
	// Next returns the most-proving open position below b (b included)
	// for attacker: e.Line is the moves from b, in b's orientation; ok is
	// false when there is none.
	Next(ctx context.Context, b *board.Board, attacker game.Color) (e Entry, ok bool, err error)
	// Proved lists the proved positions for attacker whose λ order is at
	// least minOrder (0 adds the game ends).
	Proved(ctx context.Context, attacker game.Color, minOrder, limit int) ([]Entry, error)
	// Search lists the positions whose comment matches query, with their
	// status for attacker.
	Search(ctx context.Context, query string, attacker game.Color, limit int) ([]Entry, error)
	// GamesThrough lists the games that reached b (any move order or
	// orientation), offset and limit paging them, and how many there are.
	GamesThrough(ctx context.Context, b *board.Board, offset, limit int) ([]c6book.GameInfo, int64, error)
	// Game returns game id's turns in the orientation of b, a position it
	// reaches: each turn's stones in the order the game's record wrote
	// them ("h12k11"), which the line keeps for printing.
	Game(ctx context.Context, id int64, b *board.Board) ([][]game.Square, error)
	// Resolve returns a line from the root to an entry listed without one.
	Resolve(ctx context.Context, e Entry) ([]game.Move, error)
}

// VerdictStored is what StoreVerdict stored.
type VerdictStored struct {
	// Added are the moves out of b (b's orientation) it stored that were
	// not stored before.
	Added []game.Move
	// Undo is the store's own record of what the verdict replaced, for
	// UndoVerdict (the session only hands it back).
	Undo any
}

// ReadOnlyStore is implemented by a store that may be read-only: ReadOnly
// says why it cannot be written ("" when it can). The workbench then shows
// "read-only" and disables editing; moves not in the book can still be
// played on the board, without storing them.
type ReadOnlyStore interface {
	ReadOnly() string
}

// Progress is a job's progress report (the verifier's, an export's…).
type Progress struct {
	Phase       Phase
	Done, Total int
	Nodes       int64
	Elapsed     time.Duration
	Text        string // a line for people, when Phase/Done/Total do not say it
	// The player's and the auto-pilot's own reports, on their jobs.
	Play PlayProgress
	Auto c6book.ProveProgress
}

// Phase names what a job is doing, for its progress line: the verifier's
// phase (verify.VerifyPhase), the player's stage (player.PlayStage) or one
// of the session's own (phaseStoring, phaseAuto).
type Phase string

// The session's own phases.
const (
	phaseStoring Phase = "storing" // the verdict is being stored
	phaseAuto    Phase = "auto"    // the auto-pilot runs (Progress.Auto says more)
)

// Verifier runs the NCTU6-style verifier: its verdict is in the frame of b
// (c6book.FromEngine with symmetry 0), and StoreVerdict maps it into the
// book's. progress may be called from any goroutine and must not block.
type Verifier interface {
	Verify(ctx context.Context, b *board.Board, lambda int, progress func(Progress)) (c6book.Verdict, error)
}

// Candidate is a move the engine proposes for the side to move.
type Candidate struct {
	Move game.Move
	Note string // why: "wins by VCDT", "2 threats", the player's score and line…
	// The player's (Player) ranking: the move's score from the mover's
	// side, its principal variation (starting with Move), and whether the
	// opponent wins by VCDT after it.
	Score float64
	PV    []game.Move
	Loses bool
	// Unsearched: the budget ran out before the search scored this move
	// (Score means nothing; the order is the policy's).
	Unsearched bool
	// Games and Wins: the move's record in the LittleGolem games (decided
	// games through it and the mover's wins; 0: none).
	Games, Wins int
}

// Suggester proposes attacker moves (optional: a Verifier may implement it).
type Suggester interface {
	Candidates(ctx context.Context, b *board.Board, limit int) ([]Candidate, error)
}

// AutoOptions configure the auto-pilot (AutoProver).
type AutoOptions struct {
	Attacker game.Color
	Lambda   int           // 2 or 3
	Jobs     int           // verifier jobs at once (0: 1)
	MaxTime  time.Duration // 0: until stopped, proved or stuck
	MaxCalls int           // 0: no limit
}

// AutoResult is how an auto-pilot run ended.
type AutoResult struct {
	Status c6book.ProveStatus
	c6book.ProveProgress
}

// AutoProver runs the book's auto-pilot (optional: a BookStore may
// implement it). Prove works below b for opts.Attacker until it is proved,
// stuck, out of budget or ctx is done; every verdict is stored the moment
// its job ends. progress may be called from any goroutine and must not
// block.
type AutoProver interface {
	AutoProve(ctx context.Context, b *board.Board, opts AutoOptions, progress func(c6book.ProveProgress)) (AutoResult, error)
}

// Holder stores the expert's "leave to me" (optional: a BookStore may
// implement it).
type Holder interface {
	// SetHold marks (or unmarks) b, a stored position, as left to the
	// expert for attacker.
	SetHold(ctx context.Context, b *board.Board, attacker game.Color, on bool) error
}
