package service

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"c6book/bookfile"
	"c6book/proofbook"
)

// ImportGamesOptions tune ImportGames.
type ImportGamesOptions struct {
	Source string // the games' origin (default "littlegolem")
	Batch  int    // games per transaction (default 500)
	// Progress, when set, gets what committed transactions hold so far,
	// the latest report only, on a goroutine of its own: it never holds
	// up the import (proofbook.ImportOptions.OnProgress). The final
	// report is not passed on: the result holds it.
	Progress      func(proofbook.ImportProgress)
	ProgressEvery time.Duration // least time between two reports (default 100 ms)
	// OnCommit, when set, is called on the importing goroutine after each
	// committed transaction with the ids of the games it stored.
	OnCommit func(ids []string)
}

// Kept is what a book holds of an import that ended early (cancelled or
// failed): every game of a committed transaction stays.
type Kept struct {
	Total   int // games in the file (0: it ended while the file was read)
	Stored  int // games stored by this import
	Already int // games the book held before
	Skipped int // games skipped (bad moves)
	// Positions and Edges are the new positions and moves stored.
	Positions, Edges int
}

// Nothing reports whether the import ended before it wrote anything.
func (k Kept) Nothing() bool { return k.Total == 0 && k.Stored == 0 }

// ImportResult is what an import did.
type ImportResult struct {
	proofbook.ImportStats
	// Cancelled: the context ended the import; Kept says what the book
	// holds of it (the error returned is the context's).
	Cancelled bool
	Kept      Kept
}

// ImportGames imports a LittleGolem games file ({"gid": [turns]}, plain or
// gzip), committed batch by batch (bookfile.ImportGames). When ctx
// is cancelled midway it returns context.Canceled with Cancelled set and
// Kept saying what the committed transactions hold.
func (bk *Book) ImportGames(ctx context.Context, r io.Reader, o ImportGamesOptions) (ImportResult, error) {
	var mu sync.Mutex
	var final proofbook.ImportProgress
	opts := proofbook.ImportOptions{Source: o.Source, Batch: o.Batch, ProgressEvery: o.ProgressEvery, OnCommit: o.OnCommit,
		OnProgress: func(p proofbook.ImportProgress) {
			if p.Final {
				mu.Lock()
				final = p
				mu.Unlock()
				return
			}
			if o.Progress != nil {
				o.Progress(p)
			}
		}}
	st, err := bookfile.ImportGames(ctx, bk.pb, r, opts)
	res := ImportResult{ImportStats: st}
	if err != nil {
		mu.Lock()
		p := final // the final report comes before ImportGames returns
		mu.Unlock()
		res.Kept = Kept{Total: p.Total, Stored: p.Stored, Already: p.Already, Skipped: p.Skipped, Positions: p.Positions, Edges: p.Edges}
		// Cancelled: the store may answer a cancellation with the error of
		// the statement it interrupted ("sql: statement is closed"), not
		// the context's; what it kept is the final report's either way.
		if res.Cancelled = errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled); res.Cancelled {
			err = context.Canceled
		}
	}
	return res, err
}

// ImportSGF merges an SGF collection into the book in one transaction (on
// any error, cancellation included, nothing is written): read from r as
// it is stored, within the engine's SGF limits. partial reads a turn with
// fewer stones than the rules place as a null or seminull move (proof
// lines, as ExportProof writes them).
func (bk *Book) ImportSGF(ctx context.Context, r io.Reader, partial bool) (proofbook.ImportStats, error) {
	return bookfile.ImportSGFReader(ctx, bk.pb, r, bookfile.SGFImportOptions{Partial: partial})
}
