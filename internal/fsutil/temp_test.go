package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateTempBeside(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "one.jsonl"), "directory " + filepath.Join(dir, "missing") + " does not exist"},
		{filepath.Join(file, "one.jsonl"), "is not a directory"},
	} {
		_, err := CreateTempBeside(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("CreateTempBeside(%s) = %v, want %q and no temporary name", tc.path, err, tc.want)
		}
	}
	f, err := CreateTempBeside(filepath.Join(dir, "ok.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Remove(f.Name())
}
