// Command release builds a release of bddl into one directory: for each
// platform of the Python package's build backend (python/_build/backend.py,
// PLATFORMS) a static bddl binary, the openbddl platform wheel that
// carries it, and a CLI archive (tar.gz; zip for Windows); then the sdist
// and SHA256SUMS.
//
//	go run ./tools/release -o dist/
//
// The output is reproducible: the binaries are built with -trimpath and
// stamped with the version (python/openbddl/_version.py), the commit and
// the commit's time, and every archive and wheel entry carries that time.
// docs/release.md says more.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	out       string
	platforms string
	python    string
	goBin     string
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.out, "o", "", "output directory (created; files of the same names are replaced)")
	fs.StringVar(&o.platforms, "platforms", "", "comma-separated wheel platform tags to build (default: all of the backend's)")
	fs.StringVar(&o.python, "python", "python3", "the Python that runs the wheel build backend")
	fs.StringVar(&o.goBin, "go", "go", "the go command")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./tools/release -o DIR [-platforms TAG,...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if err := release(o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return 1
	}
	return 0
}

// platform is one release platform: the wheel's tag and Go's target.
type platform struct {
	Tag, GOOS, GOARCH string
}

func (p platform) exe() string {
	if p.GOOS == "windows" {
		return "bddl.exe"
	}
	return "bddl"
}

// stamp is what a release build records in the binary.
type stamp struct {
	Version string
	Commit  string
	Time    time.Time // the commit's: the time of every file written
}

func (s stamp) ldflags() string {
	return fmt.Sprintf("-s -w -X main.buildVersion=%s -X main.buildCommit=%s -X main.buildTime=%s",
		s.Version, s.Commit, s.Time.UTC().Format(time.RFC3339))
}

func release(o options, stdout, stderr io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	st, err := readStamp(root, stderr)
	if err != nil {
		return err
	}
	plats, err := backendPlatforms(root, o.python)
	if err != nil {
		return err
	}
	if o.platforms != "" {
		if plats, err = selectPlatforms(plats, strings.Split(o.platforms, ",")); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bddl-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var files []string
	for _, p := range plats {
		bin := filepath.Join(work, p.Tag, p.exe())
		fmt.Fprintf(stderr, "release: go build %s/%s\n", p.GOOS, p.GOARCH)
		if err := goBuild(o.goBin, root, bin, p, st); err != nil {
			return err
		}
		whl, err := buildWheel(o.python, root, o.out, bin, p, st)
		if err != nil {
			return err
		}
		arc, err := writeArchive(o.out, root, bin, p, st)
		if err != nil {
			return err
		}
		files = append(files, whl, arc)
	}
	sdist, err := buildSdist(o.python, root, o.out, st)
	if err != nil {
		return err
	}
	files = append(files, sdist)
	if err := writeSums(o.out, files); err != nil {
		return err
	}
	for _, f := range append(files, sumsName) {
		info, err := os.Stat(filepath.Join(o.out, f))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-60s %6.1f MB\n", f, float64(info.Size())/1e6)
	}
	return nil
}

// moduleRoot is the directory of bddl's go.mod at or above the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/openbddl/bddl\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from the bddl source tree (no go.mod of github.com/openbddl/bddl here or above)")
		}
		dir = parent
	}
}

var versionLine = regexp.MustCompile(`(?m)^__version__\s*=\s*"([^"]+)"`)

// readStamp reads the version from python/openbddl/_version.py and the
// commit and its time from git. A tree with uncommitted changes is
// released with a warning: its binaries do not match the commit.
func readStamp(root string, stderr io.Writer) (stamp, error) {
	b, err := os.ReadFile(filepath.Join(root, "python", "openbddl", "_version.py"))
	if err != nil {
		return stamp{}, err
	}
	m := versionLine.FindSubmatch(b)
	if m == nil {
		return stamp{}, errors.New("python/openbddl/_version.py: no __version__ line")
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%H %ct").Output()
	if err != nil {
		return stamp{}, fmt.Errorf("git log: %v (a release is built from a git clone)", err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return stamp{}, fmt.Errorf("git log printed %q", out)
	}
	sec, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return stamp{}, fmt.Errorf("git log: commit time %q: %v", f[1], err)
	}
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		fmt.Fprintln(stderr, "release: warning: the tree has uncommitted changes; the binaries are stamped with the last commit but built from the tree")
	}
	return stamp{Version: string(m[1]), Commit: f[0], Time: time.Unix(sec, 0).UTC()}, nil
}

// backendPlatforms asks the build backend for its platform table, so
// that the wheels' tags and the binaries' targets are written once.
func backendPlatforms(root, python string) ([]platform, error) {
	cmd := exec.Command(python, "-c", "import json, backend; print(json.dumps(backend.PLATFORMS))")
	cmd.Dir = filepath.Join(root, "python", "_build")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s (the wheel build backend): %v%s", python, err, exitText(err))
	}
	var table map[string][2]string
	if err := json.Unmarshal(out, &table); err != nil {
		return nil, fmt.Errorf("the backend's PLATFORMS: %v", err)
	}
	var plats []platform
	for tag, t := range table {
		plats = append(plats, platform{Tag: tag, GOOS: t[0], GOARCH: t[1]})
	}
	slices.SortFunc(plats, func(a, b platform) int { return strings.Compare(a.Tag, b.Tag) })
	return plats, nil
}

func selectPlatforms(all []platform, tags []string) ([]platform, error) {
	var out []platform
	for _, tag := range tags {
		i := slices.IndexFunc(all, func(p platform) bool { return p.Tag == tag })
		if i < 0 {
			var names []string
			for _, p := range all {
				names = append(names, p.Tag)
			}
			return nil, fmt.Errorf("-platforms: unknown %q (one of %s)", tag, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

// goBuild cross-compiles bddl for p into out: static, stripped (-s -w),
// with no paths of this machine (-trimpath) and the stamp of st.
func goBuild(goBin, root, out string, p platform, st stamp) error {
	cmd := exec.Command(goBin, "build", "-trimpath", "-buildvcs=false", "-ldflags", st.ldflags(), "-o", out, "./cmd/bddl")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s/%s: %v\n%s", p.GOOS, p.GOARCH, err, b)
	}
	return nil
}

// buildWheel has the build backend write p's wheel around bin into dir
// and returns its file name.
func buildWheel(python, root, dir, bin string, p platform, st stamp) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(python, "-c", "import sys, backend; print(backend.build_wheel(sys.argv[1], {'bddl-binary': sys.argv[2], 'platform': sys.argv[3]}))", abs, bin, p.Tag)
	cmd.Dir = filepath.Join(root, "python", "_build")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "SOURCE_DATE_EPOCH="+strconv.FormatInt(st.Time.Unix(), 10))
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("wheel for %s: %v%s", p.Tag, err, exitText(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// buildSdist has the build backend write the sdist (the Python package
// and the Go source, from which a platform with no wheel builds the
// engine) into dir and returns its file name.
func buildSdist(python, root, dir string, st stamp) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(python, "-c", "import sys, backend; print(backend.build_sdist(sys.argv[1]))", abs)
	cmd.Dir = filepath.Join(root, "python", "_build")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "SOURCE_DATE_EPOCH="+strconv.FormatInt(st.Time.Unix(), 10))
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sdist: %v%s", err, exitText(err))
	}
	return strings.TrimSpace(string(out)), nil
}
