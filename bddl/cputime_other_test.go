//go:build !unix

package bddl

import "time"

var start = time.Now()

// cpuTime falls back to wall time where rusage is not available.
func cpuTime() time.Duration { return time.Since(start) }
