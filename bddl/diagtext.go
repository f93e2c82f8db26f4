package bddl

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText renders diagnostics like a compiler: a file:line:col header,
// the source line, and a caret line under the subject.
//
//	problem0.bddl:22:6: error: unexpected character "\\" [invalid-character]
//	   22 |     )\
//	      |      ^
//	      = delete it: BDDL names use letters, digits and _ . - * only
func (ds Diagnostics) WriteText(w io.Writer) error {
	for _, d := range ds {
		if _, err := io.WriteString(w, d.Text()); err != nil {
			return err
		}
	}
	return nil
}

// Text renders one diagnostic as WriteText does.
func (d *Diagnostic) Text() string {
	var b strings.Builder
	b.WriteString(d.Error())
	b.WriteByte('\n')
	if src := d.Source; src != nil && d.Subject.Start.IsValid() {
		line := src.Line(int(d.Subject.Start.Line))
		if line != nil {
			num := fmt.Sprintf("%5d", d.Subject.Start.Line)
			pad := strings.Repeat(" ", len(num))
			// Columns count bytes; the caret line counts what the text
			// shows, so it lines up under multi-byte characters and
			// escaped control bytes.
			start := min(max(0, int(d.Subject.Start.Col)-1), len(line))
			end := len(line)
			if d.Subject.End.Line == d.Subject.Start.Line {
				end = min(max(start, int(d.Subject.End.Col)-1), len(line))
			}
			shown, ws, lead, start, end := clipLine(line, start, end)
			fmt.Fprintf(&b, "%s | %s\n", num, shown)
			// Widths are measured inside the window only: a line of
			// 20,000 findings is then rendered in linear time.
			width := max(1, displayWidth(line[start:end]))
			fmt.Fprintf(&b, "%s | %s%s\n", pad, strings.Repeat(" ", lead+displayWidth(line[ws:start])), strings.Repeat("^", width))
			if d.Detail != "" {
				fmt.Fprintf(&b, "%s = %s\n", pad, d.Detail)
			}
			return b.String()
		}
	}
	if d.Detail != "" {
		fmt.Fprintf(&b, "      = %s\n", d.Detail)
	}
	return b.String()
}

// displayText is a source line as a terminal may show it: a tab becomes a
// space, and control characters (ESC, BEL, NUL, DEL, C1) are escaped as
// \xHH or \u00HH, so a file cannot move the cursor, ring the bell or
// change colours; invalid UTF-8 becomes U+FFFD.
func displayText(line []byte) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.Write(line[i : i+n])
		}
		i += n
	}
	return b.String()
}

// displayWidth is the number of characters displayText shows for text.
func displayWidth(text []byte) int {
	w := 0
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		switch {
		case r == '\t', r == utf8.RuneError && n == 1:
			w++
		case r < 0x20 || r == 0x7f:
			w += 4
		case r >= 0x80 && r < 0xa0:
			w += 6
		default:
			w++
		}
		i += n
	}
	return w
}

// DiagnosticRecord is the JSON form of a diagnostic: one flat record that
// pipelines can consume without knowing Go types. Other packages embed it
// to add fields of their own.
type DiagnosticRecord struct {
	File     string   `json:"file"`
	Line     int32    `json:"line"`
	Col      int32    `json:"col"`
	EndLine  int32    `json:"end_line"`
	EndCol   int32    `json:"end_col"`
	Offset   int32    `json:"offset"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
	// PathBytes is the file's name in base64 when it is not valid UTF-8,
	// which File then shows with U+FFFD in its place: the name as it is
	// on disk, recoverable.
	PathBytes string `json:"path_bytes,omitempty"`
}

// Record returns the flat record form of the diagnostic.
func (d *Diagnostic) Record() DiagnosticRecord {
	return DiagnosticRecord{
		File: d.Filename(), Line: d.Subject.Start.Line, Col: d.Subject.Start.Col,
		EndLine: d.Subject.End.Line, EndCol: d.Subject.End.Col, Offset: d.Subject.Start.Offset,
		Severity: d.Severity, Code: d.Code, Message: d.Summary, Fix: d.Detail, PathBytes: PathBytes(d.Filename()),
	}
}

// PathBytes is name in standard base64 when it is not valid UTF-8 (a
// JSON string cannot hold it: encoders write U+FFFD), else "".
func PathBytes(name string) string {
	if utf8.ValidString(name) {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(name))
}

// MarshalJSON writes the flat record form.
func (d *Diagnostic) MarshalJSON() ([]byte, error) { return json.Marshal(d.Record()) }

// maxShownLine is the most bytes of a source line a diagnostic shows; a
// longer line is clipped around the subject.
const maxShownLine = 160

// clipLine returns the text of line to show, clipped to a window
// [ws, we) around the subject [start, end) when the line is long, with
// "…" where it was cut; lead is the width of what is shown before
// line[ws:] (the "…"), and start and end are moved into the window.
func clipLine(line []byte, start, end int) (shown string, ws, lead, s, e int) {
	if len(line) <= maxShownLine {
		return displayText(line), 0, 0, start, end
	}
	ws = max(0, start-maxShownLine/3)
	for ws > 0 && !utf8.RuneStart(line[ws]) {
		ws--
	}
	we := min(len(line), ws+maxShownLine)
	for we < len(line) && !utf8.RuneStart(line[we]) {
		we--
	}
	start, end = min(start, we), min(end, we)
	var b strings.Builder
	if ws > 0 {
		b.WriteString("…")
		lead = 1
	}
	b.WriteString(displayText(line[ws:we]))
	if we < len(line) {
		b.WriteString("…")
	}
	return b.String(), ws, lead, start, max(start, end)
}
