//go:build unix

package proofbook

import "syscall"

// canWrite reports whether this process may write path (a file, or a
// folder: create files in it), as the system decides (root may write a
// file whatever its mode, but not on a read-only file system).
func canWrite(path string) bool {
	return syscall.Access(path, 0x2 /* W_OK */) == nil
}
