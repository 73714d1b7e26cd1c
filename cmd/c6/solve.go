package main

import (
	"errors"
	"io"
)

// cmdSolve is not implemented yet.
func cmdSolve(args []string, stdout, stderr io.Writer) error {
	return errors.New("not implemented yet")
}
