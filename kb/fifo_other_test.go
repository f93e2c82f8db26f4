//go:build !unix

package kb

import "errors"

// mkfifo: no named pipes here; the tests that need one skip.
func mkfifoForTest(string) error { return errors.ErrUnsupported }
