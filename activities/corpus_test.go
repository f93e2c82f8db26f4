package activities

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

// corpusSummary renders the findings of the corpus run for the golden
// file: counts per code, then every error as file:line:col code.
func corpusSummary(lib *Library, reps []Report, root string) string {
	type key struct {
		sev  bddl.Severity
		code string
	}
	counts := map[key]int{}
	var errs []string
	for i, rep := range reps {
		rel, _ := filepath.Rel(root, lib.Activities[i].Path)
		for _, f := range rep.Findings {
			counts[key{f.Severity, f.Code}]++
			if f.Severity == bddl.Error {
				errs = append(errs, fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(rel), f.Subject.Start.Line, f.Subject.Start.Col, f.Code))
			}
		}
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.sev != b.sev {
			return int(a.sev) - int(b.sev)
		}
		return strings.Compare(a.code, b.code)
	})
	var b strings.Builder
	b.WriteString("# Findings of every activity rule on the BEHAVIOR-1K corpus against its knowledge base.\n")
	b.WriteString("# Review changes, then regenerate: go test ./activities -run TestCorpus -update\n")
	fmt.Fprintf(&b, "definitions %d\n\nfindings by code:\n", len(reps))
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-7s %-28s %5d\n", k.sev, k.code, counts[k])
	}
	b.WriteString("\nerrors:\n")
	for _, e := range errs {
		b.WriteString("  " + e + "\n")
	}
	return b.String()
}

// TestCorpus validates every BEHAVIOR-1K definition of the corpus against
// the BEHAVIOR-1K knowledge base and compares the findings with the
// reviewed summary in testdata/corpus_summary.golden.
func TestCorpus(t *testing.T) {
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatalf("loading the corpus knowledge base: %v", err)
	}
	root := corpus.ActivitiesDir(t)
	lib, err := LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Activities) == 0 || corpus.Recorded(t) && len(lib.Activities) < 100 {
		t.Fatalf("LoadDir(%s) found %d definitions", root, len(lib.Activities))
	}
	reps := lib.Validate(base)
	if !corpus.Recorded(t) {
		// A user's own corpus: every finding lies in its file, and a
		// released corpus is mostly clean.
		withErrors := 0
		for i, a := range lib.Activities {
			hasErr := false
			for _, f := range reps[i].Findings {
				hasErr = hasErr || f.Severity == bddl.Error
				if f.Source != nil && (f.Subject.Start.Line < 1 || int(f.Subject.Start.Offset) > len(a.Source)) {
					t.Errorf("%s: finding outside the file: %s", a.Path, f.Error())
				}
			}
			if hasErr {
				withErrors++
			}
		}
		if withErrors > len(lib.Activities)/10 {
			t.Errorf("%d of %d definitions have errors: validated against the wrong knowledge base?", withErrors, len(lib.Activities))
		}
		return
	}
	got := corpusSummary(lib, reps, root)
	golden := filepath.Join("testdata", "corpus_summary.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("corpus findings changed (-golden +now); review, then run with -update:\n%s", diff)
	}

	// Wildcard definitions are valid: no wildcard finding anywhere.
	wildcards := 0
	for i, a := range lib.Activities {
		if !strings.Contains(string(a.Source), "_*") {
			continue
		}
		wildcards++
		for _, f := range reps[i].Findings {
			if strings.HasPrefix(f.Code, "wildcard") || f.Code == "bad-instance-name" {
				t.Errorf("%s: wildcard definition rejected: %s", a.Path, f.Error())
			}
		}
	}
	if wildcards == 0 {
		t.Errorf("the corpus has no wildcard definition; the test checks nothing")
	}
}

// TestCorpusKB runs the knowledge-base rules on the BEHAVIOR-1K knowledge
// base: they must run, and clashes are reported pair by pair.
func TestCorpusKB(t *testing.T) {
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fs := CheckKB(base)
	t.Logf("CheckKB: %d findings in %v", len(fs), time.Since(start))
	for _, f := range fs {
		if !slices.ContainsFunc(KBRules, func(r KBRule) bool { return r.Code == f.Code }) {
			t.Errorf("finding with an undocumented code: %v", f)
		}
	}
}
