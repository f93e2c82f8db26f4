package bddl

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Severity ranks a diagnostic.
type Severity int

const (
	Error Severity = iota
	Warning
	Info
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// MarshalText writes the severity as its name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	case "info":
		*s = Info
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Diagnostic is one problem found in a source file: what is wrong (Summary),
// why and how to fix it (Detail), and where (Subject).
type Diagnostic struct {
	Severity Severity `json:"severity"`
	// Code is stable across releases so tools and tests can match on it.
	Code    string `json:"code"`
	Summary string `json:"message"`
	Detail  string `json:"fix,omitempty"`
	Subject Range  `json:"range"`
	// Source is the file the subject points into; nil for diagnostics about
	// no particular file.
	Source *Source `json:"-"`
	// byCount marks a parenthesis error found only where the count of
	// parentheses ran out; the layout may place its cause better.
	byCount bool
	// reference says what the Python reference does about a defect it
	// loads anyway ("skips it"); a Reference-mode parse turns such an
	// error into a warning that says so. Empty for defects the reference
	// also refuses.
	reference string
}

// Filename is the name of the diagnostic's file, or "" if it has none.
func (d *Diagnostic) Filename() string {
	if d.Source == nil {
		return ""
	}
	return d.Source.Name
}

// Error is the diagnostic as a line; the file name and summary, which may
// quote the input, are escaped for a terminal (termsafe.Text).
func (d *Diagnostic) Error() string {
	loc := termsafe.Text(d.Filename())
	if d.Subject.Start.IsValid() {
		loc = fmt.Sprintf("%s:%d:%d", loc, d.Subject.Start.Line, d.Subject.Start.Col)
	}
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("%s%s: %s [%s]", loc, d.Severity, termsafe.Text(d.Summary), d.Code)
}

// Diagnostics is a list of problems. It is also an error, but use Err to get
// a nil error when nothing is wrong.
type Diagnostics []*Diagnostic

func (ds Diagnostics) Error() string {
	switch len(ds) {
	case 0:
		return "no diagnostics"
	case 1:
		return ds[0].Error()
	}
	return fmt.Sprintf("%s (and %d more)", ds[0].Error(), len(ds)-1)
}

// HasErrors reports whether any diagnostic has severity Error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d *Diagnostic) bool { return d.Severity == Error })
}

// Err returns the diagnostics as an error if any of them is an error, else nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Sort orders diagnostics by file and position, keeping the order of
// diagnostics at the same place.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b *Diagnostic) int {
		return cmp.Or(
			strings.Compare(a.Filename(), b.Filename()),
			cmp.Compare(a.Subject.Start.Offset, b.Subject.Start.Offset),
		)
	})
}

// AsDiagnostics extracts diagnostics from an error made by this package.
func AsDiagnostics(err error) (Diagnostics, bool) {
	var ds Diagnostics
	if errors.As(err, &ds) {
		return ds, true
	}
	var d *Diagnostic
	if errors.As(err, &d) {
		return Diagnostics{d}, true
	}
	return nil, false
}
