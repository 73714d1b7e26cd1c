package main

import (
	"errors"
	"io"
)

// cmdBook is not implemented yet.
func cmdBook(args []string, stdout, stderr io.Writer) error {
	return errors.New("not implemented yet")
}
