package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
)

// File is validate's outcome for one input file.
type File struct {
	Path    string
	Problem bool // the file holds a problem (not a domain)
	Report  activities.Report
	Err     error // reading the file failed
}

// Options shape the text report.
type Options struct {
	Scenes  bool // each definition's scene feasibility table
	Quiet   bool // the findings only, no summary
	Colours Colours
}

// Colours colour the severities of the summary table (on a terminal);
// a nil function leaves its severity plain.
type Colours struct {
	Error, Warning func(string) string
}

func (c Colours) error(s string) string {
	if c.Error == nil {
		return s
	}
	return c.Error(s)
}

func (c Colours) warning(s string) string {
	if c.Warning == nil {
		return s
	}
	return c.Warning(s)
}

// WriteText reports for people: the findings (and the files that could
// not be read) on errw, then on out each definition's scene table when
// o.Scenes and the summary table unless o.Quiet. failed says whether
// there was an error.
func WriteText(out, errw io.Writer, results []File, kbFindings []kb.Finding, o Options) (failed bool, err error) {
	t := newTally()
	t.addResults(results, kbFindings)
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintln(errw, r.Err)
			continue
		}
		if err := activities.Diagnostics(r.Report.Findings).WriteText(errw); err != nil {
			return false, err
		}
	}
	for _, f := range kbFindings {
		fmt.Fprintln(errw, f)
	}
	if o.Scenes {
		for _, r := range results {
			writeScenes(out, r)
		}
	}
	if !o.Quiet {
		writeSummary(out, t, o.Colours)
	}
	return t.errors > 0, nil
}

// writeScenes prints the feasibility table of one definition.
func writeScenes(w io.Writer, r File) {
	if !r.Problem || r.Err != nil {
		return
	}
	f := r.Report.Scenes
	if f == nil {
		fmt.Fprintf(w, "%s: scene feasibility not computed (no scenes in the knowledge base, or errors in the definition)\n\n", r.Path)
		return
	}
	if len(f.Needs) == 0 {
		fmt.Fprintf(w, "%s: no inroom objects; any of the %d scenes\n\n", r.Path, len(f.Scenes))
		return
	}
	var needs []string
	for _, n := range f.Needs {
		needs = append(needs, fmt.Sprintf("%s (%s)", n.Type, strings.Join(n.Instances, " ")))
	}
	fmt.Fprintf(w, "%s: %d of %d scenes can host it; it needs %s\n", r.Path, len(f.Compatible()), len(f.Scenes), strings.Join(needs, ", "))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, s := range f.Scenes {
		mark, rest := "--", s.Summary()
		if s.OK {
			mark = "ok"
		}
		rest = strings.TrimPrefix(rest, s.Scene+": ")
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, s.Scene, rest)
	}
	tw.Flush()
	fmt.Fprintln(w)
}
