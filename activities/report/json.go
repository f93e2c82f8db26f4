package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// KBRecord is the JSON record of a knowledge-base finding (validate's
// and kb check's).
type KBRecord struct {
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
	enc := json.NewEncoder(&e.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
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

// WriteJSON writes one JSON line per finding (a file that could not be
// read is a read-error finding) and, when scenes, one per definition's
// scene feasibility; failed says whether there was an error.
func WriteJSON(w io.Writer, results []File, kbFindings []kb.Finding, scenes bool) (failed bool, err error) {
	t := newTally()
	t.addResults(results, kbFindings)
	enc := &recordEncoder{w: w}
	for _, r := range results {
		if r.Err != nil {
			if err := enc.encode("finding", errorRecord{File: r.Path, Severity: bddl.Error, Code: "read-error", Message: r.Err.Error()}); err != nil {
				return false, err
			}
			continue
		}
		for _, f := range r.Report.Findings {
			if err := enc.encode("finding", f); err != nil {
				return false, err
			}
		}
		if scenes && r.Problem && r.Report.Scenes != nil {
			if err := enc.encode("scenes", scenesRecord{File: r.Path, Scenes: r.Report.Scenes}); err != nil {
				return false, err
			}
		}
	}
	for _, f := range kbFindings {
		if err := enc.encode("finding", KBRecordOf(f)); err != nil {
			return false, err
		}
	}
	return t.errors > 0, nil
}

// KBRecordOf is the flat JSON record of a knowledge-base finding.
func KBRecordOf(f kb.Finding) KBRecord {
	return KBRecord{Record: "finding", File: f.Location.File, Line: f.Location.Line, Key: f.Location.Key, Severity: f.Severity,
		Code: f.Code, Rule: "kb", Message: f.Message}
}
