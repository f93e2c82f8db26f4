package kb

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Location names where a piece of knowledge-base data comes from: a file
// and either a line (CSV, YAML, and JSON when known) or a JSON key path.
type Location struct {
	File string `json:"file"`           // base name of the data file, e.g. "synsets.csv"
	Line int    `json:"line,omitempty"` // 1-based; 0 when unknown
	Key  string `json:"key,omitempty"`  // key path such as "apple.n.01 > cookable > cook_temperature"
}

func (l Location) String() string {
	var b strings.Builder
	b.WriteString(l.File)
	if l.Line > 0 {
		fmt.Fprintf(&b, ":%d", l.Line)
	}
	if l.Key != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(l.Key)
	}
	return b.String()
}

// DataError is one defect in knowledge-base data that prevents using it:
// a parent that does not exist, a cycle, a parameter of the wrong type, a
// rule naming an unknown synset, malformed JSON, CSV or YAML.
type DataError struct {
	Location
	Code    string // stable identifier, e.g. "unknown-parent"
	Message string
}

// Error is the error as a line, escaped for a terminal (termsafe.Text):
// keys and messages quote the data.
func (e DataError) Error() string {
	if loc := e.Location.String(); loc != "" {
		return termsafe.Text(loc + ": " + e.Message)
	}
	return termsafe.Text(e.Message)
}

// DataErrors collects every data error of a load, so a curator can fix
// them all in one pass. A nil or empty DataErrors is not an error.
type DataErrors []DataError

func (es DataErrors) Error() string {
	switch len(es) {
	case 0:
		return "no errors"
	case 1:
		return es[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d knowledge-base data errors:", len(es))
	for _, e := range es {
		b.WriteString("\n\t")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns es as an error, or nil when it is empty, so callers can
// return it directly without a typed-nil interface.
func (es DataErrors) Err() error {
	if len(es) == 0 {
		return nil
	}
	es.sort()
	return es
}

func (es DataErrors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Location, es[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// Severity ranks a Finding.
type Severity uint8

const (
	// SeverityError marks data that makes the engine give wrong answers.
	SeverityError Severity = iota + 1
	// SeverityWarning marks data that is suspicious or makes the engine
	// stricter than necessary.
	SeverityWarning
	// SeverityInfo marks facts worth knowing, such as ignored files.
	SeverityInfo
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// MarshalText makes severities readable in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one result of Base.Check: a data error that survived loading
// or a consistency problem such as a propagation mismatch.
type Finding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// String is the finding as a line, escaped for a terminal (termsafe.Text).
func (f Finding) String() string {
	if loc := f.Location.String(); loc != "" {
		return fmt.Sprintf("%s: %s: %s [%s]", termsafe.Text(loc), f.Severity, termsafe.Text(f.Message), f.Code)
	}
	return fmt.Sprintf("%s: %s [%s]", f.Severity, termsafe.Text(f.Message), f.Code)
}

// problems gathers data errors and non-fatal findings during a load.
type problems struct {
	errs     DataErrors
	findings []Finding
}

func (p *problems) errorf(loc Location, code, format string, args ...any) {
	p.errs = append(p.errs, DataError{Location: loc, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (p *problems) notef(sev Severity, loc Location, code, format string, args ...any) {
	p.findings = append(p.findings, Finding{Severity: sev, Code: code, Location: loc, Message: fmt.Sprintf(format, args...)})
}

// keyPath joins JSON or YAML keys into the form used in locations.
func keyPath(keys ...string) string { return strings.Join(keys, " > ") }
