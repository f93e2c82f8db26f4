//go:build unix

package fsutil

import (
	"errors"
	"os"
	"syscall"
)

// ErrLocked is returned by Lock when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// ErrLockUnsupported is returned by Lock on a file system without
// advisory locks (some network file systems).
var ErrLockUnsupported = errors.New("the file system does not support locks")

// Lock takes an exclusive advisory lock on f without waiting; it is
// released when f is closed.
func Lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return ErrLocked
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
		return ErrLockUnsupported
	}
	return err
}

func writable(path string) bool { return syscall.Access(path, 2 /* W_OK */) == nil }

func links(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// chown gives f the owner and group of info, if they differ from f's.
func chown(f *os.File, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	cur, err := f.Stat()
	if err != nil {
		return err
	}
	if c, ok := cur.Sys().(*syscall.Stat_t); ok && c.Uid == st.Uid && c.Gid == st.Gid {
		return nil
	}
	return f.Chown(int(st.Uid), int(st.Gid))
}

// idOf is the identity of the file info describes (device and inode).
func idOf(info os.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
