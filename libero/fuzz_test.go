package libero

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// FuzzValidateSample checks that validation, explanation and sampling
// never panic on any definition that parses, and that a sample, when one
// is drawn, satisfies :init.
func FuzzValidateSample(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "errors", "*.bddl"))
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, diags := bddl.Options{Mode: bddl.Reference, Dialect: bddl.DialectLibero}.ParseProblem("f.bddl", []byte(src))
		if diags.HasErrors() || p == nil {
			return
		}
		Validate(p)
		Explain(p)
		task := Resolve(p)
		step, err := Sample(task, 7)
		if err != nil {
			return
		}
		if r := Check(task, []Step{step}); r.Init != True {
			t.Fatalf("sampled state fails :init: %+v", r.InitFailures)
		}
	})
}
