package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
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
	c := startServe(t, DefaultMaxLine, "")
	lines := episodeLines(t, "../activities/examples/cleaning_shoes/episodes/success.jsonl")
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
			sid := openSession(t, c, map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])})
			line := fmt.Sprintf(layout, i, sid, tc.steps)
			_, _, _, _, fast := parseRunFast([]byte(line))
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
		if !json.Valid([]byte(tc.steps)) {
			continue
		}
		// The same steps marshalled, in the fast and the generic layout,
		// answer exactly as the JSON array does.
		b64 := base64.StdEncoding.EncodeToString(pyMarshal(t, tc.steps))
		for k, layout := range []string{`{"id":"m%d","method":"session.run","params":{"session":%q,"goals":true,"steps_marshal":%q}}`,
			`{"id": "m%d", "method":"session.run","params":{"session":%q,"goals":true,"steps_marshal":%q}}`} {
			sid := openSession(t, c, map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])})
			line := fmt.Sprintf(layout, i, sid, b64)
			if _, _, _, marshalled, fast := parseRunFast([]byte(line)); fast != (k == 0) || marshalled != fast {
				t.Errorf("case %d marshal layout %d: parseRunFast ok = %v, marshalled %v", i, k, fast, marshalled)
			}
			c.send(line)
			r := c.wait(fmt.Sprintf(`"m%d"`, i))
			if (r.Error == nil) != tc.ok || !bytes.Equal(r.Result, recs[0].Result) ||
				r.Error != nil && (r.Error.Code != recs[0].Error.Code || r.Error.Message != recs[0].Error.Message) {
				t.Errorf("case %d marshal layout %d: %s %+v\nJSON: %s %+v", i, k, r.Result, r.Error, recs[0].Result, recs[0].Error)
			}
		}
	}
	c.finish()
}

// TestServeRunMarshalErrors: steps_marshal that JSON cannot hold is
// unsupported_value and applies no step; broken marshal data, bad base64
// and steps given twice are invalid_params; the session goes on.
func TestServeRunMarshalErrors(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	lines := episodeLines(t, "../activities/examples/cleaning_shoes/episodes/success.jsonl")
	sid := openSession(t, c, map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])})
	first := pyMarshal(t, "["+string(lines[1])+"]")
	// [step 0, then b"x"]: the first step is valid, the second is bytes.
	withBytes := append([]byte{'[', 2, 0, 0, 0}, first[5:]...)
	withBytes = append(withBytes, 's', 1, 0, 0, 0, 'x')
	for _, tc := range []struct {
		name, params, code, msg string
	}{
		{"bytes", `{"session":%q,"steps_marshal":"` + base64.StdEncoding.EncodeToString(withBytes) + `"}`, codeUnsupportedValue, "bytes"},
		{"truncated", `{"session":%q,"steps_marshal":"` + base64.StdEncoding.EncodeToString(first[:len(first)-3]) + `"}`, codeInvalidParams, "more than the data left"},
		{"not a list", `{"session":%q,"steps_marshal":"` + base64.StdEncoding.EncodeToString([]byte{'N'}) + `"}`, codeInvalidParams, "a list"},
		{"bad base64", `{"session":%q,"steps_marshal":"!!!"}`, codeInvalidParams, "steps_marshal: not base64"},
		{"both", `{"session":%q,"steps":[],"steps_marshal":"Tg=="}`, codeInvalidParams, "give one"},
	} {
		for k, layout := range []string{`{"id":"e","method":"session.run","params":%s}`, `{"id": "e", "method": "session.run", "params": %s}`} {
			c.send(fmt.Sprintf(layout, fmt.Sprintf(tc.params, sid)))
			r := c.wait(`"e"`)
			if r.Error == nil || r.Error.Code != tc.code || !strings.Contains(r.Error.Message, tc.msg) {
				t.Errorf("%s, layout %d: %+v; want %s with %q", tc.name, k, r.Error, tc.code, tc.msg)
			}
		}
	}
	// Nothing was applied: the episode's first step is still next.
	if r := c.call("session.step", map[string]any{"session": sid, "step": json.RawMessage(lines[1])}); r.Error != nil {
		t.Errorf("after the refused runs, the first step: %+v", r.Error)
	}
	c.finish()
}

// pyMarshal writes a JSON text as Python's marshal.dumps(value, 4) would
// (keys in their order, no back-references), for tests of steps_marshal.
func pyMarshal(t testing.TB, text string) []byte {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var out []byte
	var value func() []byte
	value = func() []byte {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("pyMarshal: %v", err)
		}
		le := func(b []byte, n int) []byte { return binary.LittleEndian.AppendUint32(b, uint32(n)) }
		switch v := tok.(type) {
		case json.Delim:
			var items [][]byte
			for dec.More() {
				if v == '{' {
					items = append(items, value()) // the key
				}
				items = append(items, value())
			}
			dec.Token()
			if v == '{' {
				return append(append([]byte{'{'}, bytes.Join(items, nil)...), '0')
			}
			return append(le([]byte{'['}, len(items)), bytes.Join(items, nil)...)
		case string:
			return append(le([]byte{'u'}, len(v)), v...)
		case json.Number:
			if n, err := v.Int64(); err == nil && n == int64(int32(n)) {
				return le([]byte{'i'}, int(n))
			}
			f, _ := v.Float64()
			return binary.LittleEndian.AppendUint64([]byte{'g'}, math.Float64bits(f))
		case bool:
			if v {
				return []byte{'T'}
			}
			return []byte{'F'}
		default:
			return []byte{'N'}
		}
	}
	out = value()
	return out
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

// TestServeRunChain: the parts of a chained run are applied in order;
// once one fails, the chain's later parts are refused (chain_broken) and
// apply nothing, while another chain, or none, goes on.
func TestServeRunChain(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	lines := episodeLines(t, "../activities/examples/cleaning_shoes/episodes/success.jsonl")
	var header map[string]any
	if err := json.Unmarshal(lines[0], &header); err != nil {
		t.Fatal(err)
	}
	delete(header, "steps") // the skipped step is a line too
	for _, marshalled := range []bool{false, true} {
		sid := openSession(t, c, map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl",
			"header": header, "lenient": true})
		steps := func(s ...string) string {
			arr := "[" + strings.Join(s, ",") + "]"
			if marshalled {
				return `"steps_marshal":"` + base64.StdEncoding.EncodeToString(pyMarshal(t, arr)) + `"`
			}
			return `"steps":` + arr
		}
		bad := `{"step":3,"facts":[["ontop","nope.n.01_1","bed.n.01_1"]]}`
		for k, part := range []string{
			steps(string(lines[1]), string(lines[2])),
			steps(string(lines[3]), bad),
			steps(string(lines[4])),
		} {
			c.send(fmt.Sprintf(`{"id":"p%d","method":"session.run","params":{"session":%q,"goals":true,"chain":"c1",%s}}`, k, sid, part))
		}
		want := []string{"", codeBadStep, codeChainBroken}
		for k, code := range want {
			r := c.wait(fmt.Sprintf(`"p%d"`, k))
			got := ""
			if r.Error != nil {
				got = r.Error.Code
			}
			if got != code {
				t.Errorf("marshalled %v, part %d: error %+v, want %q", marshalled, k, r.Error, code)
			}
			if code == codeBadStep && (r.Error.Index == nil || *r.Error.Index != 1) {
				t.Errorf("marshalled %v: the bad step's index %v, want 1 (in its part)", marshalled, r.Error.Index)
			}
		}
		// Steps 0-2 were applied (the bad step's part kept its first step),
		// the bad step was skipped (a lenient session), and the third part
		// was not applied: its step 3 is still to come, and the goal then
		// holds as it does on the whole episode.
		var res struct {
			Result struct {
				Step    int  `json:"episode_step"`
				Steps   int  `json:"steps"`
				Success bool `json:"holds_at_end"`
				Skipped int  `json:"skipped_steps"`
			} `json:"result"`
		}
		r := c.call("session.run", map[string]any{"session": sid, "chain": "c2", "steps": []json.RawMessage{lines[4]}})
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.Result.Step != 3 || res.Result.Steps != 4 ||
			!res.Result.Success || res.Result.Skipped != 1 {
			t.Errorf("marshalled %v: after the broken chain, step 3: %s %+v", marshalled, r.Result, r.Error)
		}
	}
	c.finish()
}
