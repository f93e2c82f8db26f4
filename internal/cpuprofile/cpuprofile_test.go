package cpuprofile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var errw bytes.Buffer
	if code := Run("", &errw, func() int { return 3 }); code != 3 || errw.Len() != 0 {
		t.Errorf("Run without a profile = %d, %q", code, errw.String())
	}
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	if code := Run(path, &errw, func() int { return 1 }); code != 1 {
		t.Errorf("Run = %d, want 1", code)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Errorf("profile %s: %v", path, err)
	}
	if code := Run(filepath.Join(t.TempDir(), "no", "such", "dir"), &errw, func() int { return 0 }); code != 0 || !strings.Contains(errw.String(), "BDDL_CPUPROFILE") {
		t.Errorf("an unwritable profile: %d, %q", code, errw.String())
	}
}
