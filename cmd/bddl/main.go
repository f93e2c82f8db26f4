// Command bddl parses, formats, explains, validates and checks BDDL activity
// definitions. Run `bddl --help` for the command list.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
)

func main() {
	// A run of bddl is short and its live heap small; collecting less often
	// trades a little memory for speed. GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// BDDL_CPUPROFILE names a file for a CPU profile of this run (for
	// profiling bddl serve under a real client, where go test cannot).
	if path := os.Getenv("BDDL_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintf(os.Stderr, "bddl: BDDL_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "bddl: BDDL_CPUPROFILE: %v\n", err)
		} else {
			code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
