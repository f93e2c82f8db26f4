package dora

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir) // the benchmark's episode
	}
	os.Exit(code)
}
