package episode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const prefixHeader = `{"bddl_episode":1,"activity":"episode_fields","closed_world":true}`

// stepperOf binds a fresh Stepper to a recording's header line.
func stepperOf(tb testing.TB, header []byte, lenient bool) *Stepper {
	tb.Helper()
	st, err := bindHeader(tb, header, lenient)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func bindHeader(tb testing.TB, header []byte, lenient bool) (*Stepper, error) {
	r, err := NewReader(bytes.NewReader(append(append([]byte(nil), header...), '\n')), "p.jsonl")
	if err != nil {
		return nil, err
	}
	return NewStepper(testProgram(tb, r.Header()), r, CheckOptions{Lenient: lenient})
}

func resultText(tb testing.TB, st *Stepper) string {
	b, err := json.Marshal(st.Result(true))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// comparePrefix feeds lines to one Stepper with Feed and to another with
// FeedPrefix, each line followed by suffix in the second: a line Feed
// takes is taken by FeedPrefix, which reports where its object ended,
// with the same step, and both end in the same state; a line Feed
// refuses for what it holds (not for what follows its object) is refused
// by FeedPrefix with the same error.
func comparePrefix(t *testing.T, header []byte, lines [][]byte, suffix string, lenient bool) {
	t.Helper()
	a, b := stepperOf(t, header, lenient), stepperOf(t, header, lenient)
	for i, line := range lines {
		infoA, errA := a.Feed(line)
		buf := append(append([]byte(nil), line...), suffix...)
		n, infoB, errB := b.FeedPrefix(buf)
		if errA != nil && strings.Contains(errA.Error(), "after the line's object") {
			return // Feed refuses what follows the object; FeedPrefix leaves it to its caller
		}
		if errText(errA) != errText(errB) {
			if suffix != "" && errA != nil {
				return // a broken object may run into the suffix
			}
			t.Fatalf("line %d %.80q + %q: Feed error %v, FeedPrefix error %v", i, line, suffix, errA, errB)
		}
		if errA != nil {
			if n != 0 {
				t.Errorf("line %d: FeedPrefix failed and took %d bytes", i, n)
			}
			continue
		}
		if infoA != infoB {
			t.Errorf("line %d: Feed %+v, FeedPrefix %+v", i, infoA, infoB)
		}
		if n <= 0 || n > len(line) || len(bytes.TrimSpace(line[n:])) > 0 || line[n-1] != '}' {
			t.Fatalf("line %d %.80q + %q: FeedPrefix took %d bytes", i, line, suffix, n)
		}
	}
	if ra, rb := resultText(t, a), resultText(t, b); ra != rb {
		t.Errorf("Feed ends in %s\nFeedPrefix in %s", ra, rb)
	}
}

// TestFeedPrefix compares FeedPrefix with Feed on every recording of
// testdata (good and bad), with what a caller's array puts after a step.
func TestFeedPrefix(t *testing.T) {
	files := testRecordings(t)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		all := bytes.Split(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"))
		if _, err := bindHeader(t, all[0], false); err != nil {
			continue // a header error: no step is fed
		}
		var lines [][]byte
		for _, l := range all[1:] {
			if len(bytes.TrimSpace(l)) > 0 {
				lines = append(lines, l)
			}
		}
		for _, suffix := range []string{"", ",", "]", ` ,{"step":99}]`, "\t]}}", "x"} {
			for _, lenient := range []bool{false, true} {
				t.Run(filepath.Base(file), func(t *testing.T) { comparePrefix(t, all[0], lines, suffix, lenient) })
			}
		}
	}
}

// TestFeedPrefixCases: where the object ends, and the errors of objects
// cut short by their buffer.
func TestFeedPrefixCases(t *testing.T) {
	for _, tc := range []struct {
		buf  string
		n    int
		err  string
		step int64
	}{
		{`{"step":0}`, 10, "", 0},
		{`{"step":0},{"step":1}`, 10, "", 0},
		{"  \t{\"step\":7}  ]", 13, "", 7},
		{`{"step":3,"facts":[["cooked","apple.n.01_1"]]}]}}`, 46, "", 3},
		{`{"step":0}x`, 10, "", 0},
		{`{"step":0`, 0, "p.jsonl:2: step 0: expected ',' or '}', found end of line", 0},
		{`{"step":0,}`, 0, "p.jsonl:2: step 0: expected a field name, found '}'", 0},
		{`{"t":1},{"step":1}`, 0, "p.jsonl:2: step: missing: every step line needs its step number", 0},
		{`{"step":01}`, 0, "p.jsonl:2: step: malformed number", 0},
		{`{"step":"0"}`, 0, "p.jsonl:2: step: expected a number, found a string", 0},
		{`{"step":0,"facts":[["cooked","x]}],{"step":1}`, 0, "p.jsonl:2: step 0: facts[0]: unknown instance \"x]}],{\" (not in the activity's :objects)", 0},
		{`   `, 0, "p.jsonl:2: blank line: no step", 0},
		{`]`, 0, "p.jsonl:2: expected '{' (a step object), found ']'", 0},
		{"\u00a0\v", 0, "p.jsonl:2: blank line: no step", 0},
		{"\f{\"step\":0}", 0, "p.jsonl:2: expected '{' (a step object), found an invalid byte", 0},
	} {
		st := stepperOf(t, []byte(prefixHeader), false)
		n, info, err := st.FeedPrefix([]byte(tc.buf))
		if n != tc.n || errText(err) != tc.err || (err == nil && info.Step != tc.step) {
			t.Errorf("FeedPrefix(%q) = %d, step %d, %q; want %d, step %d, %q", tc.buf, n, info.Step, errText(err), tc.n, tc.step, tc.err)
		}
	}
}

// FuzzFeedPrefix: FeedPrefix agrees with Feed on any line, whatever
// follows it.
func FuzzFeedPrefix(f *testing.F) {
	for _, s := range []string{`{"step":0}`, `{"step":1,"facts":[["cooked","apple.n.01_1"]],"t":0.5}`,
		`{"step":2,"objects":{"apple.n.01_1":{"pos":[1,2,3]}}}`, `{"step":0,"facts":[["cooked","x]}],{"step":1}`} {
		f.Add([]byte(s), []byte(`,{"step":9}]`))
	}
	prog := testProgram(f, nil)
	bind := func(t *testing.T) *Stepper { return headerStepper(t, prog, []byte(prefixHeader), "p.jsonl") }
	f.Fuzz(func(t *testing.T, line, suffix []byte) {
		if bytes.ContainsAny(line, "\r\n") {
			return
		}
		a, b := bind(t), bind(t)
		_, errA := a.Feed(line)
		n, _, errB := b.FeedPrefix(append(append([]byte(nil), line...), suffix...))
		switch {
		case errA == nil && errB != nil:
			t.Fatalf("Feed(%q) ok, FeedPrefix with %q: %v", line, suffix, errB)
		case errA == nil && (n == 0 || len(bytes.TrimSpace(line[n:])) > 0):
			t.Fatalf("Feed(%q) ok, FeedPrefix took %d bytes", line, n)
		case errB == nil && n <= len(line) && len(bytes.TrimSpace(line[n:])) == 0 && errA != nil:
			t.Fatalf("FeedPrefix(%q+%q) took the whole line, Feed: %v", line, suffix, errA)
		case errA == nil && resultText(t, a) != resultText(t, b):
			t.Fatalf("Feed(%q) and FeedPrefix end in different states", line)
		}
	})
}

// TestFeedPrefixZeroAlloc guards session.run's steady state: feeding a
// step where the last ended, and evaluating it, allocates nothing once
// the buffers have grown.
func TestFeedPrefixZeroAlloc(t *testing.T) {
	a := medianActivity()
	var buf bytes.Buffer
	if err := Synthesize(&buf, a.prog, a.name, SynthSymbolic, 3000, 3); err != nil {
		t.Fatal(err)
	}
	header, rest, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
	arr := bytes.ReplaceAll(bytes.TrimSpace(rest), []byte("\n"), []byte(","))
	st := headerStepper(t, a.prog, header, "z.jsonl")
	k := 0
	feed := func() {
		n, _, err := st.FeedPrefix(arr[k:])
		if err != nil {
			t.Fatal(err)
		}
		k += n + 1 // and the comma
	}
	for range 1000 { // warm up
		feed()
	}
	if allocs := testing.AllocsPerRun(1000, feed); allocs != 0 {
		t.Errorf("%.2f allocations per step, want 0", allocs)
	}
}

// testRecordings are every recording of testdata, good (decode) and bad
// (errors): what the other readers are compared with Feed on.
func testRecordings(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/decode/*.jsonl")
	errs, _ := filepath.Glob("testdata/errors/*.jsonl")
	files = append(files, errs...)
	if len(files) < 10 {
		t.Fatalf("found %d recordings in testdata", len(files))
	}
	return files
}
