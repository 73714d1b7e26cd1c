//go:build linux

package proofbook

import (
	"os"
	"syscall"
)

// fileID is the identity of a state of a file: any write through the file
// system changes it (the change time cannot be set back by a program, and
// a copy or a replacement has another inode).
type fileID struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // ns
}

func statID(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	id := fileID{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino = uint64(st.Dev), st.Ino
		id.Ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return id, nil
}
