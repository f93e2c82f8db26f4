package report

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/suggest"
	"github.com/openbddl/bddl/kb"
)

// checkerCodes are the codes of the parser, the language checker and the
// knowledge-base checks, which validate reports besides the activity
// rules'; TestKnownCodesComplete keeps the list in step with the sources.
var checkerCodes = []string{
	// parser
	"bad-declaration", "bare-dash", "duplicate-section", "empty-file", "empty-formula", "extra-paren",
	"forn-count", "goal-formulas", "invalid-character", "misplaced-section", "missing-declaration",
	"missing-section", "missing-type", "operand-count", "outside-define", "too-deep", "too-many-errors",
	"unclosed-paren", "unexpected-token", "unknown-section",
	// language checker
	"unknown-domain", "unknown-predicate", "arity", "unknown-synset", "bad-instance-name",
	"instance-type-mismatch", "duplicate-instance", "duplicate-type-line", "variable-type-mismatch",
	"shadowed-variable", "undeclared-instance", "unbound-variable", "init-not-ground", "init-not-literal",
	"quantifier-type-undeclared", "unknown-room",
	// knowledge base
	"canonical-mismatch", "cooking-mismatch", "cooking-param-missing", "cooking-rule-missing",
	"derived-rule-extra", "derived-rule-mismatch", "many-roots", "missing-file", "missing-param",
	"name-format", "no-object-type", "nonleaf-derivative", "nonleaf-params", "object-types",
	"params-without-property", "substance-and-not", "unknown-model", "unknown-room-type",
	"unmapped-category", "propagation-extra", "propagation-missing", "rule-clash",
	"bad-name", "category-mismatch", "csv-header", "csv-type", "cycle", "duplicate-category",
	"duplicate-synset", "ignored-file", "inventory-type", "missing-input", "no-solvent", "non-finite",
	"param-type", "pruned-synset", "rule-name", "rule-no-output", "rule-type", "scenes-type", "syntax",
	"too-few-steps", "unknown-field", "unknown-parent", "unknown-rule-kind", "unknown-type",
	"wrong-container", "yaml-type", "rule-limit",
	// the LIBERO dialect: its parser and validator
	"libero-arity", "libero-category", "libero-contradiction", "libero-domain",
	"libero-duplicate-name", "libero-episode", "libero-goal-at-init", "libero-goal-form",
	"libero-in-object", "libero-init-form", "libero-language", "libero-no-placement",
	"libero-not-articulated", "libero-number", "libero-predicate", "libero-problem-class",
	"libero-range-empty", "libero-range-inverted", "libero-range-outside",
	"libero-region-capacity", "libero-region-ref", "libero-region-syntax", "libero-region-target",
	"libero-scene-properties", "libero-site", "libero-undeclared", "libero-workspace-ranges",
	"libero-yaw-order",
	// validate itself
	"read-error",
}

// KnownCodes are every code validate can report.
func KnownCodes() []string {
	codes := append([]string(nil), checkerCodes...)
	for _, r := range activities.Rules() {
		codes = append(codes, r.Code)
	}
	return codes
}

// A Filter keeps the findings validate reports: of Minimum severity or
// more, with a code Select matches (when it is not empty) and Ignore
// does not. A pattern is a code or a prefix followed by "*".
type Filter struct {
	Minimum        bddl.Severity
	Select, Ignore []string
}

// CheckPatterns refuses a --select or --ignore pattern (flag names
// which) that matches no code validate reports, with the closest codes:
// a typo would otherwise select nothing and read as "no findings".
func (f Filter) CheckPatterns() error {
	codes := KnownCodes()
	for _, flag := range []struct {
		name     string
		patterns []string
	}{{"select", f.Select}, {"ignore", f.Ignore}} {
		for _, p := range flag.patterns {
			p = strings.TrimSpace(p)
			if p == "" || codeMatchesAny(p, codes) {
				continue
			}
			return fmt.Errorf("--%s %s: no such code%s (docs/validate.md lists the codes)", flag.name, p,
				suggest.DidYouMean(strings.TrimSuffix(p, "*"), codes))
		}
	}
	return nil
}

func codeMatchesAny(pattern string, codes []string) bool {
	for _, c := range codes {
		if MatchCode(c, []string{pattern}) {
			return true
		}
	}
	return false
}

// MatchCode reports whether code is one of the patterns.
func MatchCode(code string, patterns []string) bool {
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(code, prefix) || p == code {
			return true
		}
	}
	return false
}

// Keeps reports whether a finding of code and severity passes the filter.
func (f Filter) Keeps(code string, sev bddl.Severity) bool {
	return sev <= f.Minimum && (len(f.Select) == 0 || MatchCode(code, f.Select)) && !MatchCode(code, f.Ignore)
}

// Keep filters fs in place.
func (f Filter) Keep(fs []activities.Finding) []activities.Finding {
	out := fs[:0]
	for _, x := range fs {
		if f.Keeps(x.Code, x.Severity) {
			out = append(out, x)
		}
	}
	return out
}

// KeepKB filters knowledge-base findings in place.
func (f Filter) KeepKB(fs []kb.Finding) []kb.Finding {
	out := fs[:0]
	for _, x := range fs {
		// kb's severities count from 1, bddl's from 0.
		if f.Keeps(x.Code, bddl.Severity(x.Severity-1)) {
			out = append(out, x)
		}
	}
	return out
}
