package main

import (
	"errors"
	"flag"

	"c6book/service"
)

// BookBackupCommand is c6 book backup: a consistent copy of the book.
type BookBackupCommand struct{ to string }

func (c *BookBackupCommand) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.to, "to", "", "the copy's file (must not exist)")
}

// validate checks the flags before the book is opened.
func (c *BookBackupCommand) validate(*bookEnv) error {
	if c.to == "" {
		return errors.New("--to FILE is required")
	}
	return nil
}

func (c *BookBackupCommand) run(e *bookEnv) error { return bookBackup(e, c.to) }

func bookBackup(e *bookEnv, to string) error {
	if err := service.Wrap(e.bk).Backup(e.ctx, to); err != nil {
		return err
	}
	return e.print(bookBackupJSON{Backup: to}, nil)
}
