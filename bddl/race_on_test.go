//go:build race

package bddl

// raceEnabled: the race detector makes sync.Pool drop items at random and
// its instrumentation allocates, so tests that count allocations do not
// hold under it.
const raceEnabled = true
