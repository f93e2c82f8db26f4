//go:build !unix

package fsutil

import (
	"errors"
	"os"
)

// ErrLocked is returned by Lock when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// ErrLockUnsupported is returned by Lock where locks are not available.
var ErrLockUnsupported = errors.New("the file system does not support locks")

// Lock is a no-op where advisory locks are not available.
func Lock(f *os.File) error { return nil }

func writable(string) bool              { return true }
func links(os.FileInfo) uint64          { return 1 }
func chown(*os.File, os.FileInfo) error { return nil }

func idOf(os.FileInfo) (fileID, bool) { return fileID{}, false }
