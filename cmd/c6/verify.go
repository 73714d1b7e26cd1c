package main

import (
	"errors"
	"io"
)

// cmdVerify is not implemented yet.
func cmdVerify(args []string, stdout, stderr io.Writer) error {
	return errors.New("not implemented yet")
}
