package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
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
		{`[{"step":0},{"step":0}]`, false},
		{`[{"step":0}, {"step":1,"facts":[["ontop","nope","x"]]}]`, false},
		{`[ {"step":0} , {"step":1} ]`, true},
		{"[{\"step\":0},\t{\"step\":1,\"t\":0.5}]", true},
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
		if e0, e1 := recs[0].Error, recs[1].Error; e0 != nil && e1 != nil && e1.Code != codeParse &&
			(e0.Code != e1.Code || e0.Message != e1.Message || !reflect.DeepEqual(e0.Index, e1.Index)) {
			t.Errorf("case %d: fast path error %+v, generic %+v", i, e0, e1)
		}
		if tc.ok && !bytes.Equal(recs[0].Result, recs[1].Result) {
			t.Errorf("case %d: fast path %s\ngeneric %s", i, recs[0].Result, recs[1].Result)
		}
	}
	c.finish()
}

// jsonFeed is a walkSteps feed that takes any JSON value (encoding/json
// finds where it ends) and records it.
func jsonFeed(got *[]string) func(int, []byte) (int, *serveError) {
	return func(_ int, rest []byte) (int, *serveError) {
		dec := json.NewDecoder(bytes.NewReader(rest))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, errorf(codeBadStep, "%v", err)
		}
		*got = append(*got, string(v))
		return int(dec.InputOffset()), nil
	}
}

// TestWalkSteps: session.run's steps are walked at the top level only,
// whatever brackets and commas their strings hold, and an array that
// breaks is an error with the index of the element where it broke.
func TestWalkSteps(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  []string
		index int // of the error; -1: none
	}{
		{`null`, nil, -1},
		{``, nil, -1},
		{`[]`, nil, -1},
		{` [ ] `, nil, -1},
		{`[{"step":0}]`, []string{`{"step":0}`}, -1},
		{`[{"step":0}, {"step":1,"facts":[["a","b,]}"]]} ,{"t":"\"],"}]`, []string{`{"step":0}`, `{"step":1,"facts":[["a","b,]}"]]}`, `{"t":"\"],"}`}, -1},
		{"[ {},\t{\"a\":1} ]", []string{`{}`, `{"a":1}`}, -1},
		{`[1,[2,3]]`, []string{`1`, `[2,3]`}, -1},
		{`[{"step":0},]`, []string{`{"step":0}`}, 1},
		{`[,{"step":0}]`, nil, 0},
		{`[ , {}]`, nil, 0},
		{`[{"step":0}{"step":1}]`, []string{`{"step":0}`}, 0},
		{`[{"step":0},,{}]`, []string{`{"step":0}`}, 1},
		{`[{"step":0}}]`, []string{`{"step":0}`}, 0},
		{`[{},{"step":0]`, []string{`{}`}, 1},
		{`[{"a":"x]`, nil, 0},
		{`{"step":0}`, nil, 0},
		{`"x"`, nil, 0},
		{`[`, nil, 0},
		{"\f[]", nil, 0},
		{"[]\v", nil, 0},
	} {
		var got []string
		n, err := walkSteps([]byte(tc.in), jsonFeed(&got))
		index := -1
		if err != nil {
			index = 0
			if err.Index != nil {
				index = *err.Index
			}
		}
		if index != tc.index || !slices.Equal(got, tc.want) || (err == nil && n != len(got)) {
			t.Errorf("walkSteps(%s) = %q, %d, %v; want %q, error at %d", tc.in, got, n, err, tc.want, tc.index)
		}
	}
}

// FuzzWalkSteps: walkSteps takes exactly the JSON arrays, and walks them
// into the elements encoding/json finds; it never panics.
func FuzzWalkSteps(f *testing.F) {
	for _, s := range []string{`[]`, `[{"step":0}]`, `[{"step":0},{"a":"}],{\"","b":[[1],{}]}]`, `[{"step":0},]`, `[{"a":"x]`, "[ 1 ,\t2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if s := strings.Trim(in, jsonSpace); s == "" || s == "null" {
			return
		}
		var got []string
		n, err := walkSteps([]byte(in), jsonFeed(&got))
		var want []json.RawMessage
		isArray := json.Unmarshal([]byte(in), &want) == nil && json.Valid([]byte(in))
		if (err == nil) != isArray {
			t.Fatalf("walkSteps(%q): error %v; a JSON array: %v", in, err, isArray)
		}
		if err != nil {
			return
		}
		if n != len(want) || len(got) != len(want) {
			t.Fatalf("walkSteps(%q) = %d %q, encoding/json %q", in, n, got, want)
		}
		for i := range got {
			if got[i] != string(want[i]) {
				t.Fatalf("walkSteps(%q) = %q, encoding/json %q", in, got, want)
			}
		}
	})
}
