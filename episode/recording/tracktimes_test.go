package recording

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLineTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line      string
		t         float64
		blank, ok bool
	}{
		{`{"t": 1.5}`, 1.5, false, true},
		{`{"objects": {"t": {"pos": [1, 2, 3]}}, "t": 2e3, "facts": [["a", "b\"}"]]}`, 2000, false, true},
		{`{"t": 1, "t": 2}`, 2, false, true},
		{"  \r\n", 0, true, true},
		{`{"t": null}`, 0, false, false},
		{`{"t": "1"}`, 0, false, false},
		{`{"step": 3}`, 0, false, false},
		{`{}`, 0, false, false},
		{`{"t": 1} x`, 0, false, false},
		{`{"t": 1`, 0, false, false},
		{`[1]`, 0, false, false},
	} {
		tm, blank, ok := lineTime([]byte(tc.line))
		if blank != tc.blank || ok != tc.ok || ok && !blank && tm != tc.t {
			t.Errorf("lineTime(%s) = %v, %v, %v; want %v, %v, %v", tc.line, tm, blank, ok, tc.t, tc.blank, tc.ok)
		}
	}
}

// The join's first pass reads times fast and, at a line it cannot read
// simply, gives the full reader's error.
func TestTrackTimesFallback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := regular("base", 0, 10, 30, constBase(0, 0, 0))
	for _, tc := range []struct{ name, text, want string }{
		{"good.jsonl", "{\"t\": 0}\n\n{\"t\": 0.4, \"step\": 9}\n{\"t\": 2.9}\n", ""},
		{"late_bad.jsonl", "{\"t\": 0}\n{\"t\": 0.4}\n{\"t\": 0.5, \"objects\": {\"a\": {\"aabb\": [0, 0, 0, 1, 1, 1]}}}\n{\"t\": null}\n", "late_bad.jsonl:4: t: missing"},
		{"back.jsonl", "{\"t\": 0}\n{\"t\": 0.4}\n{\"t\": 0.3}\n", "back.jsonl:3: t: 0.3 is before the previous line's 0.4"},
	} {
		p := write(tc.name, tc.text)
		_, steps, err := joinAll(t, JoinOptions{Name: "e", Activity: "a", Base: base, Track: p, MaxGap: 3, Rate: 10})
		if tc.want == "" {
			if err != nil || len(steps) != 30 {
				t.Errorf("%s: %d steps, %v", tc.name, len(steps), err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// the fallback resumes after the times already given
	p := write("resume.jsonl", "{\"t\": 0}\n{\"t\": 1}\n{\"t\": 2, \"x\": \"\\u0041\"\n")
	fs := &fallbackSeries{fast: mustTimes(t, p), open: func() (Series, error) {
		tr, err := OpenTrack(p)
		return trackSeries{tr}, err
	}}
	defer fs.Close()
	var got []float64
	var err error
	for {
		var tm float64
		if tm, _, err = fs.Next(); err != nil {
			break
		}
		got = append(got, tm)
	}
	if len(got) != 2 || err == io.EOF || !strings.Contains(err.Error(), "resume.jsonl:3:") {
		t.Fatalf("times %v, then %v", got, err)
	}
}

func mustTimes(t *testing.T, p string) *trackTimes {
	tt, err := openTrackTimes(p)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// FuzzLineTime: where the fast scan reads a time, the full reader reads
// the same one.
func FuzzLineTime(f *testing.F) {
	f.Add([]byte(`{"t": 1.5, "objects": {"a": {"pos": [1, 2, 3]}}}`))
	f.Add([]byte(`{"facts": [["open", "x"]], "t": -2}`))
	f.Add([]byte(`{"t": 1, "t": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.ContainsAny(string(data), "\n") {
			return
		}
		tm, blank, ok := lineTime(data)
		if !ok || blank {
			return
		}
		tr, err := NewTrackReader(strings.NewReader(string(data)), "f")
		if err != nil {
			return
		}
		full, _, err := tr.Next()
		if err == nil && full != tm {
			t.Fatalf("fast %v, full %v", tm, full)
		}
	})
}
