package validaterun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

func options(out, errw *bytes.Buffer) Options {
	return Options{Filter: report.Filter{Minimum: bddl.Info}, Out: out, Err: errw,
		Pool: func(int) batch.Pool { return batch.Pool{Jobs: 2} },
		Read: func(in batch.Input) ([]byte, error) { return fsutil.ReadFile(in.Path, fsutil.DefinitionLimit) }}
}

// TestCollectExamples: no PATH validates every embedded example, loading
// the knowledge base once.
func TestCollectExamples(t *testing.T) {
	t.Parallel()
	var out, errw bytes.Buffer
	loads := 0
	res, failed, done, err := options(&out, &errw).Collect(Inputs{Named: &activities.Library{}, Examples: true,
		KB: func() (*kb.Base, error) { loads++; return kb.Default(), nil }})
	if err != nil || failed || done || loads != 1 || len(res) != len(activities.Examples().Activities) {
		t.Fatalf("Collect(examples) = %d results, %v, %v, %v; %d loads", len(res), failed, done, err, loads)
	}
}

// TestCollectStops: Expand's stop ends the run quietly, before the
// knowledge base is loaded; unreadable files become results with errors.
func TestCollectStops(t *testing.T) {
	t.Parallel()
	var out, errw bytes.Buffer
	noKB := func() (*kb.Base, error) { t.Error("knowledge base loaded"); return kb.Default(), nil }
	if _, _, done, err := options(&out, &errw).Collect(Inputs{Named: &activities.Library{}, KB: noKB,
		Expand: func() ([]batch.Input, bool, error) { return nil, true, nil }}); !done || err != nil {
		t.Errorf("Collect(stop) = done %v, %v", done, err)
	}
	missing := filepath.Join(t.TempDir(), "missing.bddl")
	res, _, done, err := options(&out, &errw).Collect(Inputs{Named: &activities.Library{},
		KB:     func() (*kb.Base, error) { return kb.Default(), nil },
		Expand: func() ([]batch.Input, bool, error) { return []batch.Input{{Path: missing, Arg: missing}}, false, nil }})
	if err != nil || done || len(res) != 1 || res[0].Err == nil {
		t.Errorf("Collect(missing) = %+v, done %v, %v", res, done, err)
	}
}

// TestLibero: a LIBERO definition is validated and summed up apart; a
// BEHAVIOR-1K one is handed back.
func TestLibero(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "cmd", "bddl", "testdata", "cookies.bddl"))
	if err != nil {
		t.Skip("no BEHAVIOR-1K definition beside the command:", err)
	}
	p := filepath.Join(dir, "cookies.bddl")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	rest, failed, err := options(&out, &errw).Libero([]batch.Input{{Path: p, Arg: dir}})
	if err != nil || failed || len(rest) != 1 || strings.Contains(out.String(), "LIBERO") {
		t.Errorf("Libero(BEHAVIOR-1K file) = %v, %v, %v; out %q", rest, failed, err, out.String())
	}
}
