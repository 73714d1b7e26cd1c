package service

import (
	"context"
	"fmt"
	"io"

	"c6book/bookfile"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// ExportOptions tune ExportSGF and ExportProof.
type ExportOptions struct {
	// Line is the line from the empty board to the exported position as
	// the user sees it: the export follows its orientation (nil: the
	// first stored path's).
	Line []game.Move
	// MaxNodes stops the export after this many moves (0: no limit): the
	// stats say Truncated.
	MaxNodes int
	MaxDepth int // turns below the position (0: no limit)
	// ProofLines writes the proof's null and seminull moves too (a full
	// backup); off, a plain export holds real turns only.
	ProofLines bool
	// Progress, when set, gets the moves exported so far (every 1000
	// moves, on the exporting goroutine: keep it quick).
	Progress func(moves int)
}

func (o ExportOptions) bookfile() bookfile.ExportOptions {
	return bookfile.ExportOptions{Line: o.Line, MaxNodes: o.MaxNodes, MaxDepth: o.MaxDepth, ProofLines: o.ProofLines, Progress: o.Progress}
}

// locate finds b (any frame) in the book; an error says what is missing.
func (bk *Book) locate(ctx context.Context, b *board.Board) (proofbook.PosID, error) {
	id, _, err := bk.pb.Locate(ctx, b)
	if err != nil {
		return 0, fmt.Errorf("the position: %w", err)
	}
	return id, nil
}

// ExportSGF writes the SGF of position b: the line to it, then its
// subtree with comments and statuses.
func (bk *Book) ExportSGF(ctx context.Context, b *board.Board, out io.Writer, o ExportOptions) (bookfile.ExportStats, error) {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return bookfile.ExportStats{}, err
	}
	return bookfile.ExportSGF(ctx, bk.pb, id, out, o.bookfile())
}

// ExportProof writes the proof of position b for attacker (Empty: the side
// it is proved for) as one SGF game (bookfile.ExportProof).
func (bk *Book) ExportProof(ctx context.Context, b *board.Board, attacker game.Color, out io.Writer, o ExportOptions) (bookfile.ProofExportStats, error) {
	id, err := bk.locate(ctx, b)
	if err != nil {
		return bookfile.ProofExportStats{}, err
	}
	return bookfile.ExportProof(ctx, bk.pb, id, attacker, out, o.bookfile())
}
