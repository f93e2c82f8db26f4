//go:build !unix

package serve

import (
	"io"
	"time"
)

// newSpinReader: no polling here; reads block at once.
func newSpinReader(in io.Reader, _ time.Duration) io.Reader { return in }
