//go:build unix && !linux

package serve

// machineBusy: the load average is not read here; polling is adaptive
// on the client's pace alone (spinReader).
func machineBusy() bool { return false }
