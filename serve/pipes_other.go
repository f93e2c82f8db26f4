//go:build !unix

package serve

import "os"

// pollable: pipes are left as they are here.
func pollable(any) (*os.File, func(), bool) { return nil, nil, false }

// writeNow: no raw write here; the caller writes with a deadline.
func writeNow(*os.File, []byte) (int, error, bool) { return 0, nil, false }
