package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigValidatesKeys: bddl config checks bddl.toml's keys as the
// commands would apply them: a bad one is reported (exit 2), never
// listed as in force; good ones are listed.
func TestConfigValidatesKeys(t *testing.T) {
	t.Setenv(configEnvVar, "")
	tests := []struct {
		name, toml string
		want       []string // on stderr; none: exit 0
		listed     string   // a setting listed as in force
	}{
		{"good", "[defaults]\njobs = 2\n[defaults.check]\nhold = 3\n", nil, "defaults.check.hold"},
		{"misspelt key of a command", "[defaults.check]\nhodl = 3\n", []string{"[defaults.check] hodl: bddl check has no flag --hodl; did you mean hold?"}, ""},
		{"misspelt key of defaults", "[defaults]\njbos = 2\n", []string{"[defaults] jbos: no command has a flag --jbos; did you mean jobs?"}, ""},
		{"bad value", "[defaults.check]\nhold = \"x\"\n", []string{"[defaults.check] hold:"}, ""},
		{"no such command", "[defaults.chekc]\nhold = 2\n", []string{"[defaults.chekc]: there is no command bddl chekc; did you mean check?"}, ""},
		{"subcommand", "[defaults.episode.convert]\nformat = \"json\"\n", nil, "defaults.episode.convert.format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte(tt.toml), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range []string{"text", "json"} {
				r := runBDDLIn(t, dir, "config", "--format", format)
				want := exitOK
				if len(tt.want) > 0 {
					want = exitMisuse
				}
				r.wantCode(t, []string{"config", "--format", format}, want)
				for _, w := range tt.want {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("%s: stderr %q, want %q", format, r.stderr, w)
					}
				}
				for _, bad := range []string{"hodl", "jbos", "chekc", "\"x\""} {
					if strings.Contains(r.stdout, bad) {
						t.Errorf("%s: a bad key is listed as in force:\n%s", format, r.stdout)
					}
				}
				if tt.listed != "" && !strings.Contains(r.stdout, tt.listed) {
					t.Errorf("%s: %s not listed:\n%s", format, tt.listed, r.stdout)
				}
			}
		})
	}
}
