package fsutil

import (
	"fmt"
	"os"
)

// CheckOutputDir makes dir if needed and checks that files can be
// created in it: a directory that cannot be written is an output error
// at once, not a failure of every item written into it.
func CheckOutputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if info, err := os.Stat(dir); err != nil {
		return err
	} else if !info.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".bddl-write-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write there: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
