//go:build !unix

package fsutil

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
