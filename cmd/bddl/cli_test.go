package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// cliResult is what one run of the command printed and returned.
type cliResult struct {
	code           int
	stdout, stderr string
}

// runBDDL runs the bddl command line with args, as main does, with empty
// standard input; bddl.toml is looked for from the temporary directory,
// so that a project file around the repository does not change results.
func runBDDL(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errw bytes.Buffer
	code := runIn(os.TempDir(), args, strings.NewReader(""), &out, &errw)
	return cliResult{code, out.String(), errw.String()}
}

// wantCode fails the test when the run did not exit with code.
func (r cliResult) wantCode(t *testing.T, args []string, code int) {
	t.Helper()
	if r.code != code {
		t.Errorf("bddl %s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
}

// copyTestdata copies the named testdata files into a fresh temporary
// directory with the given mode and returns the directory.
func copyTestdata(t *testing.T, mode os.FileMode, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.WriteFile(dst, src, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dst, mode); err != nil { // not subject to umask
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// formatted is what bddl.Format makes of a testdata file.
func formatted(t *testing.T, path string) []byte {
	t.Helper()
	f, diags := bddl.ParseFile(path, readFile(t, path))
	if diags.HasErrors() {
		t.Fatalf("%s does not parse: %v", path, diags)
	}
	return bddl.Format(f)
}

// TestHelp checks that every command documents itself with examples.
func TestHelp(t *testing.T) {
	t.Parallel()
	root := newRootCmd(streams{})
	cmds := [][]string{{"--help"}}
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		cmds = append(cmds, []string{c.Name(), "--help"})
	}
	for _, want := range []string{"parse", "fmt", "explain"} {
		if !slices.ContainsFunc(cmds, func(args []string) bool { return args[0] == want }) {
			t.Errorf("bddl has no %s command", want)
		}
	}
	for _, args := range cmds {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			r := runBDDL(t, args...)
			r.wantCode(t, args, exitOK)
			if !strings.Contains(r.stdout, "Example") {
				t.Errorf("bddl %s prints no example:\n%s", strings.Join(args, " "), r.stdout)
			}
			if !strings.Contains(r.stdout, "Usage:") {
				t.Errorf("bddl %s prints no usage line:\n%s", strings.Join(args, " "), r.stdout)
			}
		})
	}
}

// TestMisuse checks that usage errors exit 2 with a message on stderr and
// nothing on stdout.
func TestMisuse(t *testing.T) {
	t.Parallel()
	good := filepath.Join("testdata", "cookies.bddl")
	missing := filepath.Join("testdata", "no-such-file.bddl")
	tests := []struct {
		name   string
		args   []string
		stderr string // a substring of the message
	}{
		{"parse without paths", []string{"parse"}, "bddl parse needs definition files or directories"},
		{"fmt without paths", []string{"fmt"}, "bddl fmt needs definition files or directories"},
		{"explain without a file", []string{"explain"}, "bddl explain needs a definition file or an activity name"},
		{"explain with two files", []string{"explain", good, good}, "takes a definition file or an activity name, not 2 arguments"},
		{"parse with a bad format", []string{"parse", "--format", "xml", good}, `--format must be text or json, not "xml"`},
		{"explain with a bad format", []string{"explain", "--format", "yaml", good}, "--format must be text or json"},
		{"parse a missing file", []string{"parse", missing}, "no-such-file.bddl"},
		{"parse a missing file after a good one", []string{"parse", good, missing}, "no-such-file.bddl"},
		{"fmt a missing file", []string{"fmt", missing}, "no-such-file.bddl"},
		{"explain a missing file", []string{"explain", missing}, "no-such-file.bddl"},
		{"explain a domain file", []string{"explain", filepath.Join("testdata", "domain.bddl")}, "domain file"},
		{"unknown flag", []string{"parse", "--frobnicate", good}, "unknown flag"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"fmt -w and -d together", []string{"fmt", "-w", "-d", good}, "-w and -d cannot be combined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runBDDL(t, tt.args...)
			r.wantCode(t, tt.args, exitMisuse)
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("bddl %s stderr = %q, want it to contain %q", strings.Join(tt.args, " "), r.stderr, tt.stderr)
			}
			if r.stdout != "" {
				t.Errorf("bddl %s stdout = %q, want nothing", strings.Join(tt.args, " "), r.stdout)
			}
		})
	}
}
