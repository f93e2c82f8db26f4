//go:build unix

package oopsie

import (
	"os"
	"syscall"
)

// keepOwner gives f the owner of the file it replaces, where allowed.
func keepOwner(f *os.File, old os.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid)) // only root may give a file away
	}
}
