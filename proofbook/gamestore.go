package proofbook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/latest"

	"github.com/mattn/go-sqlite3"
)

// ImportOptions tune StoreGames (and the games file import, which stores
// through it).
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
	// before StoreGames returns. It runs on a goroutine of its own and
	// never holds up the import: a report that comes while the previous
	// call is still running replaces any report still waiting, so a slow
	// callback sees fewer, always current, reports. It must not wait for
	// StoreGames to return.
	OnProgress func(ImportProgress)
	// ProgressEvery is the least time between two OnProgress reports
	// (default 100 ms).
	ProgressEvery time.Duration
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
	// (see bookfile.ImportSGFReader).
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
func (bk *Book) prepareGames(ctx context.Context, known map[string]bool, src GameSource) <-chan gamePrep {
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

// GameSource is the games StoreGames stores, in order: a games file (the
// bookfile package's), another book's games (a merge).
type GameSource interface {
	Len() int
	ID(i int) string
	// Turns is game i's turns in LittleGolem's notation ("j11k10").
	Turns(i int) ([]string, error)
}

// StoreGames stores the games of src in their order, merging them into the
// tree. Games with an illegal or unreadable move are skipped whole and
// listed in the result (GameError.Reason counts them by kind); everything
// else is committed batch by batch, so an interrupted store keeps every
// committed game. A transaction holds the write lock for about MaxTxTime
// at most, whatever the batch, and the lock is left free for a moment
// between transactions (a tenth of the last one's time), so that other
// programs' writes get through during a long import.
func (bk *Book) StoreGames(ctx context.Context, src GameSource, opts ImportOptions) (_ ImportStats, err error) {
	var st ImportStats
	gs := &gameStore{bk: bk, opts: opts, total: src.Len()}
	var box *latest.Box[ImportProgress]
	if opts.OnProgress != nil {
		box = &latest.Box[ImportProgress]{Deliver: opts.OnProgress, Gap: opts.ProgressEvery}
		if box.Gap <= 0 {
			box.Gap = 100 * time.Millisecond
		}
		box.Put(st.progress(0, gs.total))
		defer func() {
			p := st.progress(gs.done, gs.total)
			p.Err, p.Final = err, true
			endProgress(box, p)
		}()
	}
	if gs.opts.Source == "" {
		gs.opts.Source = "littlegolem"
	}
	if gs.opts.Batch <= 0 {
		gs.opts.Batch = 500
	}
	if gs.opts.MaxTxTime <= 0 {
		gs.opts.MaxTxTime = DefaultMaxTxTime
	}
	known, err := bk.knownGames(ctx, gs.opts.Source)
	if err != nil {
		return st, err
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gs.prepped = bk.prepareGames(pctx, known, src)
	for gs.received < gs.total || len(gs.pending) > 0 {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if len(gs.pending) == 0 {
			// Wait for the next game off the lock.
			g, ok := <-gs.prepped
			if !ok {
				return st, ctx.Err()
			}
			gs.received++
			gs.pending = append(gs.pending, g)
		}
		bst, stored, txTime, err := gs.batch(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return st, err
			}
			return st, fmt.Errorf("import stopped, %d games stored before are kept: %w", st.Games, err)
		}
		st.LongestTx = max(st.LongestTx, txTime)
		st.Transactions++
		st.Games += bst.Games
		st.Already += bst.Already
		st.Repaired += bst.Repaired
		st.Skipped = append(st.Skipped, bst.Skipped...)
		st.Positions += bst.Positions
		st.Edges += bst.Edges
		if opts.OnCommit != nil && len(stored) > 0 {
			opts.OnCommit(stored)
		}
		if opts.Progress != nil {
			opts.Progress(gs.done, gs.total)
		}
		box.Put(st.progress(gs.done, gs.total))
		if gs.received < gs.total || len(gs.pending) > 0 {
			// Leave the lock free for a moment: SQLite's busy handler
			// polls (every 100 ms at worst), and a writer that began its
			// next transaction at once would starve the other programs'.
			if err := pause(ctx, txTime/10); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}

// gameStore is the state of StoreGames: the games prepared off the lock
// (prepped), those received and not stored yet (pending, in order), and
// how many are received and settled (done) of total.
type gameStore struct {
	bk      *Book
	opts    ImportOptions
	prepped <-chan gamePrep
	pending []gamePrep
	total   int
	// received: games taken from prepped; done: games settled by
	// committed transactions (stored, already there or skipped).
	received, done int
}

// batch stores the next pending games in one transaction (retried while
// other programs hold the lock), and returns what it stored, the ids of
// the games it stored and how long it held the lock.
func (gs *gameStore) batch(ctx context.Context) (bst ImportStats, stored []string, txTime time.Duration, err error) {
	bk := gs.bk
	var used int
	var txStart time.Time
	// writeRetry: other programs' writes (verdicts, notes) may keep the
	// lock past the busy timeout on a loaded machine; the import waits for
	// them (it stays cancellable) instead of stopping. The transaction
	// starts its batch over each try.
	err = bk.writeRetry(ctx, func(tx *sql.Tx) error {
		txStart = time.Now()
		bst, stored, used = ImportStats{}, nil, 0
		w, err := bk.newWtx(ctx, tx)
		if err != nil {
			return err
		}
		has, err := tx.PrepareContext(ctx, "SELECT id, rebuilt FROM game WHERE source = ? AND ext_id = ?")
		if err != nil {
			return err
		}
		// At most Batch games, and no new game once the transaction has
		// held the write lock for MaxTxTime: other writers (another
		// program's verdict, a click in the app) wait for it.
		for used < gs.opts.Batch && (used == 0 || time.Since(txStart) < gs.opts.MaxTxTime) && gs.next(used) {
			g := gs.pending[used]
			if g.fatal != nil {
				return g.fatal
			}
			used++
			ok, err := gs.store(ctx, w, has, g, &bst)
			if err != nil {
				return err
			}
			if ok {
				stored = append(stored, g.id)
			}
		}
		bst.Positions, bst.Edges = w.added, w.edges
		return w.finish(ctx)
	})
	if err != nil {
		return ImportStats{}, nil, 0, err
	}
	gs.pending = gs.pending[used:]
	gs.done += used
	return bst, stored, time.Since(txStart), nil
}

// next reports whether a game is pending at index used, taking one
// already prepared when there is none; it never waits holding the lock.
func (gs *gameStore) next(used int) bool {
	if used < len(gs.pending) {
		return true
	}
	if gs.received == gs.total {
		return false
	}
	select {
	case g, ok := <-gs.prepped:
		if !ok {
			return false
		}
		gs.received++
		gs.pending = append(gs.pending, g)
		return true
	default:
		return false
	}
}

// store stores game g in the transaction of w in a savepoint of its own,
// counting it in bst: stored (ok), already there, or skipped (a bad game
// is rolled back whole). An error stops the batch.
func (gs *gameStore) store(ctx context.Context, w *wtx, has *sql.Stmt, g gamePrep, bst *ImportStats) (ok bool, err error) {
	bk, tx := gs.bk, w.tx
	var gid int64
	var rebuilt bool
	switch err := has.QueryRowContext(ctx, gs.opts.Source, g.id).Scan(&gid, &rebuilt); {
	case err == nil && !rebuilt:
		bst.Already++
		return false, nil
	case err == nil: // stored with rebuilt turns: put its own
	case !errors.Is(err, sql.ErrNoRows):
		return false, err
	}
	if g.known { // stored when the import began, but not now
		bk.prepareGame(&g, g.turns, make([]game.Color, bk.rules.Squares()))
	}
	if g.err != nil && rebuilt {
		bst.Already++ // keeps its rebuilt line
		return false, nil
	}
	if g.err != nil {
		bst.Skipped = append(bst.Skipped, GameError{g.id, g.err})
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, "SAVEPOINT game"); err != nil {
		return false, err
	}
	pa, pe, pd := w.added, w.edges, len(w.dirty)
	result := game.Empty
	if len(g.steps) > 0 {
		result = g.steps[len(g.steps)-1].winner
	}
	if !rebuilt {
		w.beginGame(result)
	}
	gerr := gs.play(ctx, w, g, gid, rebuilt, result)
	if gerr != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		// A storage failure (full disk, I/O error) is not the game's
		// fault: the whole batch is abandoned (SQLite may already have
		// rolled it back) and the import stops.
		var se sqlite3.Error
		if errors.As(gerr, &se) {
			return false, fmt.Errorf("storing game %s: %w", g.id, se)
		}
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO game"); err != nil {
			return false, fmt.Errorf("game %s: %v; rolling it back: %w", g.id, gerr, err)
		}
		w.added, w.edges, w.dirty = pa, pe, w.dirty[:pd]
		bst.Skipped = append(bst.Skipped, GameError{g.id, gerr})
	}
	w.endGame()
	if _, err := tx.ExecContext(ctx, "RELEASE game"); err != nil {
		return false, err
	}
	switch {
	case gerr == nil && rebuilt:
		bst.Already++
		bst.Repaired++
	case gerr == nil:
		bst.Games++
		return true, nil
	}
	return false, nil
}

// play stores game g's moves and the game (a game stored with rebuilt
// turns, gid: its own turns put back).
func (gs *gameStore) play(ctx context.Context, w *wtx, g gamePrep, gid int64, rebuilt bool, result game.Color) error {
	cur := gs.bk.root
	path := make([]PosID, 1, len(g.steps)+1)
	path[0] = cur
	for i, p := range g.steps {
		n, err := w.apply(ctx, cur, p)
		if err != nil {
			return fmt.Errorf("turn %d: %w", i+1, err)
		}
		cur = n.id
		path = append(path, cur)
	}
	if rebuilt {
		return w.repairGame(ctx, gid, path, g.written, result)
	}
	return w.addGame(ctx, gs.opts.Source, g.id, path, g.written, result)
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
