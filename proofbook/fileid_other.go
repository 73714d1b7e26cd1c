//go:build !linux

package proofbook

import "os"

// fileID is the identity of a state of a file: its size and modification
// time (here without the change time and inode Linux adds, so a write
// that sets the modification time back goes unseen).
type fileID struct {
	Size  int64
	Mtime int64 // ns
}

func statID(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	return fileID{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}, nil
}
