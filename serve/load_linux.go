//go:build linux

package serve

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// machineBusy reports whether the 1-minute load average is past the
// processors plus one (the server's and its client's polling threads
// count for up to two): polling there takes the processor the other side
// needs (spinReader). Where it cannot be read: no.
func machineBusy() bool {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return false
	}
	return float64(si.Loads[0])/(1<<unix.SI_LOAD_SHIFT) > float64(runtime.NumCPU()+1)
}
