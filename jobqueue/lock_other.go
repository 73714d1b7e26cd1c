//go:build !unix

package jobqueue

import "os"

// lockDir opens the storage folder's lock file; without flock it does not
// keep a second process out.
func lockDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}
