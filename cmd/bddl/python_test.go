package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPythonClient runs the openbddl package's unittest suite (python/tests)
// against a bddl binary built from this tree, so that the README's test
// command covers the Python client. It skips, saying so, without python3.
// Alone: cd python && BDDL_BIN=$(go env GOPATH)/bin/bddl python3 -m unittest discover -s tests -t .
func TestPythonClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Python client's tests are skipped")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the openbddl Python client's tests are skipped")
	}
	if out, err := exec.Command(py, "-c", "import sys; sys.exit(sys.version_info < (3, 9))").CombinedOutput(); err != nil {
		t.Skipf("python3 is older than 3.9, which openbddl needs: %s", out)
	}
	bin := filepath.Join(t.TempDir(), "bddl")
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	build := exec.Command(gobin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(py, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
	cmd.Dir = filepath.Join("..", "..", "python")
	cmd.Env = append(os.Environ(), "BDDL_BIN="+bin, "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest (in python/): %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	t.Logf("python client: %s; %s", lines[len(lines)-3], lines[len(lines)-1])
}
