package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/latest"

	"github.com/mattn/go-sqlite3"
)

// ImportOptions tune ImportGames.
type ImportOptions struct {
	// Source names the games' origin (default "littlegolem"); a game is
	// stored once per (source, id), so importing it again changes nothing.
	Source string
	// Batch is the most games per transaction (default 500). Each game
	// is also in its own savepoint: a bad game is skipped whole.
	Batch int
	// MaxTxTime bounds each write transaction in time whatever Batch says
	// (default DefaultMaxTxTime): other writers of the book wait for the
	// lock no longer than that.
	MaxTxTime time.Duration
	// OnCommit, when set, is called after each committed transaction with
	// the ids of the games it stored.
	OnCommit func(ids []string)
	// Progress, when set, is called after each transaction, on the
	// importing goroutine (the import waits for it): done counts the games
	// settled by committed transactions. OnProgress is the better choice
	// for a user interface.
	Progress func(done, total int)
	// OnProgress, when set, receives what committed transactions have
	// stored so far, at most once per ProgressEvery, then once more with
	// Final set when the import ends (finished, cancelled or failed),
	// before ImportGames returns. It runs on a goroutine of its own and
	// never holds up the import: a report that comes while the previous
	// call is still running replaces any report still waiting, so a slow
	// callback sees fewer, always current, reports. It must not wait for
	// ImportGames to return.
	OnProgress func(ImportProgress)
	// ProgressEvery is the least time between two OnProgress reports
	// (default 100 ms).
	ProgressEvery time.Duration
	// maxFileBytes replaces MaxGamesFileBytes (tests).
	maxFileBytes int64
}

// ImportProgress is what an import has committed so far. The counts are
// those of ImportStats at that moment: a cancelled import's final report
// says exactly what the book holds of it.
type ImportProgress struct {
	Total   int // games in the file
	Done    int // games settled by committed transactions (stored, already there or skipped)
	Stored  int // games stored
	Already int // games that were in the book
	Skipped int // games skipped (bad moves)
	// Positions and Edges are the new positions and moves stored.
	Positions, Edges int
	// Final: the import has ended; Err says how when it did not finish
	// (context.Canceled when it was cancelled).
	Final bool
	Err   error
}

// endProgress delivers p, an import's or a merge's final report, and
// waits until it has been delivered (box nil: none).
func endProgress[T any](box *latest.Box[T], p T) {
	box.Put(p)
	box.Close(context.Background())
}

func (st ImportStats) progress(done, total int) ImportProgress {
	return ImportProgress{Total: total, Done: done, Stored: st.Games, Already: st.Already, Skipped: len(st.Skipped),
		Positions: st.Positions, Edges: st.Edges}
}

// DefaultMaxTxTime is how long an import holds the write lock at most
// before it commits (a game in progress is finished first).
const DefaultMaxTxTime = 100 * time.Millisecond

// GameError says why a game was skipped.
type GameError struct {
	ID  string
	Err error
}

func (e GameError) Error() string { return fmt.Sprintf("game %s: %v", e.ID, e.Err) }

// errNotation marks a turn that cannot be read (not a skip reason of the
// engine's).
var errNotation = errors.New("unreadable turn")

// SkipReason is a short, fixed description of why a game was skipped, for
// counting skipped games by kind (GameError.Reason). Its bytes are what c6
// book import-games prints and its JSON writes.
type SkipReason string

// Why a game was skipped.
const (
	SkipGameOver   SkipReason = "continues after the game ended"
	SkipOccupied   SkipReason = "plays on an occupied square"
	SkipStoneCount SkipReason = "wrong number of stones in a turn"
	SkipDuplicate  SkipReason = "the same square twice in a turn"
	SkipOffBoard   SkipReason = "a stone off the board"
	SkipNotation   SkipReason = "unreadable turn"
	SkipCollision  SkipReason = "hash collision"
	SkipOther      SkipReason = "other error"
)

// Reason says why the game was skipped, by kind.
func (e GameError) Reason() SkipReason {
	switch {
	case errors.Is(e.Err, board.ErrGameOver):
		return SkipGameOver
	case errors.Is(e.Err, board.ErrOccupied):
		return SkipOccupied
	case errors.Is(e.Err, board.ErrStoneCount):
		return SkipStoneCount
	case errors.Is(e.Err, board.ErrDuplicate):
		return SkipDuplicate
	case errors.Is(e.Err, board.ErrOffBoard):
		return SkipOffBoard
	case errors.Is(e.Err, errNotation):
		return SkipNotation
	case errors.Is(e.Err, ErrCollision):
		return SkipCollision
	}
	return SkipOther
}

// ImportStats summarises an import.
type ImportStats struct {
	Games   int // games stored (SGF: game trees merged)
	Already int // games already in the book
	// Recorded (SGF) counts the game records stored for the statistics
	// (see ImportSGF).
	Recorded int
	// Repaired counts the games already in the book whose turns an
	// upgrade had rebuilt (choosing between transpositions): they now
	// have their own turns, and the counts follow (see backfillGames).
	Repaired  int
	Skipped   []GameError
	Positions int // new positions
	Edges     int // new moves
	// Transactions committed, and the longest time one held the write lock.
	Transactions int
	LongestTx    time.Duration
}

// ImportGames stores games read from r, a games file {"gid": ["j10",
// "j11k10", ...], ...}, plain or gzip-compressed, merging them into the
// tree in the order of their ids (numeric ids by value). The whole file is
// checked first, one game at a time (see MaxGamesFileBytes and the other
// limits), and copied to a temporary file: a file that is not a games file,
// or that breaks a limit, is refused with an error naming the entry and
// nothing is written. Games with an illegal or unreadable move are skipped
// whole and listed in the result (GameError.Reason counts them by kind);
// everything else is committed batch by batch, so an interrupted import
// keeps every committed game. A transaction holds the write lock for about
// MaxTxTime at most, whatever the batch, and the lock is left free for a
// moment between transactions (a tenth of the last one's time), so that
// other programs' writes get through during a long import.
func (bk *Book) ImportGames(ctx context.Context, r io.Reader, opts ImportOptions) (ImportStats, error) {
	maxBytes := int64(MaxGamesFileBytes)
	if opts.maxFileBytes > 0 {
		maxBytes = opts.maxFileBytes
	}
	src, err := spoolGames(ctx, r, maxBytes)
	if err != nil {
		if opts.OnProgress != nil {
			opts.OnProgress(ImportProgress{Final: true, Err: err})
		}
		return ImportStats{}, err
	}
	defer src.Close()
	return bk.importFrom(ctx, src, opts)
}

// gamePrep is a game replayed off the writer: its prepared moves, or why
// it cannot be stored. known: the game was in the book when the import
// began, so it was not replayed.
type gamePrep struct {
	id    string
	turns []string
	moves []game.Move // the turns as played
	// written: each turn's stones in the record's order
	written [][]game.Square
	steps   []prepared
	err     error
	known   bool
	// fatal: the game could not be read back; the import stops.
	fatal error
}

// prepareGame replays one game from the empty board.
func (bk *Book) prepareGame(g *gamePrep, turns []string, cells []game.Color) {
	r := bk.rules
	ms, written, err := parseGame(r, turns)
	if err != nil {
		g.err = err
		return
	}
	g.moves, g.written = ms, written
	b := bk.tmpl.Clone()
	sym, list := 0, []stone(nil) // the empty board's canonical frame
	for i, m := range ms {
		p, err := prepare(r, b, sym, list, m, false, cells)
		if err != nil {
			if me := (*board.MoveError)(nil); errors.As(err, &me) {
				// It names the turn already: "k10 at turn 2: ...".
				err = fmt.Errorf("%s at %w", game.MoveName(r, m), err)
			} else {
				err = fmt.Errorf("turn %d (%s): %w", i+1, game.MoveName(r, m), err)
			}
			g.err, g.steps = err, nil
			return
		}
		g.steps = append(g.steps, p)
		sym, list = p.sym, p.list
	}
}

// knownGames lists the ids of the games stored under source.
func (bk *Book) knownGames(ctx context.Context, source string) (map[string]bool, error) {
	// A game whose turns an upgrade rebuilt is not known: it is replayed,
	// to put its own turns (see repairGame).
	rows, err := bk.r.QueryContext(ctx, "SELECT ext_id FROM game WHERE source = ? AND rebuilt = 0", source)
	if err != nil {
		return nil, fmt.Errorf("reading the stored games: %w", err)
	}
	defer rows.Close()
	known := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("reading the stored games: %w", err)
		}
		known[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the stored games: %w", err)
	}
	return known, nil
}

// prepareGames replays the games in order on its own goroutine (the engine
// work: legality, canonical keys and frames), so that the writer only runs
// SQL. Games already stored (known) are not replayed. It stops when ctx is
// done.
func (bk *Book) prepareGames(ctx context.Context, known map[string]bool, src gameSource) <-chan gamePrep {
	ch := make(chan gamePrep, 256)
	go func() {
		defer close(ch)
		cells := make([]game.Color, bk.rules.Squares())
		for i := range src.Len() {
			id := src.ID(i)
			g := gamePrep{id: id, known: known[id]}
			g.turns, g.fatal = src.Turns(i)
			if !g.known && g.fatal == nil {
				bk.prepareGame(&g, g.turns, cells)
			}
			select {
			case ch <- g:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

func (bk *Book) importFrom(ctx context.Context, src gameSource, opts ImportOptions) (_ ImportStats, err error) {
	var st ImportStats
	total := src.Len()
	received, done := 0, 0
	var box *latest.Box[ImportProgress]
	if opts.OnProgress != nil {
		box = &latest.Box[ImportProgress]{Deliver: opts.OnProgress, Gap: opts.ProgressEvery}
		if box.Gap <= 0 {
			box.Gap = 100 * time.Millisecond
		}
		box.Put(st.progress(0, total))
		defer func() {
			p := st.progress(done, total)
			p.Err, p.Final = err, true
			endProgress(box, p)
		}()
	}
	if opts.Source == "" {
		opts.Source = "littlegolem"
	}
	if opts.Batch <= 0 {
		opts.Batch = 500
	}
	maxTx := opts.MaxTxTime
	if maxTx <= 0 {
		maxTx = DefaultMaxTxTime
	}
	known, err := bk.knownGames(ctx, opts.Source)
	if err != nil {
		return st, err
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prepped := bk.prepareGames(pctx, known, src)
	var pending []gamePrep // prepared games not stored yet, in order
	for received < total || len(pending) > 0 {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if len(pending) == 0 {
			// Wait for the next game off the lock.
			g, ok := <-prepped
			if !ok {
				return st, ctx.Err()
			}
			received++
			pending = append(pending, g)
		}
		var stored []string
		var bst ImportStats
		var used int
		var txStart time.Time
		// writeRetry: other programs' writes (verdicts, notes) may keep
		// the lock past the busy timeout on a loaded machine; the import
		// waits for them (it stays cancellable) instead of stopping. The
		// transaction starts its batch over each try.
		err := bk.writeRetry(ctx, func(tx *sql.Tx) error {
			txStart = time.Now()
			bst = ImportStats{}
			stored = stored[:0]
			used = 0
			w, err := bk.newWtx(ctx, tx)
			if err != nil {
				return err
			}
			has, err := tx.PrepareContext(ctx, "SELECT id, rebuilt FROM game WHERE source = ? AND ext_id = ?")
			if err != nil {
				return err
			}
		games:
			// At most Batch games, and no new game once the transaction
			// has held the write lock for maxTx: other writers (another
			// program's verdict, a click in the app) wait for it.
			for used < opts.Batch && (used == 0 || time.Since(txStart) < maxTx) {
				if used == len(pending) {
					// Take a game already prepared; never wait holding the lock.
					if received == total {
						break
					}
					select {
					case g, ok := <-prepped:
						if !ok {
							break games
						}
						received++
						pending = append(pending, g)
					default:
						break games
					}
				}
				g := pending[used]
				if g.fatal != nil {
					return g.fatal
				}
				used++
				var gid int64
				var rebuilt bool
				switch err := has.QueryRowContext(ctx, opts.Source, g.id).Scan(&gid, &rebuilt); {
				case err == nil && !rebuilt:
					bst.Already++
					continue
				case err == nil: // stored with rebuilt turns: put its own
				case !errors.Is(err, sql.ErrNoRows):
					return err
				}
				if g.known { // stored when the import began, but not now
					bk.prepareGame(&g, g.turns, make([]game.Color, bk.rules.Squares()))
				}
				if g.err != nil && rebuilt {
					bst.Already++ // keeps its rebuilt line
					continue
				}
				if g.err != nil {
					bst.Skipped = append(bst.Skipped, GameError{g.id, g.err})
					continue
				}
				if _, err := tx.ExecContext(ctx, "SAVEPOINT game"); err != nil {
					return err
				}
				pa, pe, pd := w.added, w.edges, len(w.dirty)
				result := game.Empty
				if len(g.steps) > 0 {
					result = g.steps[len(g.steps)-1].winner
				}
				if !rebuilt {
					w.beginGame(result)
				}
				cur := bk.root
				path := make([]PosID, 1, len(g.steps)+1)
				path[0] = cur
				var gerr error
				for i, p := range g.steps {
					n, err := w.apply(ctx, cur, p)
					if err != nil {
						gerr = fmt.Errorf("turn %d: %w", i+1, err)
						break
					}
					cur = n.id
					path = append(path, cur)
				}
				if gerr == nil {
					if rebuilt {
						gerr = w.repairGame(ctx, gid, path, g.written, result)
					} else {
						gerr = w.addGame(ctx, opts.Source, g.id, path, g.written, result)
					}
				}
				if gerr != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					// A storage failure (full disk, I/O error) is not the
					// game's fault: the whole batch is abandoned (SQLite may
					// already have rolled it back) and the import stops.
					var se sqlite3.Error
					if errors.As(gerr, &se) {
						return fmt.Errorf("storing game %s: %w", g.id, se)
					}
					if _, err := tx.ExecContext(ctx, "ROLLBACK TO game"); err != nil {
						return fmt.Errorf("game %s: %v; rolling it back: %w", g.id, gerr, err)
					}
					w.added, w.edges, w.dirty = pa, pe, w.dirty[:pd]
					bst.Skipped = append(bst.Skipped, GameError{g.id, gerr})
				}
				w.endGame()
				if _, err := tx.ExecContext(ctx, "RELEASE game"); err != nil {
					return err
				}
				switch {
				case gerr == nil && rebuilt:
					bst.Already++
					bst.Repaired++
				case gerr == nil:
					bst.Games++
					stored = append(stored, g.id)
				}
			}
			bst.Positions, bst.Edges = w.added, w.edges
			return w.finish(ctx)
		})
		if err != nil {
			if ctx.Err() != nil {
				return st, err
			}
			return st, fmt.Errorf("import stopped, %d games stored before are kept: %w", st.Games, err)
		}
		if d := time.Since(txStart); d > st.LongestTx {
			st.LongestTx = d
		}
		st.Transactions++
		pending = pending[used:]
		done += used
		st.Games += bst.Games
		st.Already += bst.Already
		st.Repaired += bst.Repaired
		st.Skipped = append(st.Skipped, bst.Skipped...)
		st.Positions += bst.Positions
		st.Edges += bst.Edges
		if opts.OnCommit != nil && len(stored) > 0 {
			opts.OnCommit(append([]string(nil), stored...))
		}
		if opts.Progress != nil {
			opts.Progress(done, total)
		}
		box.Put(st.progress(done, total))
		if received < total || len(pending) > 0 {
			// Leave the lock free for a moment: SQLite's busy handler
			// polls (every 100 ms at worst), and a writer that began its
			// next transaction at once would starve the other programs'.
			if err := pause(ctx, time.Since(txStart)/10); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}

// pause waits d (at least a millisecond) or until ctx is done.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(max(d, time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func parseGame(r game.Rules, turns []string) ([]game.Move, [][]game.Square, error) {
	out := make([]game.Move, len(turns))
	written := make([][]game.Square, len(turns))
	for i, t := range turns {
		sq, err := game.ParseSquares(r, t)
		if err != nil {
			return nil, nil, fmt.Errorf("turn %d: %w: %w", i+1, errNotation, err)
		}
		out[i], written[i] = game.NewMove(sq...), sq
	}
	return out, written, nil
}
