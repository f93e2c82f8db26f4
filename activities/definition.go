package activities

import (
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/libero"
)

// RuleLibero is the Rule name of the findings of LIBERO's checks
// (libero.Validate).
const RuleLibero = "libero"

// ValidateLibero validates a definition in LIBERO's dialect as every
// authoring command reads it: strictly parsed, then, when it parsed
// without errors, LIBERO's checks. Findings are the parser's, then
// LIBERO's, each in its own order.
func ValidateLibero(filename string, src []byte) (*bddl.Problem, []Finding) {
	p, diags := bddl.Options{Dialect: bddl.DialectLibero}.ParseProblem(filename, src)
	found := fromDiagnostics(diags, RuleSyntax, nil)
	if !diags.HasErrors() && p != nil {
		found = fromDiagnostics(libero.Validate(p), RuleLibero, found)
	}
	return p, found
}

// ValidateDefinition validates one file read in dialect d (DialectAuto
// detects it: bddl.IsLibero) as `bddl validate` does: LIBERO's definitions
// through ValidateLibero, the others through ValidateSource against base.
// libero reports which dialect was read; a LIBERO report has no Scenes.
func ValidateDefinition(filename string, src []byte, d bddl.Dialect, base *kb.Base, opts ...Option) (p *bddl.Problem, rep Report, isLibero bool) {
	if d == bddl.DialectLibero || d == bddl.DialectAuto && bddl.IsLibero(src) {
		p, fs := ValidateLibero(filename, src)
		return p, Report{Findings: fs}, true
	}
	p, rep = ValidateSource(filename, src, base, opts...)
	return p, rep, false
}
