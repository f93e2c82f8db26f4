package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
)

// KBCheck is a bddl kb check report.
type KBCheck struct {
	Least  kb.Severity // the least severity printed
	JSON   bool        // one finding record per line on Stdout, the summary on Stderr
	Source string      // the knowledge base's name, for the summary
	Stdout io.Writer
	Stderr io.Writer
}

// Write checks b (its own checks and the activity rules' checks of it),
// prints the findings of Least severity or more, text on Stderr or
// records on Stdout, and the summary line. It returns the number of
// error findings, printed or not.
func (c KBCheck) Write(b *kb.Base) (errors int, err error) {
	all := append(b.Check(), activities.CheckKB(b)...)
	kb.SortFindings(all)
	counts := kb.CountBySeverity(all)
	summary := c.Stdout
	enc := json.NewEncoder(c.Stdout)
	enc.SetEscapeHTML(false)
	if c.JSON {
		summary = c.Stderr
	}
	for _, f := range all {
		switch {
		case f.Severity > c.Least:
		case c.JSON:
			if err := enc.Encode(KBRecordOf(f)); err != nil {
				return 0, err
			}
		default:
			fmt.Fprintln(c.Stderr, f)
		}
	}
	fmt.Fprintf(summary, "%s: %d synsets; %d error%s, %d warning%s, %d info\n", c.Source, b.NumSynsets(),
		counts[kb.SeverityError], plural(counts[kb.SeverityError], "", "s"),
		counts[kb.SeverityWarning], plural(counts[kb.SeverityWarning], "", "s"),
		counts[kb.SeverityInfo])
	return counts[kb.SeverityError], nil
}
