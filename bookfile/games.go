package bookfile

import (
	"context"
	"io"

	"c6book/proofbook"
)

// ImportGames stores games read from r, a games file {"gid": ["j10",
// "j11k10", ...], ...}, plain or gzip-compressed, in bk, merging them into
// the tree in the order of their ids (numeric ids by value). The whole file
// is checked first, one game at a time (at most 128 MB decompressed and
// 250,000 games, ids of at most 64 bytes, at most 1,000 turns of at most
// 64 bytes each), and copied to a temporary file: a file that is not a games file,
// or that breaks a limit, is refused with an error naming the entry and
// nothing is written. The games are then stored by bk.StoreGames: a game
// with an illegal or unreadable move is skipped whole, everything else is
// committed batch by batch (see proofbook.Book.StoreGames), so an
// interrupted import keeps every committed game.
func ImportGames(ctx context.Context, bk *proofbook.Book, r io.Reader, opts proofbook.ImportOptions) (proofbook.ImportStats, error) {
	return importGames(ctx, bk, r, opts, maxGamesFileBytes)
}

// importGames is ImportGames with a bound on the file's size (tests use a
// smaller one).
func importGames(ctx context.Context, bk *proofbook.Book, r io.Reader, opts proofbook.ImportOptions, maxBytes int64) (proofbook.ImportStats, error) {
	src, err := spoolGames(ctx, r, maxBytes)
	if err != nil {
		if opts.OnProgress != nil {
			opts.OnProgress(proofbook.ImportProgress{Final: true, Err: err})
		}
		return proofbook.ImportStats{}, err
	}
	defer src.Close()
	return bk.StoreGames(ctx, src, opts)
}
