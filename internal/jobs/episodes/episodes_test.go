package episodes

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// source is the embedded example activity on the embedded knowledge base.
func source(activity string) *Source {
	return &Source{Activity: activity, Open: func() (*batch.Resolver, bddl.Options, error) {
		return batch.NewResolver(kb.Default(), predicates.Options{}), bddl.Options{Mode: bddl.Reference}, nil
	}}
}

func TestCreate(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	w, finish, err := Create("-", &stdout)
	if err != nil || w != &stdout || finish() != nil {
		t.Fatalf("Create(-) = %v, %v", w, err)
	}
	gz := filepath.Join(t.TempDir(), "x.jsonl.gz")
	w, finish, err = Create(gz, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "line\n")
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(gz)
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not gzip: %v", gz, err)
	}
	if b, _ := io.ReadAll(r); string(b) != "line\n" {
		t.Errorf("%s holds %q", gz, b)
	}
	var u *batch.UsageError
	if _, _, err := Create(t.TempDir(), &stdout); !errors.As(err, &u) {
		t.Errorf("Create(a directory) error %v, want a usage error", err)
	}
}

// TestFromInitAndSynth: from-init writes a header and one step; synth
// refuses a bad kind or length before compiling anything.
func TestFromInitAndSynth(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := FromInit(source("cleaning_shoes"), "-", &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 2 || !strings.Contains(out.String(), `"cleaning_shoes"`) {
		t.Errorf("FromInit wrote %d lines:\n%s", n, out.String())
	}
	var u *batch.UsageError
	for _, tc := range []struct {
		kind  string
		steps int
		want  string
	}{
		{"video", 10, `--kind "video": use symbolic or poses`},
		{"poses", 0, "--steps must be at least 1"},
	} {
		err := Synth(&Source{}, tc.kind, tc.steps, 1, "-", io.Discard, io.Discard)
		if !errors.As(err, &u) || err.Error() != tc.want {
			t.Errorf("Synth(%s, %d) error %v, want usage %q", tc.kind, tc.steps, err, tc.want)
		}
	}
	out.Reset()
	if err := Synth(source("cleaning_shoes"), "symbolic", 5, 1, "-", &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 6 {
		t.Errorf("Synth of 5 steps wrote %d lines", n)
	}
}

func TestRequestMisuse(t *testing.T) {
	t.Parallel()
	var u *batch.UsageError
	for name, err := range map[string]error{
		"convert without -o":        ConvertRoboLab(&Source{}, "", []string{"run.hdf5"}, Output{}),
		"convert without activity":  ConvertRoboLab(&Source{}, "", []string{"run.hdf5"}, Output{Out: t.TempDir()}),
		"recordings bad rate":       FromRecordings(&Source{}, &Recordings{Rate: -1, MaxGap: 1}, nil, "oopsie", Output{Out: "x"}),
		"recordings without -o":     FromRecordings(&Source{}, &Recordings{MaxGap: 1}, nil, "oopsie", Output{}),
		"annotate bad annotator":    Annotate(nil, &Source{}, &Recordings{MaxGap: 1}, nil, Annotation{Annotator: "a/b"}, Output{}),
		"apply-rules without -o":    Apply(ApplyRules{Episode: "x.jsonl"}),
		"apply-rules onto the same": Apply(ApplyRules{Episode: "x.jsonl", Out: "./x.jsonl"}),
	} {
		if !errors.As(err, &u) {
			t.Errorf("%s: error %v, want a usage error", name, err)
		}
	}
}
