package main

import (
	"encoding/json"
	"regexp"
	"runtime"
	"testing"

	"github.com/openbddl/bddl/internal/buildinfo"
)

// TestVersionCommand: bddl version prints what --version prints, and
// its JSON record names the platform and Go version.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	long, short := runBDDL(t, "version"), runBDDL(t, "--version")
	long.wantCode(t, []string{"version"}, exitOK)
	if long.stdout != short.stdout {
		t.Errorf("bddl version printed %q, bddl --version %q", long.stdout, short.stdout)
	}
	if !regexp.MustCompile(`^bddl \S+ \(revision .*, go1\.\d+.*, ` + runtime.GOOS + `/` + runtime.GOARCH + `\)\n$`).MatchString(long.stdout) {
		t.Errorf("bddl version printed %q", long.stdout)
	}
	args := []string{"version", "--format", "json"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	var v buildinfo.Info
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("bddl version --format json: %v\n%s", err, r.stdout)
	}
	if v.Record != "version" || v.Go != runtime.Version() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH || v.Version == "" {
		t.Errorf("bddl version --format json = %+v", v)
	}
	runBDDL(t, "version", "--format", "yaml").wantCode(t, nil, exitMisuse)
}
