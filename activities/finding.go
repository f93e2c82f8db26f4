package activities

import (
	"encoding/json"

	"github.com/openbddl/bddl/bddl"
)

// Finding is one problem found in an activity definition: a diagnostic
// (severity, code, message, fix, range, source) and the rule that found it.
type Finding struct {
	bddl.Diagnostic
	// Rule names the rule that reported the finding: an activity rule's
	// Name, RuleCheck for the language checker, RuleSyntax for the parser.
	Rule string
}

// The Rule names of findings that do not come from an activity rule.
const (
	RuleSyntax = "syntax" // bddl.ParseFile
	RuleCheck  = "check"  // bddl.Check
)

// MarshalJSON writes one flat record: the bddl diagnostic's (file, line,
// col, end_line, end_col, offset, severity, code, message, fix) and the rule.
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		bddl.DiagnosticRecord
		Rule string `json:"rule"`
	}{f.Diagnostic.Record(), f.Rule})
}

// Diagnostics returns the findings as bddl diagnostics, pointing into fs,
// for the bddl renderers (WriteText prints each with its source line).
func Diagnostics(fs []Finding) bddl.Diagnostics {
	out := make(bddl.Diagnostics, len(fs))
	for i := range fs {
		out[i] = &fs[i].Diagnostic
	}
	return out
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	for i := range fs {
		if fs[i].Severity == bddl.Error {
			return true
		}
	}
	return false
}

func fromDiagnostics(ds bddl.Diagnostics, rule string, out []Finding) []Finding {
	for _, d := range ds {
		out = append(out, Finding{Diagnostic: *d, Rule: rule})
	}
	return out
}
