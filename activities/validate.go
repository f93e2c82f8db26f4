package activities

import (
	"cmp"
	"slices"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// config is what the Options set.
type config struct {
	only   map[string]bool // rule codes to run; nil: all
	skip   map[string]bool // rule codes not to run
	domain *bddl.Domain    // nil: the embedded domain the problem names
}

// Option configures Validate and Analyze.
type Option func(*config)

// OnlyRules runs only the activity rules with these codes (the language
// checker always runs).
func OnlyRules(codes ...string) Option {
	return func(c *config) {
		if c.only == nil {
			c.only = map[string]bool{}
		}
		for _, code := range codes {
			c.only[code] = true
		}
	}
}

// SkipRules does not run the activity rules with these codes, e.g.
// SkipRules("no-scene") when scene data is of no interest.
func SkipRules(codes ...string) Option {
	return func(c *config) {
		if c.skip == nil {
			c.skip = map[string]bool{}
		}
		for _, code := range codes {
			c.skip[code] = true
		}
	}
}

// WithDomain checks predicates against d instead of the embedded domain
// the problem names.
func WithDomain(d *bddl.Domain) Option { return func(c *config) { c.domain = d } }

func (c *config) enabled(code string) bool {
	return !c.skip[code] && (c.only == nil || c.only[code])
}

// Report is everything validation learns about one problem.
type Report struct {
	// Findings are sorted by position.
	Findings []Finding
	// Scenes is the scene feasibility of the activity, nil when the
	// no-scene rule did not run or the knowledge base has no scenes.
	Scenes *Feasibility
}

// Validate returns every finding about p: the language checker's
// diagnostics (bddl.Check with base as the schema) and those of every
// activity rule, sorted by position. A nil base is the embedded default
// knowledge base. It never panics on a partial tree, but rules assume a
// problem without syntax errors: ValidateSource runs them only then.
func Validate(p *bddl.Problem, base *kb.Base, opts ...Option) []Finding {
	return Analyze(p, base, opts...).Findings
}

// Analyze is Validate returning the scene feasibility too.
func Analyze(p *bddl.Problem, base *kb.Base, opts ...Option) Report {
	if p == nil {
		return Report{}
	}
	if base == nil {
		base = kb.Default()
	}
	cfg := &config{}
	for _, o := range opts {
		o(cfg)
	}
	var out []Finding
	out = fromDiagnostics(bddl.Check(p, cfg.domain, base), RuleCheck, out)
	c := newContext(p, base, cfg)
	c.out = out
	for _, r := range registry {
		if cfg.enabled(r.Code) {
			c.rule = r
			r.Check(c)
		}
	}
	sortFindings(c.out)
	return Report{Findings: c.out, Scenes: c.feas}
}

// ValidateSource parses one file and validates the problem in it. Syntax
// errors are returned alone: the rules need a complete tree. A domain file
// gives only its syntax findings. The problem is nil when the file holds
// none.
func ValidateSource(filename string, src []byte, base *kb.Base, opts ...Option) (*bddl.Problem, Report) {
	f, diags := bddl.ParseFile(filename, src)
	return f.Problem, validateParsed(f.Problem, diags, base, opts, recoverable(filename, src, f.Problem, diags))
}

// recoverable reports whether the semantic rules can run on a problem
// that parsed with errors: every error is one the reference passes over
// (it loads the file: a second goal formula, ...), so the tree is whole.
// Reporting every problem at once then means the semantic findings too.
func recoverable(filename string, src []byte, p *bddl.Problem, diags bddl.Diagnostics) bool {
	if p == nil || !diags.HasErrors() {
		return false
	}
	_, ref := bddl.Options{Mode: bddl.Reference}.ParseFile(filename, src)
	return !ref.HasErrors()
}

func validateParsed(p *bddl.Problem, diags bddl.Diagnostics, base *kb.Base, opts []Option, recovered bool) Report {
	syntax := fromDiagnostics(diags, RuleSyntax, nil)
	if p == nil || diags.HasErrors() && !recovered {
		return Report{Findings: syntax}
	}
	rep := Analyze(p, base, opts...)
	if len(syntax) > 0 { // warnings of the parser
		rep.Findings = append(syntax, rep.Findings...)
		sortFindings(rep.Findings)
	}
	return rep
}

func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			strings.Compare(a.Filename(), b.Filename()),
			cmp.Compare(a.Subject.Start.Offset, b.Subject.Start.Offset),
		)
	})
}
