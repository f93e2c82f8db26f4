package ogconvert

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/kb"
)

const fixtures = "../../../episode/omnigibson/testdata"

func copyText(path string, src []byte) []byte { return append([]byte(";; "+path+"\n"), src...) }

// TestPlanAndRun converts the tiny task's instance: the plan finds its
// definition beside the template, the run writes the episode, its record
// and the definition's copy beside it.
func TestPlanAndRun(t *testing.T) {
	base := kb.Default()
	var diags bytes.Buffer
	task := filepath.Join(fixtures, "tiny")
	jobs, defs, err := Plan([]string{task}, Options{Base: base, Dataset: nil, Diagnostics: &diags, DefinitionCopy: copyText})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if len(jobs) != 1 || len(defs) != 1 || defs[0].Name == "" || !bytes.HasPrefix(defs[0].Src, []byte(";; ")) {
		t.Fatalf("Plan = %d jobs, defs %+v", len(jobs), defs)
	}
	dir := t.TempDir() + string(filepath.Separator)
	if err := omnigibson.AssignOutputs(jobs, dir); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	results, failed, err := Run(context.Background(), jobs, defs, RunOptions{JSON: true, Out: &out, Err: &errw})
	if err != nil || failed != 0 || len(results) != 1 {
		t.Fatalf("Run = %d results, %d failed, %v; stderr %s", len(results), failed, err, errw.String())
	}
	if !strings.HasPrefix(out.String(), `{"activity":"`+defs[0].Name+`"`) || !strings.Contains(out.String(), `"record":"converted"`) {
		t.Errorf("record: %s", out.String())
	}
	if _, err := os.Stat(results[0].Job.Out); err != nil {
		t.Errorf("episode not written: %v", err)
	}
	copied, err := os.ReadFile(filepath.Join(dir, defs[0].Name+".bddl"))
	if err != nil || !bytes.Equal(copied, defs[0].Src) {
		t.Errorf("definition copy: %v", err)
	}
	var sum bytes.Buffer
	WriteSummary(&sum, results, failed, len(jobs), dir)
	if sum.Len() == 0 {
		t.Errorf("WriteSummary wrote nothing")
	}
}

func TestPlanUsageErrors(t *testing.T) {
	t.Parallel()
	task := filepath.Join(fixtures, "tiny")
	for _, tc := range []struct {
		name  string
		paths []string
		o     Options
		want  string
	}{
		{"a name without --activities", []string{task}, Options{Activity: "put_apple"}, "--activities DIR"},
		{"no such path", []string{filepath.Join(fixtures, "nothing here")}, Options{}, "nothing here"},
		{"a definition that is not a file", []string{task}, Options{Activity: filepath.Join(fixtures, "missing.bddl")}, "definition: "},
	} {
		_, _, err := Plan(tc.paths, tc.o)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Plan error = %v, want a UsageError with %q", tc.name, err, tc.want)
		}
	}
}
