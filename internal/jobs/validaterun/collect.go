package validaterun

import (
	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// Inputs are what a validate run was given.
type Inputs struct {
	// Named are the embedded examples given by name.
	Named *activities.Library
	// Examples: no PATH was given, so every embedded example.
	Examples bool
	// Expand gives the files to validate (shard applied), when PATHs
	// name some; stop ends the run quietly (the shard holds none).
	Expand func() (ins []batch.Input, stop bool, err error)
	// KB loads the knowledge base the first time a BEHAVIOR-1K
	// definition needs it: LIBERO's dialect uses none.
	KB func() (*kb.Base, error)
}

// Collect validates the inputs, in the order named examples, files (the
// LIBERO ones printed by Libero as they are read). done is true when
// nothing is left to report (every file was LIBERO's, or stop); failed
// when a LIBERO definition had an error.
func (o Options) Collect(in Inputs) (results []report.File, failed, done bool, err error) {
	if len(in.Named.Activities) > 0 {
		base, err := in.KB()
		if err != nil {
			return nil, false, true, err
		}
		results = o.Library(in.Named, base)
	}
	if in.Examples {
		base, err := in.KB()
		if err != nil {
			return nil, false, true, err
		}
		return o.Library(activities.Examples(), base), false, false, nil
	}
	if in.Expand == nil {
		return results, false, false, nil
	}
	ins, stop, err := in.Expand()
	if err != nil || stop {
		return nil, false, true, err
	}
	if ins, failed, err = o.Libero(ins); err != nil {
		return nil, failed, true, err
	}
	if len(ins) == 0 && len(results) == 0 {
		return nil, failed, true, nil
	}
	if len(ins) > 0 {
		base, err := in.KB()
		if err != nil {
			return nil, failed, true, err
		}
		results = append(results, o.Files(ins, base)...)
	}
	return results, failed, false, nil
}

// Write filters the findings (Filter), then prints the report as text
// (findings on Err, the summary on Out, unless Quiet) or JSON on Out.
// failed is true when an error is reported.
func (o Options) Write(results []report.File, kbFindings []kb.Finding, scenes bool, colours report.Colours) (failed bool, err error) {
	for i := range results {
		results[i].Report.Findings = o.Filter.Keep(results[i].Report.Findings)
	}
	kbFindings = o.Filter.KeepKB(kbFindings)
	if o.JSON {
		return report.WriteJSON(o.Out, results, kbFindings, scenes)
	}
	return report.WriteText(o.Out, o.Err, results, kbFindings, report.Options{Scenes: scenes, Quiet: o.Quiet, Colours: colours})
}
