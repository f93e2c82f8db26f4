package report

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKnownCodesComplete checks checkerCodes against the codes the
// parser, checker and knowledge base write in their sources.
func TestKnownCodesComplete(t *testing.T) {
	t.Parallel()
	known := KnownCodes()
	patterns := []*regexp.Regexp{
		regexp.MustCompile(`\bcode[A-Z]\w* *= *"([a-z]+(?:-[a-z]+)*)"`),
		regexp.MustCompile(`\bCode: *"([a-z]+(?:-[a-z]+)+)"`),
		regexp.MustCompile(`, "([a-z]+(?:-[a-z]+)+)", "`),
		regexp.MustCompile(`\.(?:errorf|notef)\([^,]*(?:, *Location\{[^}]*\})?, *"([a-z]+(?:-[a-z]+)+)"`),
	}
	for _, dir := range []string{"../../bddl", "../../kb", "../../activities", "../../libero"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, re := range patterns {
				for _, m := range re.FindAllSubmatch(src, -1) {
					if c := string(m[1]); !slices.Contains(known, c) {
						t.Errorf("%s reports code %q, which validate --select refuses: add it to checkerCodes", f, c)
					}
				}
			}
		}
	}
}

// TestFilter: a finding passes when severe enough, selected (or nothing
// is) and not ignored; prefix* patterns match prefixes.
func TestFilter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		f    Filter
		code string
		want bool
	}{
		{"all", Filter{Minimum: 2}, "unplaced", true},
		{"selected", Filter{Minimum: 2, Select: []string{"unknown-*"}}, "unknown-synset", true},
		{"not selected", Filter{Minimum: 2, Select: []string{"unknown-*"}}, "unplaced", false},
		{"ignored", Filter{Minimum: 2, Ignore: []string{" unplaced"}}, "unplaced", false},
	} {
		if got := c.f.Keeps(c.code, 0); got != c.want {
			t.Errorf("%s: Keeps(%q) = %v, want %v", c.name, c.code, got, c.want)
		}
	}
	if err := (Filter{Select: []string{"unknown-synsett"}}).CheckPatterns(); err == nil || !strings.Contains(err.Error(), "did you mean unknown-synset?") {
		t.Errorf("CheckPatterns(unknown-synsett) = %v", err)
	}
}
