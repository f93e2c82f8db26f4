package kb

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxDataFile bounds one knowledge-base file. The largest BEHAVIOR-1K file
// is a few megabytes; the limit is far above that and far below what
// would exhaust memory.
const maxDataFile = 256 << 20

// readRegular reads a whole regular file of at most limit bytes with one
// open, one fstat and as few reads as its size needs. A device, FIFO or
// directory is refused rather than read (/dev/zero would never end), and a
// file that grows past limit while read is refused too.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s)", info.Mode().Type())}
	}
	size := info.Size()
	if size > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("file is %d bytes, over the limit of %d MiB", size, limit>>20)}
	}
	// One byte more than the size, so that reaching EOF needs no second
	// growth of the buffer.
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if int64(len(data)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("file grew over the limit of %d MiB", limit>>20)}
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
