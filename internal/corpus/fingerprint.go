package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"testing"
)

// Golden files recording exact figures over the corpus (every finding of
// the validator, every literal of the OmniGibson agreement) hold for the
// corpus they were recorded from. Run on a user's own data
// ($BDDL_CORPUS, $BDDL_OMNIGIBSON), the tests check properties instead:
// Recorded tells which case a test is in.

// Fingerprints of the data the golden files were recorded from: the
// shared BEHAVIOR-1K package folder and sampled_task folder. Change them
// (Fingerprint prints the new value) when the golden files are
// re-recorded on new data.
const (
	recordedCorpus     = "b1k:bbd15a0fd024"
	recordedOmniGibson = "og:0e153962e92b"
)

// Fingerprint identifies a data folder by the names and sizes of its
// files (not their bytes: cheap enough for every test run).
func Fingerprint(dir string) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		lines = append(lines, fmt.Sprintf("%s %d", filepath.ToSlash(rel), info.Size()))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// Recorded reports whether the BEHAVIOR-1K corpus is the one the golden
// files were recorded from. When it is not, it logs why; the caller then
// checks properties only.
func Recorded(t testing.TB) bool {
	t.Helper()
	return recorded(t, Dir(t), "b1k:", recordedCorpus)
}

// RecordedOmniGibson is Recorded for the OmniGibson task instances.
func RecordedOmniGibson(t testing.TB) bool {
	t.Helper()
	return recorded(t, OmniGibsonDir(t), "og:", recordedOmniGibson)
}

func recorded(t testing.TB, dir, prefix, want string) bool {
	t.Helper()
	fp, err := Fingerprint(dir)
	if err != nil {
		t.Fatalf("fingerprint of %s: %v", dir, err)
	}
	if prefix+fp == want {
		return true
	}
	t.Logf("%s (fingerprint %s%s) is not the data the golden files were recorded from (%s): checking properties only", dir, prefix, fp, want)
	return false
}
