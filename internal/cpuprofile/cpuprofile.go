// Package cpuprofile runs a program's body under a CPU profile written
// to a file named by the environment (BDDL_CPUPROFILE for bddl): for
// profiling bddl serve under a real client, where go test cannot.
//
// It is a ground utility (level 0): it imports nothing of the module.
package cpuprofile

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// Run returns body's exit code, profiled into the file path when path
// is not empty; a profile that cannot be started is reported on errw and
// the body runs unprofiled.
func Run(path string, errw io.Writer, body func() int) int {
	if path == "" {
		return body()
	}
	f, err := os.Create(path)
	if err == nil {
		defer f.Close()
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(errw, "bddl: BDDL_CPUPROFILE: %v\n", err)
		return body()
	}
	defer pprof.StopCPUProfile()
	return body()
}
