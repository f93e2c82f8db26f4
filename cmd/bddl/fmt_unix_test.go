//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFmtWriteKeepsFile: -w keeps owner, group, mode and hard links, and
// refuses a read-only file.
func TestFmtWriteKeepsFile(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o640, "messy.bddl")
	messy := filepath.Join(dir, "messy.bddl")
	if os.Geteuid() == 0 {
		if err := os.Chown(messy, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.bddl")
	if err := os.Link(messy, hard); err != nil {
		t.Fatal(err)
	}
	args := []string{"fmt", "-w", messy}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	info, _ := os.Stat(messy)
	st := info.Sys().(*syscall.Stat_t)
	if info.Mode().Perm() != 0o640 || os.Geteuid() == 0 && (st.Uid != 65534 || st.Gid != 65534) {
		t.Errorf("mode %v owner %d:%d", info.Mode().Perm(), st.Uid, st.Gid)
	}
	if !bytes.Equal(readFile(t, hard), readFile(t, messy)) {
		t.Error("the hard link was split")
	}
	ro := copyTestdata(t, 0o444, "messy.bddl")
	path := filepath.Join(ro, "messy.bddl")
	before := readFile(t, path)
	args = []string{"fmt", "-w", path}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "read-only") || !bytes.Equal(readFile(t, path), before) {
		t.Errorf("read-only file: %s", r.stderr)
	}
}
