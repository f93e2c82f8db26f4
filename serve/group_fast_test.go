package serve

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestParseGroupFast: the params openbddl writes are read without
// encoding/json, to what the generic decoding gives; anything else is
// left to it.
func TestParseGroupFast(t *testing.T) {
	t.Parallel()
	b64 := "WwIAAAB72gRzdGVw6QAAAADaBWZhY3RzWwEAAABbAwAAANoFb250b3DaAWHaAWIwTg=="
	for _, c := range []struct {
		name, raw string
		fast      bool
	}{
		{"openbddl", `{"sessions":["s1", "s2"],"steps_marshal":"` + b64 + `"}`, true},
		{"compact", `{"sessions":["s1","s2"],"steps_marshal":"` + b64 + `"}`, true},
		{"flags", `{"sessions":["s1", "s2"],"explain":true,"records":true,"steps_marshal":"` + b64 + `"}`, true},
		{"numbers", `{"sessions":["s1", "s2"],"numbers":[0, -3],"steps_marshal":"` + b64 + `"}`, true},
		{"max int64", `{"sessions":["s1"],"numbers":[9223372036854775807],"steps_marshal":"` + b64 + `"}`, true},
		{"steps as JSON", `{"sessions":["s1"],"steps":[{"step":0}]}`, false},
		{"poses", `{"sessions":["s1"],"names":["a"],"pos":[[[0,0,0]]],"numbers":[1]}`, false},
		{"escaped id", `{"sessions":["s\u0031"],"steps_marshal":"` + b64 + `"}`, false},
		{"id with a bracket", `{"sessions":["s]1"],"steps_marshal":"` + b64 + `"}`, false},
		{"no sessions", `{"sessions":[],"steps_marshal":"` + b64 + `"}`, false},
		{"leading zero", `{"sessions":["s1"],"numbers":[01],"steps_marshal":"` + b64 + `"}`, false},
		{"fraction", `{"sessions":["s1"],"numbers":[1.0],"steps_marshal":"` + b64 + `"}`, false},
		{"overflow", `{"sessions":["s1"],"numbers":[9223372036854775808],"steps_marshal":"` + b64 + `"}`, false},
		{"escape in base64", `{"sessions":["s1"],"steps_marshal":"WwIA\/AAB"}`, false},
		{"CR in base64", "{\"sessions\":[\"s1\"],\"steps_marshal\":\"WwIA\r/AAB\"}", false},
		{"quote in base64", `{"sessions":["s1"],"steps_marshal":"WwIA","x":"AAB"}`, false},
		{"explain false", `{"sessions":["s1"],"explain":false,"steps_marshal":"` + b64 + `"}`, false},
		{"twice", `{"sessions":["s1"],"explain":true,"explain":true,"steps_marshal":"` + b64 + `"}`, false},
		{"more after", `{"sessions":["s1"],"steps_marshal":"` + b64 + `"} `, false},
		{"unknown key", `{"sessions":["s1"],"steps_marshal":"` + b64 + `","x":1}`, false},
		{"space", `{"sessions": ["s1"],"steps_marshal":"` + b64 + `"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cache groupSessions
			var fast groupStepParams
			if got := cache.parseGroupFast([]byte(c.raw), &fast); got != c.fast {
				t.Fatalf("parseGroupFast = %v, want %v", got, c.fast)
			}
			if !c.fast {
				return
			}
			var want groupStepParams
			if e := decodeWhole([]byte(c.raw), &want); e != nil {
				t.Fatalf("the generic decoding refuses it: %v", e)
			}
			if d := diffFast(want, fast); d != "" {
				t.Errorf("params (-generic +fast):\n%s", d)
			}
		})
	}
}

// diffFast compares params read by the generic decoding and by
// parseGroupFast, whose steps_marshal stays in the line (stepsB64).
func diffFast(generic, fast groupStepParams) string {
	if fast.stepsB64 != nil {
		s := string(fast.stepsB64)
		fast.StepsMarshal, fast.stepsB64 = &s, nil
	}
	return cmp.Diff(generic, fast, cmpopts.IgnoreUnexported(groupStepParams{}))
}

// TestParseGroupFastCache: the same sessions list is read once; another
// one replaces it.
func TestParseGroupFastCache(t *testing.T) {
	t.Parallel()
	var cache groupSessions
	read := func(list string) []string {
		var p groupStepParams
		if !cache.parseGroupFast([]byte(`{"sessions":[`+list+`],"steps_marshal":"MA=="}`), &p) {
			t.Fatalf("%s: not read", list)
		}
		return p.Sessions
	}
	a := read(`"s1", "s2"`)
	b := read(`"s1", "s2"`)
	if &a[0] != &b[0] {
		t.Error("the same list was read twice")
	}
	if c := read(`"s2", "s1"`); !cmp.Equal(c, []string{"s2", "s1"}) {
		t.Errorf("another list: %q", c)
	}
	if !cmp.Equal(a, []string{"s1", "s2"}) {
		t.Errorf("the first list changed: %q", a)
	}
	if bad := (`{"sessions":["s2", "s1"],"steps_marshal":"M\"A=="}`); cache.parseGroupFast([]byte(bad), &groupStepParams{}) {
		t.Error("a cached list with bad params after it was read")
	}
}

// FuzzGroupParamsFast: params the fast reading takes are read by the
// generic decoding to the same groupStepParams.
func FuzzGroupParamsFast(f *testing.F) {
	f.Add([]byte(`{"sessions":["s1", "s2"],"explain":true,"records":true,"numbers":[0, -3],"steps_marshal":"MA=="}`))
	f.Add([]byte(`{"sessions":["s1"],"steps_marshal":"WwIA/AAB+"}`))
	f.Add([]byte("{\"sessions\":[\"s1\"],\"steps_marshal\":\"M\x01A\xff==\"}"))
	f.Add([]byte(`{"sessions":["a","b"],"steps":[{"step":0},null]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var cache groupSessions
		var fast groupStepParams
		if !cache.parseGroupFast(raw, &fast) {
			return
		}
		var want groupStepParams
		e := decodeWhole(raw, &want)
		if _, err := base64.StdEncoding.DecodeString(string(fast.stepsB64)); err != nil {
			// Refused as not base64 (groupLines); so by the generic path.
			if e == nil {
				if _, err := base64.StdEncoding.DecodeString(*want.StepsMarshal); err == nil {
					t.Fatalf("%s: refused when read fast, base64 when read as JSON", raw)
				}
			}
			return
		}
		if e != nil {
			t.Fatalf("%s: read fast, refused by the generic decoding: %v", raw, e)
		}
		if d := diffFast(want, fast); d != "" {
			t.Fatalf("%s: (-generic +fast):\n%s", raw, d)
		}
	})
}

// TestServeGroupResponseCap: a group's answer past --max-response is the
// error naming the limit, with or without the records; the server goes on.
func TestServeGroupResponseCap(t *testing.T) {
	t.Parallel()
	c := startServeWith(t, DefaultMaxLine, "", func(s *server) { s.maxResponse = 600 })
	var ids []string
	for range 32 { // their columns are past 600 bytes, an open's answer not
		ids = append(ids, openSession(t, c, map[string]any{"activity": exampleActivity}))
	}
	steps := make([]map[string]any, len(ids))
	for k, records := range []bool{false, true} {
		for i := range steps {
			steps[i] = map[string]any{"step": k}
		}
		r := c.call("group.step", map[string]any{"sessions": ids, "steps": steps, "records": records})
		if r.Error == nil || r.Error.Code != codeResponseTooLarge || !strings.Contains(r.Error.Message, "--max-response") {
			t.Fatalf("records %v: %.300s", records, r.raw)
		}
	}
	c.ok("group.step", map[string]any{"sessions": ids[:2], "steps": steps[:2]})
	c.finish()
}
