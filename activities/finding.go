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

// jsonFinding is the flat JSON record of a finding, the same shape as a
// bddl diagnostic's plus the rule.
type jsonFinding struct {
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Col      int           `json:"col"`
	EndLine  int           `json:"end_line"`
	EndCol   int           `json:"end_col"`
	Offset   int           `json:"offset"`
	Severity bddl.Severity `json:"severity"`
	Code     string        `json:"code"`
	Rule     string        `json:"rule"`
	Message  string        `json:"message"`
	Fix      string        `json:"fix,omitempty"`
}

// MarshalJSON writes one flat record: file, line, col, end_line, end_col,
// offset, severity, code, rule, message, fix.
func (f Finding) MarshalJSON() ([]byte, error) {
	d := &f.Diagnostic
	return json.Marshal(jsonFinding{
		File: d.Filename(), Line: d.Subject.Start.Line, Col: d.Subject.Start.Col,
		EndLine: d.Subject.End.Line, EndCol: d.Subject.End.Col, Offset: d.Subject.Start.Offset,
		Severity: d.Severity, Code: d.Code, Rule: f.Rule, Message: d.Summary, Fix: d.Detail,
	})
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
