package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/bddl"
)

// readFlags are the flags of every consuming command (check, explain,
// episode, ...): such commands read a definition as the Python reference
// does, so every official activity loads, and print what the reference
// passes over as warnings on stderr.
type readFlags struct {
	goalFormulas     string
	warningsAsErrors bool
}

func (r *readFlags) add(f *pflag.FlagSet) {
	f.StringVar(&r.goalFormulas, "goal-formulas", "first",
		"when (:goal ...) holds several formulas: first (as the reference, so scores match the official benchmark) or all (their conjunction)")
	f.BoolVar(&r.warningsAsErrors, "warnings-as-errors", false,
		"refuse a definition with warnings (defects the reference loads anyway)")
}

// options is the reading policy the flags ask for.
func (r *readFlags) options() (bddl.Options, error) {
	opts, err := bddl.ConsumerOptions(r.goalFormulas, r.warningsAsErrors)
	if err != nil {
		return opts, misuse("%v", err)
	}
	return opts, nil
}

// warnText prints a definition's warnings to w, as compilers do.
func warnText(w io.Writer) func(bddl.Diagnostics) {
	return func(ds bddl.Diagnostics) { ds.WriteText(w) }
}
