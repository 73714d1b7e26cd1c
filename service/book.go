package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
)

// Book is an open proof book with its use cases. The workbench and the
// CLI hold one (they keep no *proofbook.Book of their own). Safe for
// concurrent use, as the store under it.
type Book struct {
	pb *proofbook.Book
}

// Wrap makes an open store a Book (it is closed with the Book).
func Wrap(pb *proofbook.Book) *Book { return &Book{pb: pb} }

// Open opens the book at path.
func Open(ctx context.Context, path string) (*Book, error) {
	pb, err := proofbook.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return Wrap(pb), nil
}

// Create creates a new book at path for rules r.
func Create(ctx context.Context, path string, r game.Rules) (*Book, error) {
	pb, err := proofbook.Create(ctx, path, r)
	if err != nil {
		return nil, err
	}
	return Wrap(pb), nil
}

// OpenOrCreate opens the book at path, creating a Connect6 book (and its
// folder) if the file does not exist.
func OpenOrCreate(ctx context.Context, path string) (*Book, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		return Create(ctx, path, game.Connect6())
	}
	return Open(ctx, path)
}

// Proofbook is the store under the use cases, for tests and tools that
// read it row by row.
func (bk *Book) Proofbook() *proofbook.Book { return bk.pb }

func (bk *Book) Path() string        { return bk.pb.Path() }
func (bk *Book) Rules() game.Rules   { return bk.pb.Rules() }
func (bk *Book) Close() error        { return bk.pb.Close() }
func (bk *Book) UpgradeNote() string { return bk.pb.UpgradeNote() }
func (bk *Book) ReadOnly() string    { return bk.pb.ReadOnly() }

// CheckWritable runs the book's write gate (proofbook.Book.CheckWritable):
// a damaged book is then read-only (proofbook.ErrDamaged).
func (bk *Book) CheckWritable(ctx context.Context) error { return bk.pb.CheckWritable(ctx) }

// Locate finds the position of board b (any frame); sym maps b's moves
// into its canonical frame.
func (bk *Book) Locate(ctx context.Context, b *board.Board) (id proofbook.PosID, sym int, err error) {
	return bk.pb.Locate(ctx, b)
}

// AddLine stores a line of turns from the empty board.
func (bk *Book) AddLine(ctx context.Context, turns []game.Move) error {
	_, err := bk.pb.AddLine(ctx, turns)
	return err
}

// Backup writes a consistent copy of the book to path (a new file).
func (bk *Book) Backup(ctx context.Context, path string) error { return bk.pb.Backup(ctx, path) }
