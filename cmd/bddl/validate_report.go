package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
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

func (t *tally) addResults(results []validated, kbFindings []kb.Finding) {
	for _, r := range results {
		if r.problem {
			t.problems++
		}
		if r.err != nil {
			t.errors++
			t.failed[r.path] = true
			continue
		}
		for _, f := range r.report.Findings {
			t.add(r.path, f.Code, f.Rule, f.Severity.String())
		}
	}
	for _, f := range kbFindings {
		t.addTo(f.Location.File, f.Code, "kb", f.Severity.String(), false)
	}
}

func writeValidateText(opts *validateOptions, results []validated, kbFindings []kb.Finding) (bool, error) {
	t := newTally()
	t.addResults(results, kbFindings)
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintln(opts.err, r.err)
			continue
		}
		if err := activities.Diagnostics(r.report.Findings).WriteText(opts.err); err != nil {
			return false, err
		}
	}
	for _, f := range kbFindings {
		fmt.Fprintln(opts.err, f)
	}
	if opts.scenes {
		for _, r := range results {
			writeScenes(opts.out, r)
		}
	}
	if !opts.quiet {
		writeSummary(opts.out, t, paletteFor(opts.out))
	}
	return t.errors > 0, nil
}

// writeScenes prints the feasibility table of one definition.
func writeScenes(w io.Writer, r validated) {
	if !r.problem || r.err != nil {
		return
	}
	f := r.report.Scenes
	if f == nil {
		fmt.Fprintf(w, "%s: scene feasibility not computed (no scenes in the knowledge base, or errors in the definition)\n\n", r.path)
		return
	}
	if len(f.Needs) == 0 {
		fmt.Fprintf(w, "%s: no inroom objects; any of the %d scenes\n\n", r.path, len(f.Scenes))
		return
	}
	var needs []string
	for _, n := range f.Needs {
		needs = append(needs, fmt.Sprintf("%s (%s)", n.Type, strings.Join(n.Instances, " ")))
	}
	fmt.Fprintf(w, "%s: %d of %d scenes can host it; it needs %s\n", r.path, len(f.Compatible()), len(f.Scenes), strings.Join(needs, ", "))
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

func writeSummary(w io.Writer, t *tally, pal palette) {
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
						colored = pal.red(sev)
					case "warning":
						colored = pal.yellow(sev)
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

// kbRecord is the JSON record of a knowledge-base finding.
type kbRecord struct {
	Record   string      `json:"record"` // "finding", as validate's
	File     string      `json:"file"`
	Line     int         `json:"line,omitempty"`
	Key      string      `json:"key,omitempty"`
	Severity kb.Severity `json:"severity"`
	Code     string      `json:"code"`
	Rule     string      `json:"rule"`
	Message  string      `json:"message"`
}

// scenesRecord is the JSON record of one definition's scene feasibility.
type scenesRecord struct {
	File   string                  `json:"file"`
	Scenes *activities.Feasibility `json:"scenes"`
}

// errorRecord is the JSON record of a file that could not be read.
type errorRecord struct {
	File     string        `json:"file"`
	Severity bddl.Severity `json:"severity"`
	Code     string        `json:"code"`
	Message  string        `json:"message"`
}

// recordEncoder writes validate's JSON lines, each with "record" first
// saying which schema it follows ("finding" or "scenes"), since findings
// and scene records share the stream.
type recordEncoder struct {
	w   io.Writer
	buf bytes.Buffer
}

func (e *recordEncoder) encode(record string, v any) error {
	e.buf.Reset()
	if err := jsonLines(&e.buf).Encode(v); err != nil {
		return err
	}
	b := e.buf.Bytes()
	if len(b) < 2 || b[0] != '{' {
		return fmt.Errorf("validate: a %s record is not a JSON object", record)
	}
	sep := ","
	if b[1] == '}' {
		sep = ""
	}
	_, err := fmt.Fprintf(e.w, "{\"record\":%q%s%s", record, sep, b[1:])
	return err
}

func writeValidateJSON(opts *validateOptions, results []validated, kbFindings []kb.Finding) (bool, error) {
	t := newTally()
	t.addResults(results, kbFindings)
	enc := &recordEncoder{w: opts.out}
	for _, r := range results {
		if r.err != nil {
			if err := enc.encode("finding", errorRecord{File: r.path, Severity: bddl.Error, Code: "read-error", Message: r.err.Error()}); err != nil {
				return false, err
			}
			continue
		}
		for _, f := range r.report.Findings {
			if err := enc.encode("finding", f); err != nil {
				return false, err
			}
		}
		if opts.scenes && r.problem && r.report.Scenes != nil {
			if err := enc.encode("scenes", scenesRecord{File: r.path, Scenes: r.report.Scenes}); err != nil {
				return false, err
			}
		}
	}
	for _, f := range kbFindings {
		if err := enc.encode("finding", kbRecordOf(f)); err != nil {
			return false, err
		}
	}
	return t.errors > 0, nil
}
