package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// DefinitionLimit caps the size of a BDDL definition file. The largest
// BEHAVIOR-1K definition is a few tens of kilobytes.
const DefinitionLimit = 16 << 20

// ErrNotRegular is wrapped by the errors for paths that are not regular
// files.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError reports a file over a read limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the %s limit", e.Path, Size(e.Limit))
}

// Size formats a byte count as the limits are documented: 16 MiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// kind names a file mode for errors.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// NotRegular returns the error for path of mode m.
func NotRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %s", ErrNotRegular, kind(m))}
}

// OpenRegular opens path for reading if it is (or links to) a regular
// file. The check is made on the open file too, so a file swapped for a
// FIFO between the check and the open is still refused; the open itself
// never blocks.
func OpenRegular(path string) (*os.File, error) { return OpenRegularFile(path, os.O_RDONLY, 0) }

// OpenRegularFile is os.OpenFile for regular files only, as OpenRegular:
// path must be (or link to) a regular file, or not exist when flag
// creates it.
func OpenRegularFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	info, err := os.Stat(path)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return nil, NotRegular(path, info.Mode())
	case err != nil && (flag&os.O_CREATE == 0 || !errors.Is(err, fs.ErrNotExist)):
		return nil, err
	}
	f, err := os.OpenFile(path, flag|nonBlock, perm)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = NotRegular(path, info.Mode())
		}
		return nil, err
	}
	return f, nil
}

// ReadFile reads a regular file of at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	// One byte more than the size, so that reaching EOF needs no second
	// growth of the buffer; a file that grows while read is still bounded.
	data := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if int64(len(data)) > limit {
			return nil, &TooLargeError{Path: path, Limit: limit}
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// ReadArg reads a file named on the command line, at most limit bytes:
// a regular file, "-" for standard input, or a pipe or character device
// the user named (the shell's <(cmd) is /dev/fd/N). Directories and
// sockets are refused.
func ReadArg(path string, stdin io.Reader, limit int64) ([]byte, error) {
	if path == "-" {
		return readLimited(stdin, "-", limit)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	m := info.Mode()
	if !m.IsRegular() && m&(fs.ModeNamedPipe|fs.ModeCharDevice) == 0 {
		return nil, NotRegular(path, m)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

// readLimited reads r to its end, failing past limit bytes.
func readLimited(r io.Reader, path string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}
