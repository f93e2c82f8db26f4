package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/kb"
)

// ruleStat tallies one code for the summary.
type ruleStat struct {
	code     string
	rule     string
	severity string
	findings int
	files    map[string]bool
}

type tally struct {
	stats    map[string]*ruleStat
	errors   int
	warnings int
	others   int
	problems int
	failed   map[string]bool // input files with errors
	kbErrors int             // errors of the knowledge base (--kb-rules), not of a file
}

func newTally() *tally { return &tally{stats: map[string]*ruleStat{}, failed: map[string]bool{}} }

func (t *tally) add(file, code, rule, severity string) {
	t.addTo(file, code, rule, severity, true)
}

// addTo tallies a finding; input says whether file is one of the inputs
// (a knowledge-base finding is not).
func (t *tally) addTo(file, code, rule, severity string, input bool) {
	s := t.stats[code+"\x00"+severity]
	if s == nil {
		s = &ruleStat{code: code, rule: rule, severity: severity, files: map[string]bool{}}
		t.stats[code+"\x00"+severity] = s
	}
	s.findings++
	s.files[file] = true
	switch severity {
	case "error":
		t.errors++
		if input {
			t.failed[file] = true
		} else {
			t.kbErrors++
		}
	case "warning":
		t.warnings++
	default:
		t.others++
	}
}

func (t *tally) addResults(results []File, kbFindings []kb.Finding) {
	for _, r := range results {
		if r.Problem {
			t.problems++
		}
		if r.Err != nil {
			t.errors++
			t.failed[r.Path] = true
			continue
		}
		for _, f := range r.Report.Findings {
			t.add(r.Path, f.Code, f.Rule, f.Severity.String())
		}
	}
	for _, f := range kbFindings {
		t.addTo(f.Location.File, f.Code, "kb", f.Severity.String(), false)
	}
}

// writeSummary prints the table of findings by code and severity (the
// severities coloured by pal) and the totals line.
func writeSummary(w io.Writer, t *tally, pal Colours) {
	stats := make([]*ruleStat, 0, len(t.stats))
	for _, s := range t.stats {
		stats = append(stats, s)
	}
	sevRank := map[string]int{"error": 0, "warning": 1}
	sort.Slice(stats, func(i, j int) bool {
		a, b := stats[i], stats[j]
		ra, okA := sevRank[a.severity]
		rb, okB := sevRank[b.severity]
		if !okA {
			ra = 2
		}
		if !okB {
			rb = 2
		}
		if ra != rb {
			return ra < rb
		}
		return a.code < b.code
	})
	if len(stats) > 0 {
		// Aligned on the plain text, coloured after: escape codes
		// counted as width would shift the columns of coloured rows.
		var buf bytes.Buffer
		tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tRULE\tSEVERITY\tFINDINGS\tFILES")
		for _, s := range stats {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", s.code, s.rule, s.severity, s.findings, len(s.files))
		}
		tw.Flush()
		lines := strings.SplitAfter(buf.String(), "\n")
		col := strings.Index(lines[0], "SEVERITY")
		for i, line := range lines {
			if i > 0 && i-1 < len(stats) && col >= 0 && len(line) > col {
				sev := stats[i-1].severity
				if strings.HasPrefix(line[col:], sev) {
					colored := sev
					switch sev {
					case "error":
						colored = pal.error(sev)
					case "warning":
						colored = pal.warning(sev)
					}
					line = line[:col] + colored + line[col+len(sev):]
				}
			}
			io.WriteString(w, line)
		}
	}
	what := fmt.Sprintf("%d %s", t.problems, plural(t.problems, "problem", "problems"))
	if t.errors+t.warnings+t.others == 0 {
		fmt.Fprintf(w, "validated %s: no findings\n", what)
		return
	}
	fmt.Fprintf(w, "validated %s: %d %s, %d %s", what,
		t.errors, plural(t.errors, "error", "errors"), t.warnings, plural(t.warnings, "warning", "warnings"))
	if t.others > 0 {
		fmt.Fprintf(w, ", %d info", t.others)
	}
	if n := len(t.failed); n > 0 {
		fmt.Fprintf(w, "; %d %s with errors", n, plural(n, "file", "files"))
	}
	if t.kbErrors > 0 {
		fmt.Fprintf(w, "; %d %s in the knowledge base", t.kbErrors, plural(t.kbErrors, "error", "errors"))
	}
	fmt.Fprintln(w)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
