package proofbook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular: the book's path (or one of SQLite's files beside it) is
// a named pipe, a folder, a device or a socket. It is refused before SQLite
// opens anything: reading a named pipe would wait for a writer forever.
var ErrNotRegular = errors.New("not a regular file")

// companions are the files SQLite keeps beside a database.
var companions = [...]string{"-wal", "-shm", "-journal"}

// checkRegular refuses a path that exists and is not a regular file, or a
// companion (-wal, -shm, -journal) that exists and is not one. Symbolic
// links are followed: a link to a regular file is fine. It never opens
// anything.
func checkRegular(path string) error {
	if err := regular(path); err != nil {
		return err
	}
	for _, ext := range companions {
		if err := regular(path + ext); err != nil {
			return err
		}
	}
	return nil
}

func regular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, fileKind(fi.Mode()))
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}
