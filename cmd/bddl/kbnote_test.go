package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKBNoteOnlyWhenImplicit: the knowledge-base note is printed once a
// process, and only when nothing chose the knowledge base: not for --kb,
// $BDDL_KB or bddl.toml, and never by bddl serve, whose clients (one
// server per worker of a multiprocessing pool) choose with kb=.
func TestKBNoteOnlyWhenImplicit(t *testing.T) {
	t.Setenv(configEnvVar, "")
	small := filepath.Join(t.TempDir(), "small.yaml")
	if err := os.WriteFile(small, readFile(t, filepath.Join("testdata", "validate", "kb.yaml")), 0o644); err != nil {
		t.Fatal(err)
	}
	eps := []string{examplePath("cleaning_shoes", "success.jsonl"), examplePath("tidying_the_living_room", "poses.jsonl")}
	const note = "bddl: note: using"
	tests := []struct {
		name  string
		env   string
		args  []string
		notes int
	}{
		{"embedded default, several episodes", "", append([]string{"check"}, eps...), 1},
		{"--kb", "", []string{"--kb", small, "kb", "show", "sink.n.01"}, 0},
		{"$BDDL_KB", small, []string{"kb", "show", "sink.n.01"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("BDDL_KB", tt.env)
			r := runBDDL(t, tt.args...)
			if n := strings.Count(r.stderr, note); n != tt.notes {
				t.Errorf("bddl %v: %d notes, want %d:\n%s", tt.args, n, tt.notes, r.stderr)
			}
		})
	}
	t.Run("serve", func(t *testing.T) {
		t.Setenv("BDDL_KB", "")
		var out, errw bytes.Buffer
		in := strings.NewReader(`{"id":1,"method":"explain","params":{"activity":"cleaning_shoes"}}` + "\n")
		runIn(t.TempDir(), []string{"serve"}, in, &out, &errw)
		if !strings.Contains(out.String(), `"id":1`) || strings.Contains(errw.String(), note) {
			t.Errorf("serve: stdout %q, stderr %q: want an answer and no note", out.String(), errw.String())
		}
	})
}
