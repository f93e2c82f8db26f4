package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmtStdout(t *testing.T) {
	t.Parallel()
	messy := filepath.Join("testdata", "messy.bddl")
	cookies := filepath.Join("testdata", "cookies.bddl")
	before := readFile(t, messy)

	args := []string{"fmt", messy}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if want := string(formatted(t, messy)); r.stdout != want {
		t.Errorf("bddl fmt stdout =\n%s\nwant\n%s", r.stdout, want)
	}
	if !strings.Contains(r.stdout, "; must be cooked") {
		t.Errorf("bddl fmt dropped a comment:\n%s", r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr = %q, want nothing", r.stderr)
	}
	if !bytes.Equal(readFile(t, messy), before) {
		t.Errorf("bddl fmt without -w changed %s", messy)
	}

	// Several files are printed one after another, in order.
	args = []string{"fmt", messy, cookies}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if want := string(formatted(t, messy)) + string(formatted(t, cookies)); r.stdout != want {
		t.Errorf("bddl fmt of two files =\n%s\nwant\n%s", r.stdout, want)
	}
}

func TestFmtDiff(t *testing.T) {
	t.Parallel()
	messy := filepath.Join("testdata", "messy.bddl")
	args := []string{"fmt", "-d", messy}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings) // a difference fails, as gofmt -d in CI
	for _, want := range []string{
		"--- " + messy + "\n",
		"+++ " + messy + " (formatted)\n",
		"@@ ",
		"\n-(define (problem messy-0) (:domain omnigibson)\n",
		"\n+(define (problem messy-0)\n",
		"\n+    (:domain omnigibson)\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("bddl fmt -d output lacks %q:\n%s", want, r.stdout)
		}
	}
	// An already formatted file gives no diff.
	dir := t.TempDir()
	canon := filepath.Join(dir, "canon.bddl")
	if err := os.WriteFile(canon, formatted(t, messy), 0o644); err != nil {
		t.Fatal(err)
	}
	args = []string{"fmt", "-d", canon}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if r.stdout != "" {
		t.Errorf("bddl fmt -d of a formatted file printed:\n%s", r.stdout)
	}
	// --diff is the long form.
	args = []string{"fmt", "--diff", messy}
	if r2 := runBDDL(t, args...); r2.code != exitFindings || !strings.Contains(r2.stdout, "@@ ") {
		t.Errorf("bddl fmt --diff = %d, %q, want a diff", r2.code, r2.stdout)
	}
}

func TestFmtWrite(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o640, "messy.bddl", "cookies.bddl", "domain.bddl")
	messy := filepath.Join(dir, "messy.bddl")
	want := formatted(t, messy)

	args := []string{"fmt", "-w", messy}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("bddl fmt -w printed stdout %q stderr %q, want nothing", r.stdout, r.stderr)
	}
	if got := readFile(t, messy); !bytes.Equal(got, want) {
		t.Errorf("after fmt -w, %s =\n%s\nwant\n%s", messy, got, want)
	}
	info, err := os.Stat(messy)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o640 {
		t.Errorf("fmt -w changed the mode of %s to %v, want %v", messy, got, os.FileMode(0o640))
	}

	// A second run changes nothing; a directory is walked.
	args = []string{"fmt", "-w", dir}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if got := readFile(t, messy); !bytes.Equal(got, want) {
		t.Errorf("a second fmt -w changed %s", messy)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "cookies.bddl domain.bddl messy.bddl" {
		t.Errorf("after fmt -w the directory holds %s, want only the three files (no temporary files)", got)
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if got, want := readFile(t, path), formatted(t, path); !bytes.Equal(got, want) {
			t.Errorf("after fmt -w on the directory, %s is not formatted", name)
		}
	}
}

// TestFmtLeavesBrokenFiles checks that files with syntax errors are
// reported and left alone, while the others are still formatted.
func TestFmtLeavesBrokenFiles(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"", "-w", "-d"} {
		t.Run("flag="+flag, func(t *testing.T) {
			t.Parallel()
			dir := copyTestdata(t, 0o644, "broken.bddl", "messy.bddl")
			broken := filepath.Join(dir, "broken.bddl")
			messy := filepath.Join(dir, "messy.bddl")
			before := readFile(t, broken)
			args := []string{"fmt"}
			if flag != "" {
				args = append(args, flag)
			}
			args = append(args, broken, messy)
			r := runBDDL(t, args...)
			r.wantCode(t, args, exitFindings)
			if !bytes.Equal(readFile(t, broken), before) {
				t.Errorf("bddl %s changed the broken file", strings.Join(args, " "))
			}
			if !strings.Contains(r.stderr, broken+":8:6: error:") {
				t.Errorf("stderr lacks the syntax error:\n%s", r.stderr)
			}
			if strings.Contains(r.stdout, "broken-0") {
				t.Errorf("stdout shows the broken file:\n%s", r.stdout)
			}
			switch flag {
			case "-w":
				if !bytes.Equal(readFile(t, messy), formatted(t, messy)) {
					t.Errorf("the good file beside the broken one was not formatted")
				}
			case "":
				if !strings.Contains(r.stdout, "(define (problem messy-0)") {
					t.Errorf("stdout lacks the good file:\n%s", r.stdout)
				}
			}
		})
	}
}

// TestFmtWriteAndDiffLeaveFiles checks that -w -d is refused before any
// file is touched.
func TestFmtWriteAndDiffLeaveFiles(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o644, "messy.bddl")
	messy := filepath.Join(dir, "messy.bddl")
	before := readFile(t, messy)
	args := []string{"fmt", "-w", "-d", messy}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !bytes.Equal(readFile(t, messy), before) {
		t.Errorf("bddl fmt -w -d changed the file")
	}
}

// TestFmtWriteSymlink checks that fmt -w on a symbolic link formats the
// file it points to and leaves the link a link, as gofmt -w does.
func TestFmtWriteSymlink(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o644, "messy.bddl")
	target := filepath.Join(dir, "messy.bddl")
	link := filepath.Join(dir, "link.bddl")
	if err := os.Symlink("messy.bddl", link); err != nil {
		t.Skipf("cannot make a symbolic link: %v", err)
	}
	want := formatted(t, target)
	args := []string{"fmt", "-w", link}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	info, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("bddl fmt -w replaced the symbolic link %s with a regular file", link)
	}
	if got := readFile(t, target); !bytes.Equal(got, want) {
		t.Errorf("bddl fmt -w through a link left the target unformatted:\n%s", got)
	}
}

// TestFmtCheckAndList: --check lists what would change and fails; -l
// lists and succeeds; neither writes.
func TestFmtCheckAndList(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o644, "messy.bddl")
	messy := filepath.Join(dir, "messy.bddl")
	canon := filepath.Join(dir, "canon.bddl")
	if err := os.WriteFile(canon, formatted(t, messy), 0o644); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, messy)
	for _, c := range []struct {
		flag string
		code int
	}{{"--check", exitFindings}, {"-l", exitOK}} {
		args := []string{"fmt", c.flag, dir}
		r := runBDDL(t, args...)
		r.wantCode(t, args, c.code)
		if r.stdout != messy+"\n" {
			t.Errorf("%s listed %q, want only %s", c.flag, r.stdout, messy)
		}
	}
	if !bytes.Equal(readFile(t, messy), before) {
		t.Error("--check or -l changed the file")
	}
	args := []string{"fmt", "--check", canon}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	args = []string{"fmt", "--check", "-w", canon}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
	// -l -w lists what it rewrote.
	args = []string{"fmt", "-l", "-w", dir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if r.stdout != messy+"\n" || !bytes.Equal(readFile(t, messy), readFile(t, canon)) {
		t.Errorf("-l -w: %q", r.stdout)
	}
}

// TestFmtExamplesCanonical: the README's `bddl fmt -d activities/examples`
// finds nothing to change: the shipped examples are in the canonical
// layout.
func TestFmtExamplesCanonical(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "activities", "examples")
	args := []string{"fmt", "-d", dir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if r.stdout != "" {
		t.Errorf("bddl fmt -d activities/examples printed a diff:\n%s", r.stdout)
	}
}
