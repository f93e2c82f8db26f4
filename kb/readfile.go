package kb

import "github.com/openbddl/bddl/internal/fsutil"

// maxDataFile bounds one knowledge-base file. The largest BEHAVIOR-1K file
// is a few megabytes; the limit is far above that and far below what
// would exhaust memory.
const maxDataFile = 256 << 20

// readRegular reads a whole regular file of at most limit bytes. A
// device, FIFO or directory is refused rather than read (/dev/zero would
// never end), and a file that grows past limit while read is refused too.
func readRegular(path string, limit int64) ([]byte, error) {
	return fsutil.ReadFile(path, limit)
}
