// Command bddl parses, formats, explains, validates and checks BDDL activity
// definitions. Run `bddl --help` for the command list.
package main

import (
	"os"
	"runtime/debug"

	"github.com/openbddl/bddl/internal/cpuprofile"
)

func main() {
	// A run of bddl is short and its live heap small; collecting less often
	// trades a little memory for speed. GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// BDDL_CPUPROFILE names a file for a CPU profile of this run.
	os.Exit(cpuprofile.Run(os.Getenv("BDDL_CPUPROFILE"), os.Stderr, func() int {
		return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}))
}
