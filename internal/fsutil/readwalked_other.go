//go:build !unix

package fsutil

import "io/fs"

// ReadWalked reads a file a directory walk found; see the Unix version.
func ReadWalked(path string, typ fs.FileMode, limit int64, buf *[]byte) ([]byte, error) {
	if typ&fs.ModeSymlink == 0 && !typ.IsRegular() {
		return nil, NotRegular(path, typ)
	}
	return ReadFile(path, limit)
}

// ReadWalkedInto is ReadWalked; see the Unix version.
func ReadWalkedInto(path string, typ fs.FileMode, limit int64, buf *[]byte) ([]byte, error) {
	return ReadWalked(path, typ, limit, buf)
}
