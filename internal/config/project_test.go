package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParse: paths are made absolute relative to the file, [defaults]
// tables are filed under their command paths, and a bad key is an error
// naming the file and key with a did-you-mean.
func TestParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	p, err := Parse(path, []byte("kb = \"kb\"\nactivities = \"/defs\"\n[defaults]\njobs = 2\n[defaults.check]\nhold = 3\n[defaults.episode.convert]\nformat = \"json\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Path != path || p.KB != filepath.Join(dir, "kb") || p.Activities != "/defs" {
		t.Errorf("Parse: path %q, kb %q, activities %q", p.Path, p.KB, p.Activities)
	}
	if p.Tables[""]["jobs"] != int64(2) || p.Tables["check"]["hold"] != int64(3) || p.Tables["episode convert"]["format"] != "json" {
		t.Errorf("Parse: tables %v", p.Tables)
	}
	for _, tt := range []struct{ src, want string }{
		{"kbb = \"x\"\n", `unknown key "kbb"; did you mean kb? (kb, activities or [defaults])`},
		{"kb = 3\n", "kb must be a path (a string)"},
		{"defaults = 1\n", "[defaults] must be a table of flag = value"},
		{"= =\n", FileName},
	} {
		if _, err := Parse(path, []byte(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("Parse(%q) = %v, want an error naming the file and saying %q", tt.src, err, tt.want)
		}
	}
}

// TestTableName: a command path's TOML table.
func TestTableName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "defaults", "check": "defaults.check", "episode convert": "defaults.episode.convert"} {
		if got := TableName(in); got != want {
			t.Errorf("TableName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFind: the nearest bddl.toml upwards, or the one $BDDL_CONFIG
// names, or none.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("kb = \"k\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("activities = \"d\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, "")
	if p, err := Find(sub); err != nil || p == nil || p.KB != filepath.Join(dir, "k") {
		t.Errorf("Find(%s) = %+v, %v; want the file two levels up", sub, p, err)
	}
	t.Setenv(EnvVar, other)
	if p, err := Find(sub); err != nil || p == nil || p.Activities == "" || p.KB != "" {
		t.Errorf("Find with $%s = %+v, %v; want the file it names", EnvVar, p, err)
	}
	t.Setenv(EnvVar, "none")
	if p, err := Find(sub); err != nil || p != nil {
		t.Errorf("Find with $%s=none = %+v, %v; want none", EnvVar, p, err)
	}
}

// FuzzReadProject: any bddl.toml is read or refused with an error, never
// a panic.
func FuzzReadProject(f *testing.F) {
	for _, seed := range []string{
		"kb = \"kb\"\nactivities = \"defs\"\n[defaults]\njobs = 2\n[defaults.check]\nhold = 3\n",
		"[defaults.episode.convert]\nformat = \"json\"\n",
		"kb = 3\n", "kbb = \"x\"\n", "[defaults]\nx = [1, 2]\n", "= =\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		proj, err := Parse(FileName, data)
		if err == nil && proj == nil {
			t.Fatal("no project and no error")
		}
	})
}

// TestNoteWrites: a writing flag the file set is noted with how to turn
// it off; other flags and no file are silent.
func TestNoteWrites(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	(&Project{Path: "/p/bddl.toml"}).NoteWrites(&b, "fmt", []string{"jobs", "write"})
	if got := b.String(); !strings.Contains(got, "fmt --write is set by /p/bddl.toml") || strings.Count(got, "\n") != 1 {
		t.Errorf("NoteWrites = %q", got)
	}
	b.Reset()
	(*Project)(nil).NoteWrites(&b, "fmt", []string{"write"})
	if b.Len() != 0 {
		t.Errorf("NoteWrites without a file = %q", b.String())
	}
}
