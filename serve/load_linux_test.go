//go:build linux

package serve

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestMachineBusy: machineBusy agrees with /proc/loadavg, where the load
// is far enough from the threshold not to cross it between the two reads.
func TestMachineBusy(t *testing.T) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		t.Skip(err)
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		t.Skipf("/proc/loadavg: %q", data)
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		t.Skip(err)
	}
	limit := float64(runtime.NumCPU() + 1)
	if load > limit-3 && load < limit+3 {
		t.Skipf("load %.2f too near the threshold %.0f to compare", load, limit)
	}
	if got, want := machineBusy(), load > limit; got != want {
		t.Errorf("machineBusy() = %v with a load of %.2f and %d processors", got, load, runtime.NumCPU())
	}
}
