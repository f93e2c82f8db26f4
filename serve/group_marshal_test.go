package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/pymarshal"
)

// decodeSteps reads step lines as openbddl's callers hold them (dicts),
// for appendMarshal and json.Marshal to write the same values.
func decodeSteps(t testing.TB, lines [][]byte) []any {
	t.Helper()
	out := make([]any, len(lines))
	for i, l := range lines {
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.UseNumber()
		if err := dec.Decode(&out[i]); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	return out
}

// TestServeGroupMarshalMatchesJSON: a group's steps sent as steps_marshal
// (read from the marshal data as they are, or from their JSON text for
// what is not read so) give the same results, records and errors as the
// same steps sent as JSON, with and without numbers; good steps, bad
// ones, and fields read either way.
func TestServeGroupMarshalMatchesJSON(t *testing.T) {
	t.Parallel()
	var srv *server
	c := startServeWith(t, DefaultMaxLine, "", func(s *server) { spreadGroups(s); srv = s })
	eps := exampleEpisodes(t)
	if len(eps) > 6 {
		eps = eps[:6]
	}
	// Extra members, each stepped with the steps of eps[0] but for one
	// step of its own at tick 2.
	odd := []string{
		`{"step":%d,"facts":[["cooked","no_such.n.01_1"]]}`,
		`{"step":%d,"colour":"red"}`,
		`{"step":%d,"objects":{"no_such.n.01_1":{"pos":[0,0,0]}}}`,
		`{"t":%d}`,
		`{"step":%d,"t":0.25,"unset":null,"false":[]}`,
	}
	type member struct {
		ep    groupEpisode
		steps [][]byte
	}
	var members []member
	for _, ep := range eps {
		members = append(members, member{ep, ep.steps})
	}
	for _, o := range odd {
		steps := append([][]byte(nil), eps[0].steps...)
		if len(steps) > 2 {
			steps[2] = fmt.Appendf(nil, o, 2)
		}
		members = append(members, member{eps[0], steps})
	}
	for _, numbered := range []bool{false, true} {
		asJSON := make([]string, len(members))
		asMarshal := make([]string, len(members))
		longest := 0
		for i, m := range members {
			asJSON[i], asMarshal[i] = openFor(t, c, m.ep, nil), openFor(t, c, m.ep, nil)
			longest = max(longest, len(m.steps))
		}
		for k := 0; k < longest; k++ {
			var lines [][]byte
			var a, b []string
			var numbers []int64
			for i, m := range members {
				if k < len(m.steps) {
					lines = append(lines, m.steps[k])
					a, b = append(a, asJSON[i]), append(b, asMarshal[i])
					numbers = append(numbers, int64(k))
				}
			}
			steps := decodeSteps(t, lines)
			if numbered {
				for _, st := range steps {
					if d, ok := st.(map[string]any); ok && k%2 == 0 {
						delete(d, "step")
					}
				}
			}
			text, _ := json.Marshal(steps)
			pj := map[string]any{"sessions": a, "steps": json.RawMessage(text), "records": true, "explain": k%3 == 0}
			b64 := base64.StdEncoding.EncodeToString(appendMarshal(nil, steps))
			pm := map[string]any{"sessions": b, "steps_marshal": b64, "records": true, "explain": k%3 == 0}
			if numbered {
				pj["numbers"], pm["numbers"] = numbers, numbers
			}
			// The steps are read from the marshal data (not its JSON).
			p := groupStepParams{Sessions: b, StepsMarshal: &b64}
			if numbered {
				p.Numbers = numbers
			}
			if doc, release := srv.groupDoc(&p); doc == nil {
				t.Fatalf("tick %d: groupDoc did not take the steps", k)
			} else {
				release()
			}
			var got, want groupResult
			if err := json.Unmarshal(c.ok("group.step", pj), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.ok("group.step", pm), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("numbers %v, tick %d: steps_marshal differs from steps (-steps +steps_marshal):\n%s", numbered, k, diff)
			}
			if k == 2 && !numbered {
				failed := 0
				for _, e := range got.Errors {
					if e != nil {
						failed++
					}
				}
				if failed != 3 { // an unknown field warns
					t.Errorf("tick 2: %d members failed, want 3: %v", failed, got.Errors)
				}
			}
		}
	}
	c.finish()
}

// FuzzGroupDoc: when groupDoc takes marshal data for the members to read
// as it is, groupLines takes the same data too, and each member's line
// (episode.MarshalStep.Line, what it reads when it does not read the
// dict) is the line groupLines builds; never a panic.
func FuzzGroupDoc(f *testing.F) {
	for _, s := range []string{
		"WwIAAAB72gRzdGVw6QAAAADaBWZhY3RzWwEAAABbAwAAANoFb250b3DaAWHaAWIwTg==",
		"WwIAAAB72gRzdGVw6QEAAADaBWZhY3RzWwEAAABbAgAAANoFZHVzdHn6C3Nob2Uubi4wMV8xMHtyAAAAAOkCAAAAMA==",
	} {
		raw, _ := base64.StdEncoding.DecodeString(s)
		f.Add(raw, false)
		f.Add(raw, true)
	}
	f.Add(appendMarshal(nil, []any{map[string]any{"step": json.Number("1")}, map[string]any{}}), true)
	srv := newServer(testHost(io.Discard, ""), io.Discard, 1<<20)
	f.Fuzz(func(t *testing.T, raw []byte, numbered bool) {
		doc, err := pymarshal.Scan(raw, pymarshal.LimitsFor(len(raw), 1<<20), 64)
		n := 2
		if err == nil {
			n = len(doc.Items)
		}
		if n == 0 || n > 64 {
			return
		}
		b64 := base64.StdEncoding.EncodeToString(raw)
		p := groupStepParams{StepsMarshal: &b64}
		for i := range n {
			p.Sessions = append(p.Sessions, fmt.Sprintf("s%d", i))
			if numbered {
				p.Numbers = append(p.Numbers, int64(i*7-3))
			}
		}
		got, release := srv.groupDoc(&p)
		release()
		if got == nil {
			return
		}
		lines, release, e := groupLines(&p, srv.unmarshalSteps, new([]byte))
		release()
		if e != nil {
			t.Fatalf("groupDoc took %x, groupLines: %v", raw, e)
		}
		for i := range n {
			m := episode.MarshalStep{Doc: got, Item: i}
			if numbered {
				m.Number, m.HasNumber = p.Numbers[i], true
			}
			if l := m.Line(); !bytes.Equal(l, lines[i]) {
				t.Fatalf("member %d: MarshalStep.Line %s, groupLines %s", i, l, lines[i])
			}
		}
	})
}

// TestServeGroupMarshalBomb: steps_marshal that back-references expand
// past their budget, or a list far longer than the group, are refused
// as before (the JSON path's errors), with nothing applied.
func TestServeGroupMarshalBomb(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	ep := exampleEpisodes(t)[1]
	a, b := openFor(t, c, ep, nil), openFor(t, c, ep, nil)
	// Item 0: a 200-byte string, then 40 lists of two references each
	// to the one before (2^40 copies); item 1: None.
	bomb := []byte{'[', 2, 0, 0, 0, 0xdb, 41, 0, 0, 0, 0xfa, 200}
	bomb = append(bomb, bytes.Repeat([]byte{'x'}, 200)...)
	for level := range 40 {
		bomb = append(bomb, 0xdb, 2, 0, 0, 0)
		for range 2 {
			bomb = append(bomb, 'r', byte(1+level), 0, 0, 0)
		}
	}
	bomb = append(bomb, 'N')
	nones := append([]byte{'[', 0x40, 0x42, 0x0f, 0}, bytes.Repeat([]byte{'N'}, 1000000)...)
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"bomb", bomb, "back-references expand it"},
		{"a million steps", nones, "steps: 1000000, one per session (2)"},
	} {
		c.send(`{"id":"x","method":"group.step","params":{"sessions":["` + a + `", "` + b + `"],"steps_marshal":"` + base64.StdEncoding.EncodeToString(tc.raw) + `"}}`)
		r := c.wait(`"x"`)
		if r.Error == nil || r.Error.Code != codeInvalidParams || !bytes.Contains([]byte(r.Error.Message), []byte(tc.want)) {
			t.Errorf("%s: %.300s; want invalid_params with %q", tc.name, r.raw, tc.want)
		}
	}
	var g groupResult
	if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": []string{a, b}, "steps": []json.RawMessage{ep.steps[0], ep.steps[0]}}), &g); err != nil {
		t.Fatal(err)
	}
	if g.Errors[0] != nil || g.Errors[1] != nil || g.Step[0] != 0 {
		t.Errorf("after the refused requests: %v, steps %v", g.Errors, g.Step)
	}
	c.finish()
}
