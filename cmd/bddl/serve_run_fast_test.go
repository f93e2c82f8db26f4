package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestServeRunFastPath: a session.run in openbddl's layout (taken by
// dispatchRun without decoding the envelope) answers exactly as the same
// request in another layout (the generic path), and every malformed steps
// array is an error on both.
func TestServeRunFastPath(t *testing.T) {
	t.Parallel()
	c := startServe(t, defaultServeMaxLine, "")
	lines := episodeLines(t, "../../activities/examples/cleaning_shoes/episodes/success.jsonl")
	valid := "[" + string(bytes.Join(lines[1:], []byte(","))) + "]" // the header is the session's
	for i, tc := range []struct {
		steps string
		ok    bool
	}{
		{valid, true},
		{`[]`, true},
		{`[{"step":0,"facts":[["ontop","x\"],}{","y"]]}]`, false}, // unknown object, brackets in a string
		{`[{"step":0},]`, false},
		{`[{"step":0}{"step":1}]`, false},
		{`[{"step":0,}]`, false},
		{`[{"step":0}]]`, false},
		{`[{"step":0]`, false},
		{`[{"step":0,"facts":[["a","b"}]]}]`, false},
		{`[{"step":NaN}]`, false},
		{`[{"step":0},1]`, false},
		{`[{"step":0,"facts":"x\`, false},
	} {
		var recs [2]serveReply
		for k, layout := range []string{`{"id":"r%d","method":"session.run","params":{"session":%q,"goals":true,"steps":%s}}`,
			`{"id": "r%d", "method":"session.run","params":{"session":%q,"goals":true,"steps":%s}}`} {
			sid := openSession(t, c, map[string]any{"activity": "../../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])})
			line := fmt.Sprintf(layout, i, sid, tc.steps)
			_, _, _, fast := parseRunFast([]byte(line))
			if (k == 1 && fast) || (k == 0 && tc.ok && !fast) {
				t.Errorf("case %d layout %d: parseRunFast ok = %v", i, k, fast)
			}
			c.send(line)
			recs[k] = c.wait(fmt.Sprintf(`"r%d"`, i))
		}
		if (recs[0].Error == nil) != tc.ok || (recs[1].Error == nil) != tc.ok {
			t.Errorf("case %d %.60s: errors %v / %v, want ok %v", i, tc.steps, recs[0].Error, recs[1].Error, tc.ok)
			continue
		}
		if tc.ok && !bytes.Equal(recs[0].Result, recs[1].Result) {
			t.Errorf("case %d: fast path %s\ngeneric %s", i, recs[0].Result, recs[1].Result)
		}
	}
	c.finish()
}

func TestSplitSteps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{`[]`, []string{}, true},
		{`[{"step":0}]`, []string{`{"step":0}`}, true},
		{`[{"step":0},{"a":"}],{\"","b":[[1],{}]}]`, []string{`{"step":0}`, `{"a":"}],{\"","b":[[1],{}]}`}, true},
		{`[{"step":0},]`, nil, false},
		{`[,{"step":0}]`, nil, false},
		{`[{"step":0}{"step":1}]`, nil, false},
		{`[{"step":0}]]`, nil, false},
		{`[{"step":0}}]`, nil, false},
		{`[{"step":0]`, nil, false},
		{`[{"a":"x]`, nil, false},
		{`[1]`, nil, false},
		{`[[{}]]`, nil, false},
		{"[ {},\t{\"a\":1} ]", []string{`{}`, `{"a":1}`}, true},
		{`[ , {}]`, nil, false},
		{`{}`, nil, false},
		{`[`, nil, false},
	} {
		got, ok := splitSteps([]byte(tc.in))
		var strs []string
		if got != nil {
			strs = []string{}
		}
		for _, g := range got {
			strs = append(strs, string(g))
		}
		if ok != tc.ok || (ok && !slices.Equal(strs, tc.want)) {
			t.Errorf("splitSteps(%s) = %q, %v; want %q, %v", tc.in, strs, ok, tc.want, tc.ok)
		}
	}
}

// FuzzSplitSteps: what splitSteps accepts, with every element valid JSON,
// is a valid array that splitArray splits the same way; it never panics.
func FuzzSplitSteps(f *testing.F) {
	for _, s := range []string{`[]`, `[{"step":0}]`, `[{"step":0},{"a":"}],{\"","b":[[1],{}]}]`, `[{"step":0},]`, `[{"a":"x]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := splitSteps([]byte(in))
		if !ok {
			return
		}
		for _, g := range got {
			if !json.Valid(g) {
				return // the episode reader rejects it
			}
		}
		if !json.Valid([]byte(in)) {
			t.Fatalf("splitSteps(%q) = %q: valid elements of an invalid array", in, got)
		}
		want, _ := splitArray([]byte(in))
		if len(want) != len(got) {
			t.Fatalf("splitSteps(%q) = %q, splitArray %q", in, got, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("splitSteps(%q) = %q, splitArray %q", in, got, want)
			}
		}
	})
}
