//go:build !unix

package proofbook

import "os"

// canWrite reports whether path looks writable: a file that opens for
// writing (opening changes nothing), or a folder without the read-only
// attribute.
func canWrite(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		return fi.Mode().Perm()&0o200 != 0
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
