package main

import (
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
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

// knownCodes are every code validate can report.
func knownCodes() []string {
	codes := append([]string(nil), checkerCodes...)
	for _, r := range activities.Rules() {
		codes = append(codes, r.Code)
	}
	return codes
}

// checkCodePatterns refuses a --select or --ignore pattern that matches
// no code validate reports, with the closest codes: a typo would
// otherwise select nothing and read as "no findings".
func checkCodePatterns(flag string, patterns []string) error {
	if len(patterns) == 0 {
		return nil
	}
	codes := knownCodes()
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if p == "" || codeMatchesAny(p, codes) {
			continue
		}
		return misuse("--%s %s: no such code%s (docs/validate.md lists the codes)", flag, p,
			didYouMean(strings.TrimSuffix(p, "*"), codes))
	}
	return nil
}

func codeMatchesAny(pattern string, codes []string) bool {
	for _, c := range codes {
		if codeMatches(c, []string{pattern}) {
			return true
		}
	}
	return false
}

// codeMatches reports whether code is one of the patterns.
func codeMatches(code string, patterns []string) bool {
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(code, prefix) || p == code {
			return true
		}
	}
	return false
}

// reported reports whether a finding of code and severity passes the
// filters.
func (o *validateOptions) reported(code string, sev bddl.Severity) bool {
	return sev <= o.minimum && (len(o.selectC) == 0 || codeMatches(code, o.selectC)) && !codeMatches(code, o.ignoreC)
}

func (o *validateOptions) keep(fs []activities.Finding) []activities.Finding {
	out := fs[:0]
	for _, f := range fs {
		if o.reported(f.Code, f.Severity) {
			out = append(out, f)
		}
	}
	return out
}

func (o *validateOptions) keepKB(fs []kb.Finding) []kb.Finding {
	out := fs[:0]
	for _, f := range fs {
		// kb's severities count from 1, bddl's from 0.
		if o.reported(f.Code, bddl.Severity(f.Severity-1)) {
			out = append(out, f)
		}
	}
	return out
}
