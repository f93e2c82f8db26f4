//go:build !unix

package fsutil

// nonBlock: opening does not block on this system's special files.
const nonBlock = 0
