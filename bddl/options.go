package bddl

import "fmt"

// Mode says how strictly a definition is read. There are two kinds of
// command: authoring commands (parse, fmt, validate) read Strict, so every
// defect is an error at its position; consuming commands (check, explain,
// episode, sample, transition) read as the Python reference does, so the
// official activities load as they are and are scored as the benchmark
// scored them.
type Mode uint8

const (
	// Strict reports every defect as an error.
	Strict Mode = iota
	// Reference loads every definition the Python reference loads, reading
	// it as the reference does; each defect the reference passes over is a
	// warning at its position that says what the reference does about it.
	// Defects the reference also refuses stay errors.
	Reference
)

// GoalFormulas says which formulas of a (:goal ...) that holds several are
// evaluated, in Reference mode.
type GoalFormulas uint8

const (
	// FirstGoalFormula evaluates only the first, as the reference does, so
	// scores match the official benchmark.
	FirstGoalFormula GoalFormulas = iota
	// AllGoalFormulas evaluates their conjunction, as the author most
	// likely meant.
	AllGoalFormulas
)

// ConsumerOptions is the reading policy of a command that consumes
// definitions (check, explain, episode, ...): as the reference reads
// them, so every official activity loads, with goal "first" (or "") or
// "all" (the --goal-formulas flag).
func ConsumerOptions(goal string, warningsAsErrors bool) (Options, error) {
	opts := Options{Mode: Reference, WarningsAsErrors: warningsAsErrors}
	switch goal {
	case "first", "":
	case "all":
		opts.Goal = AllGoalFormulas
	default:
		return opts, fmt.Errorf("--goal-formulas %q: use first or all", goal)
	}
	return opts, nil
}

// Options is the one reading policy every command applies: the zero value
// is Strict, for authoring.
type Options struct {
	Mode Mode
	Goal GoalFormulas
	// WarningsAsErrors reports every warning as an error, so a consuming
	// command refuses what the reference would load with a warning.
	WarningsAsErrors bool
	// Dialect is the dialect to read; the zero value detects it from
	// :domain (robosuite is LIBERO's).
	Dialect Dialect
}

// ParseFile parses a problem or domain file under the options.
func (o Options) ParseFile(filename string, src []byte) (*File, Diagnostics) {
	return parseFile(filename, src, o)
}

// ParseProblem parses a problem file under the options.
func (o Options) ParseProblem(filename string, src []byte) (*Problem, Diagnostics) {
	f, diags := o.ParseFile(filename, src)
	if f.Domain != nil {
		diags = append(diags, &Diagnostic{Severity: Error, Code: codeUnexpectedToken, Source: f.Source,
			Summary: "expected a problem file, found domain " + f.Domain.Name.Name, Subject: f.Domain.Name.Range})
	}
	return f.Problem, diags
}

// demote turns the findings the reference passes over into warnings that
// say what the reference does, in Reference mode.
func (o Options) demote(diags Diagnostics) {
	if o.Mode != Reference {
		return
	}
	for _, d := range diags {
		if d.reference != "" && d.Severity == Error {
			d.Severity = Warning
			d.Summary += "; " + d.reference
		}
	}
}

// escalate turns warnings into errors when asked.
func (o Options) escalate(diags Diagnostics) {
	if !o.WarningsAsErrors {
		return
	}
	for _, d := range diags {
		if d.Severity == Warning {
			d.Severity = Error
		}
	}
}
