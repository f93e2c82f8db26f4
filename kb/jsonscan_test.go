package kb

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestJSONScannerValues(t *testing.T) {
	t.Parallel()
	tests := []string{
		`{}`,
		`[]`,
		`{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`,
		`[-1.5e3, 0, 2.25, 1E-2]`,
		`"tab\tquote\"slash\/uni\u00e9 surrogate \ud83d\ude00"`,
		` { "nested" : [ [ [ ] ] , { } ] } `,
		`{"apple.n.01": {"cookable": {"cook_temperature": 58.0}}}`,
	}
	for _, src := range tests {
		s := &jsonScanner{data: []byte(src)}
		got := s.value(0)
		s.end()
		if s.failed {
			t.Errorf("scan %s: %s at %d", src, s.errMsg, s.errPos)
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(src), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got.toAny()); diff != "" {
			t.Errorf("scan %s mismatch (-encoding/json +scanner):\n%s", src, diff)
		}
	}
}

func TestJSONScannerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src, msg string
		line     int
	}{
		{`{"a": 1,}`, "trailing comma", 1},
		{"{\n\"a\" 1}", "expected ':'", 2},
		{`{"a": [1 2]}`, "expected ','", 1},
		{`{"a": "open`, "unterminated string", 1},
		{`{"a": tru}`, "invalid literal", 1},
		{`{"a": "\x"}`, "invalid escape", 1},
		{"[1]\n[2]", "unexpected data", 2},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), "nesting too deep", 1},
		{`{"a": -}`, "invalid number", 1},
	}
	for _, tt := range tests {
		s := &jsonScanner{data: []byte(tt.src)}
		s.value(0)
		s.end()
		var p problems
		s.report(&p, "x.json")
		if len(p.errs) != 1 {
			t.Errorf("scan %q: %d errors, want 1", tt.src, len(p.errs))
			continue
		}
		if e := p.errs[0]; !strings.Contains(e.Message, tt.msg) || e.Line != tt.line {
			t.Errorf("scan %q: error %v, want %q at line %d", tt.src, e, tt.msg, tt.line)
		}
	}
}

// FuzzJSONScanner: whatever encoding/json accepts the scanner reads the
// same way; nothing makes it panic.
func FuzzJSONScanner(f *testing.F) {
	f.Add([]byte(`{"a": [1, "b", {"c": null}], "d": true}`))
	f.Add([]byte(`"\u00e9\ud83d\ude00"`))
	f.Add([]byte(`[1e400]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &jsonScanner{data: data}
		g := s.value(0)
		s.end()
		var want any
		if !utf8.Valid(data) || json.Unmarshal(data, &want) != nil {
			return // encoding/json rewrites invalid UTF-8; we keep bytes as they are
		}
		if s.failed {
			if strings.Contains(s.errMsg, "nesting") || strings.Contains(s.errMsg, "number") {
				return // deeper than our limit, or a number out of float64 range
			}
			t.Fatalf("encoding/json accepts %q, the scanner says %s", data, s.errMsg)
		}
		if !cmp.Equal(want, g.toAny()) {
			t.Fatalf("scan %q = %v, encoding/json %v", data, g.toAny(), want)
		}
	})
}
