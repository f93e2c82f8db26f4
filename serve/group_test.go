package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// groupResult is a group.step result.
type groupResult struct {
	Success        []bool            `json:"success"`
	Goal           []string          `json:"goal"`
	Score          []float64         `json:"score"`
	ChallengeScore []float64         `json:"challenge_score"`
	Step           []int64           `json:"step"`
	Errors         []*serveError     `json:"errors"`
	Records        []json.RawMessage `json:"records"`
}

// groupEpisode is one member of a group: its episode's header and steps.
type groupEpisode struct {
	name     string
	activity string // a path, or "" for the header's
	header   []byte
	steps    [][]byte
}

// openFor opens a session on an episode's header (without its declared
// length, as the steps may be cut).
func openFor(t *testing.T, c *serveClient, ep groupEpisode, opts map[string]any) string {
	t.Helper()
	var h map[string]json.RawMessage
	if err := json.Unmarshal(ep.header, &h); err != nil {
		t.Fatal(err)
	}
	delete(h, "steps")
	header, _ := json.Marshal(h)
	params := map[string]any{"header": json.RawMessage(header)}
	for k, v := range opts {
		params[k] = v
	}
	if ep.activity != "" {
		params["activity"] = ep.activity
	}
	var opened struct{ Session string }
	if err := json.Unmarshal(c.ok("session.open", params), &opened); err != nil {
		t.Fatal(err)
	}
	return opened.Session
}

// compareGroup steps the episodes in lockstep as one group and each in a
// session of its own, and compares every member's record, error and
// columns with its separate session's at every step.
func compareGroup(t *testing.T, c *serveClient, eps []groupEpisode, opts map[string]any) {
	t.Helper()
	group := make([]string, len(eps))
	alone := make([]string, len(eps))
	longest := 0
	for i, ep := range eps {
		group[i] = openFor(t, c, ep, opts)
		alone[i] = openFor(t, c, ep, opts)
		longest = max(longest, len(ep.steps))
	}
	for k := 0; k < longest; k++ {
		var sessions []string
		var steps []json.RawMessage
		var members []int
		for i, ep := range eps {
			if k < len(ep.steps) {
				sessions = append(sessions, group[i])
				steps = append(steps, ep.steps[k])
				members = append(members, i)
			}
		}
		// Every other step without the records: the columns are then
		// read from the stepper's Outcome, not from the record.
		records := k%2 == 0
		var got groupResult
		if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": sessions, "steps": steps, "records": records, "explain": records}), &got); err != nil {
			t.Fatal(err)
		}
		if !records {
			got.Records = make([]json.RawMessage, len(sessions))
			for j := range got.Records {
				got.Records[j] = json.RawMessage("null")
			}
		}
		if len(got.Records) != len(sessions) || len(got.Success) != len(sessions) || len(got.Errors) != len(sessions) {
			t.Fatalf("step %d: %d sessions, %d records, %d successes, %d errors", k, len(sessions), len(got.Records), len(got.Success), len(got.Errors))
		}
		for j, i := range members {
			want := c.call("session.step", map[string]any{"session": alone[i], "step": json.RawMessage(eps[i].steps[k]), "explain": true})
			if want.Error != nil || got.Errors[j] != nil {
				if want.Error == nil || got.Errors[j] == nil || want.Error.Code != got.Errors[j].Code ||
					want.Error.Message != got.Errors[j].Message {
					t.Errorf("%s step %d: group error %+v, session error %+v", eps[i].name, k, got.Errors[j], want.Error)
				}
				if string(got.Records[j]) != "null" || got.Goal[j] != "unknown" || got.Step[j] != -1 {
					t.Errorf("%s step %d: a failed member's record %s, goal %s, step %d", eps[i].name, k, got.Records[j], got.Goal[j], got.Step[j])
				}
				continue
			}
			if !records {
				// only the columns, below
			} else if diff := cmp.Diff(comparable(t, want.Result), comparable(t, got.Records[j])); diff != "" {
				t.Errorf("%s step %d: group record differs from its session's (-session +group):\n%s", eps[i].name, k, diff)
			}
			var rec episode.Result
			if err := json.Unmarshal(want.Result, &rec); err != nil {
				t.Fatal(err)
			}
			if got.Success[j] != rec.Success || got.Goal[j] != rec.GoalAtEnd.String() || got.Score[j] != rec.Score ||
				got.ChallengeScore[j] != rec.ChallengeScore || got.Step[j] != rec.EpisodeStep {
				t.Errorf("%s step %d: columns %v %s %v %v %d, record %v %s %v %v %d", eps[i].name, k, got.Success[j], got.Goal[j],
					got.Score[j], got.ChallengeScore[j], got.Step[j], rec.Success, rec.GoalAtEnd, rec.Score, rec.ChallengeScore, rec.EpisodeStep)
			}
		}
	}
	for i := range eps {
		c.ok("session.close", map[string]any{"session": group[i]})
		c.ok("session.close", map[string]any{"session": alone[i]})
	}
}

func exampleEpisodes(t *testing.T) []groupEpisode {
	t.Helper()
	paths, err := filepath.Glob("../activities/examples/*/episodes/*.jsonl*")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example episodes: %v", err)
	}
	var eps []groupEpisode
	for _, p := range paths {
		lines := episodeLines(t, p)
		eps = append(eps, groupEpisode{name: p, header: lines[0], steps: lines[1:]})
	}
	return eps
}

// TestServeGroupMatchesSessions: every example episode stepped as one
// group equals each stepped in its own session, under check's option
// sets; twice over (16 members and more: the parallel path).
func TestServeGroupMatchesSessions(t *testing.T) {
	t.Parallel()
	eps := exampleEpisodes(t)
	c := startServe(t, DefaultMaxLine, "")
	for _, opts := range []map[string]any{
		{},
		{"transitions": true, "per_step": true},
		{"negation": "strict", "hold": 2, "at_end": true},
		{"lenient": true, "goal_formulas": "all"},
	} {
		compareGroup(t, c, eps, opts)
	}
	compareGroup(t, c, append(append([]groupEpisode(nil), eps...), eps...), map[string]any{"transitions": true})
	c.finish()
}

// TestServeGroupMatchesSessionsCorpus: 16 BEHAVIOR-1K activities (a
// deterministic sample), synthetic symbolic and pose recordings, as one
// group against separate sessions.
func TestServeGroupMatchesSessionsCorpus(t *testing.T) {
	t.Parallel()
	kbDir := corpus.KBDir(t)
	files := corpus.ActivityFiles(t)
	base, err := kb.FromEnv(kbDir)
	if err != nil {
		t.Fatal(err)
	}
	res := batch.NewResolver(base, predicates.Options{})
	res.SetParse(bddl.Options{Mode: bddl.Reference}, nil)
	var eps []groupEpisode
	stride := max(len(files)/16, 1)
	for i := stride / 2; i < len(files) && len(eps) < 16; i += stride {
		path := files[i]
		act, err := res.ActivityText(path, readFile(t, path))
		if err != nil {
			continue
		}
		prog, err := res.Program(act, nil)
		if err != nil {
			continue
		}
		kind := []episode.SynthKind{episode.SynthSymbolic, episode.SynthPoses}[len(eps)%2]
		var buf bytes.Buffer
		if err := episode.Synthesize(&buf, prog, act.Name, kind, 10, uint64(i)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		abs, _ := filepath.Abs(path)
		eps = append(eps, groupEpisode{name: corpus.Rel(t, path), activity: abs, header: lines[0], steps: lines[1:]})
	}
	if len(eps) < 12 {
		t.Fatalf("only %d corpus activities load", len(eps))
	}
	c := startServe(t, DefaultMaxLine, kbDir)
	compareGroup(t, c, eps, map[string]any{"transitions": true})
	c.finish()
}

// TestServeGroupFailingMember: a member whose step is refused, or whose
// session is unknown or closed, is reported in its place; the others'
// steps apply; a strict member stays stopped, as its session would.
func TestServeGroupFailingMember(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	ep := exampleEpisodes(t)[1] // cleaning_shoes
	var ss []string
	for range 10 {
		ss = append(ss, openFor(t, c, ep, nil))
	}
	closed := openFor(t, c, ep, nil)
	c.ok("session.close", map[string]any{"session": closed})
	step0 := json.RawMessage(ep.steps[0])
	steps := []json.RawMessage{step0, step0, json.RawMessage(`{"step":0,"objects":{"shoe.n.01_1":{"aabb":[1,1,1,0,0,0]}}}`), step0, step0, step0, step0, step0, step0, step0, step0, step0}
	sessions := append(append([]string(nil), ss...), "nope", closed)
	var got groupResult
	if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": sessions, "steps": steps}), &got); err != nil {
		t.Fatal(err)
	}
	for i := range sessions {
		wantErr := ""
		switch i {
		case 2:
			wantErr = codeBadStep
		case 10, 11:
			wantErr = codeUnknownSession
		}
		gotErr := ""
		if got.Errors[i] != nil {
			gotErr = got.Errors[i].Code
		}
		if gotErr != wantErr {
			t.Errorf("member %d (%s): error %q, want %q", i, sessions[i], gotErr, wantErr)
		}
		if wantErr == "" && got.Step[i] != 0 {
			t.Errorf("member %d: step %d, want 0", i, got.Step[i])
		}
	}
	if got.Records != nil {
		t.Errorf("records without asking: %s", got.Records)
	}
	// The failed strict member stays stopped; the others go on.
	next := json.RawMessage(ep.steps[1])
	if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": ss[:4], "steps": []json.RawMessage{next, next, next, next}}), &got); err != nil {
		t.Fatal(err)
	}
	for i, e := range got.Errors {
		if (e != nil) != (i == 2) {
			t.Errorf("second step, member %d: error %v", i, e)
		}
	}
	c.finish()
}

// TestServeGroupArrays: poses given as arrays (names once) give the same
// records as the same poses written in each step's objects.
func TestServeGroupArrays(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	ep := groupEpisode{name: "tidying", header: []byte(`{"bddl_episode":1,"activity":"tidying_the_living_room","closed_world":true}`)}
	names := []string{"floor.n.01_1", "coffee_table.n.01_1", "mug.n.04_1"}
	const n = 9 // above groupParallelMin
	var arr, dicts []string
	for range n {
		arr = append(arr, openFor(t, c, ep, nil))
		dicts = append(dicts, openFor(t, c, ep, nil))
	}
	for k := range 4 {
		pos := make([][][]float64, n)
		aabb := make([][][]float64, n)
		numbers := make([]int64, n)
		steps := make([]json.RawMessage, n)
		plain := make([]json.RawMessage, n)
		for i := range n {
			numbers[i] = int64(k)
			z := 0.1 * float64((i+k)%3)
			pos[i] = [][]float64{{0, 0, 0}, {1, 1, 0.4}, {1, 1, 0.8 + z}}
			aabb[i] = [][]float64{{-5, -5, -0.1, 5, 5, 0}, {0.5, 0.5, 0, 1.5, 1.5, 0.8}, {0.95, 0.95, 0.8 + z, 1.05, 1.05, 1 + z}}
			objs := map[string]any{}
			for j, name := range names {
				objs[name] = map[string]any{"pos": pos[i][j], "aabb": aabb[i][j]}
			}
			extra := map[string]any{"facts": [][]string{{"inside", "mug.n.04_1", "toy_box.n.01_1"}}}
			if i%2 == 0 {
				extra = map[string]any{}
			}
			b, _ := json.Marshal(extra)
			steps[i] = b
			extra["step"], extra["objects"] = k, objs
			b, _ = json.Marshal(extra)
			plain[i] = b
		}
		var a, d groupResult
		if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": arr, "numbers": numbers, "names": names,
			"pos": pos, "aabb": aabb, "steps": steps, "records": true, "explain": true}), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": dicts, "steps": plain, "records": true, "explain": true}), &d); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if a.Errors[i] != nil || d.Errors[i] != nil {
				t.Fatalf("step %d member %d: errors %v, %v", k, i, a.Errors[i], d.Errors[i])
			}
			if diff := cmp.Diff(comparable(t, d.Records[i]), comparable(t, a.Records[i])); diff != "" {
				t.Errorf("step %d member %d: arrays differ from dicts (-dicts +arrays):\n%s", k, i, diff)
			}
		}
	}
	c.finish()
}

// TestServeGroupOrder: a member whose session has requests queued is
// applied after them, and a request sent after the group after it.
func TestServeGroupOrder(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	ep := exampleEpisodes(t)[1]
	var ss []string
	for range 9 {
		ss = append(ss, openFor(t, c, ep, nil))
	}
	// A long run queued on ss[0], then the group (its step 100 must come
	// after the run's steps), then a step on ss[1] after the group's.
	var run bytes.Buffer
	run.WriteString("[")
	for k := range 100 {
		if k > 0 {
			run.WriteString(",")
		}
		fmt.Fprintf(&run, `{"step":%d}`, k)
	}
	run.WriteString("]")
	runID := c.request("session.run", map[string]any{"session": ss[0], "steps": json.RawMessage(run.Bytes())})
	steps := make([]json.RawMessage, len(ss))
	for i := range steps {
		steps[i] = json.RawMessage(`{"step":100}`)
	}
	groupID := c.request("group.step", map[string]any{"sessions": ss, "steps": steps})
	stepID := c.request("session.step", map[string]any{"session": ss[1], "step": json.RawMessage(`{"step":101}`)})
	for _, id := range []string{runID, groupID, stepID} {
		r := c.wait(id)
		if r.Error != nil {
			t.Fatalf("request %s: %s", id, r.Error.Message)
		}
		if id == groupID {
			var g groupResult
			if err := json.Unmarshal(r.Result, &g); err != nil {
				t.Fatal(err)
			}
			for i, e := range g.Errors {
				if e != nil || g.Step[i] != 100 {
					t.Errorf("member %d: step %d, error %v", i, g.Step[i], e)
				}
			}
		}
	}
	c.finish()
}

// TestServeGroupBadParams: a malformed group applies nothing.
func TestServeGroupBadParams(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	ep := exampleEpisodes(t)[1]
	a, b := openFor(t, c, ep, nil), openFor(t, c, ep, nil)
	for _, tc := range []struct {
		name   string
		params string
		want   string
	}{
		{"no sessions", `{"sessions":[],"steps":[]}`, "at least one"},
		{"twice", `{"sessions":["A","A"],"steps":[{"step":0},{"step":0}]}`, "given twice"},
		{"steps count", `{"sessions":["A","B"],"steps":[{"step":0}]}`, "one per session"},
		{"step not object", `{"sessions":["A","B"],"steps":[{"step":0},3]}`, "steps[1]"},
		{"nothing", `{"sessions":["A","B"]}`, "steps (one per session)"},
		{"numbers count", `{"sessions":["A","B"],"numbers":[0]}`, "numbers"},
		{"pos without names", `{"sessions":["A","B"],"numbers":[0,0],"pos":[[[0,0,0]],[[0,0,0]]]}`, "needs names"},
		{"names alone", `{"sessions":["A","B"],"numbers":[0,0],"names":["x"]}`, "names without"},
		{"pos rows", `{"sessions":["A","B"],"numbers":[0,0],"names":["x"],"pos":[[[0,0,0]]]}`, "rows"},
		{"pos per name", `{"sessions":["A","B"],"numbers":[0,0],"names":["x"],"pos":[[[0,0,0]],[]]}`, "pos[1]"},
		{"pos not array", `{"sessions":["A","B"],"numbers":[0,0],"names":["x"],"pos":{}}`, "pos"},
		{"unknown field", `{"sessions":["A","B"],"steps":[{"step":0},{"step":0}],"extra":1}`, "unknown field"},
	} {
		params := strings.NewReplacer(`"A"`, `"`+a+`"`, `"B"`, `"`+b+`"`).Replace(tc.params)
		c.send(`{"id":"bad","method":"group.step","params":` + params + `}`)
		r := c.wait(`"bad"`)
		if r.Error == nil || r.Error.Code != codeInvalidParams || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s: %s, want invalid_params with %q", tc.name, r.raw, tc.want)
		}
	}
	// Nothing was applied: step 0 is still the first.
	var g groupResult
	if err := json.Unmarshal(c.ok("group.step", map[string]any{"sessions": []string{a, b}, "steps": []json.RawMessage{ep.steps[0], ep.steps[0]}}), &g); err != nil {
		t.Fatal(err)
	}
	if g.Errors[0] != nil || g.Errors[1] != nil {
		t.Errorf("after the bad requests: %v", g.Errors)
	}
	c.finish()
}

// FuzzGroupLines: any params give lines that are each one JSON object,
// or an error; never a panic.
func FuzzGroupLines(f *testing.F) {
	f.Add([]byte(`{"sessions":["a","b"],"steps":[{"step":0},null]}`))
	f.Add([]byte(`{"sessions":["a"],"numbers":[3],"names":["x","y"],"pos":[[[0,0,0],[1,2,3]]],"aabb":[[[0,0,0,1,1,1],[1,1,1,2,2,2]]],"steps":[{"facts":[]}]}`))
	f.Add([]byte(`{"sessions":["a"],"steps":[{ }]}`))
	f.Add([]byte(`{"sessions":["a","b"],"steps_marshal":"WwIAAAB72gRzdGVw6QAAAADaBWZhY3RzWwEAAABbAwAAANoFb250b3DaAWHaAWIwTg=="}`))
	srv := newServer(testHost(io.Discard, ""), io.Discard, 1<<20)
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p groupStepParams
		if decodeParams(raw, &p) != nil {
			return
		}
		lines, e := groupLines(&p, srv.unmarshalSteps)
		if e != nil {
			return
		}
		for i, l := range lines {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(l, &m); err != nil {
				t.Fatalf("line %d %s: %v", i, l, err)
			}
		}
	})
}

// BenchmarkServeGroupDispatch measures the server's own work for one
// group.step over 16 sessions (the reader decodes, applies and answers;
// the response goes to /dev/null): per request, and per member in
// steps/s.
func BenchmarkServeGroupDispatch(b *testing.B) {
	for _, c := range []struct{ n, parallelMin int }{{1, 8}, {4, 8}, {16, 8}, {16, 1 << 30}, {64, 8}, {64, 1 << 30}} {
		n := c.n
		name := fmt.Sprintf("sessions=%d/parallel=%v", n, n >= c.parallelMin)
		b.Run(name, func(b *testing.B) {
			defer func(old int) { groupParallelMin = old }(groupParallelMin)
			groupParallelMin = c.parallelMin
			null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				b.Skip(err)
			}
			defer null.Close()
			var sink bytes.Buffer
			g := testHost(&sink, "")
			s := newServer(g, &sink, DefaultMaxLine)
			var ids []string
			for i := range n {
				s.dispatch([]byte(`{"id":0,"method":"session.open","params":{"activity":"` + exampleActivity + `","transitions":false}}`))
				ids = append(ids, fmt.Sprintf(`"s%d"`, i+1))
			}
			s.running.Wait()
			s.direct = null
			facts := []string{`"facts"`, `"false"`}
			sessions := "[" + strings.Join(ids, ",") + "]"
			b.ReportAllocs()
			k := 0
			var line []byte
			for b.Loop() {
				k++
				line = append(line[:0], `{"id":`...)
				line = strconv.AppendInt(line, int64(k), 10)
				line = fmt.Appendf(line, `,"method":"group.step","params":{"sessions":%s,"steps":[`, sessions)
				for i := range n {
					if i > 0 {
						line = append(line, ',')
					}
					line = fmt.Appendf(line, `{"step":%d,%s:[["ontop","mug.n.04_1","sink.n.01_1"]]}`, k, facts[k%2])
				}
				line = append(line, "]}}"...)
				s.dispatch(line)
			}
			s.running.Wait()
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
			close(s.lines)
			<-s.written
		})
	}
}

// TestServeGroupMatchesSchema checks group.step requests and responses
// (steps, marshalled steps, arrays, a failing member, records, a bad
// request) against bddl schema serve.
func TestServeGroupMatchesSchema(t *testing.T) {
	t.Parallel()
	s := compileSchema(t, "serve")
	groupSchema := compileSchemaRef(t, "serve", "#/$defs/results/group.step")
	c := startServe(t, DefaultMaxLine, "")
	ep := exampleEpisodes(t)[1]
	a, b := openFor(t, c, ep, nil), openFor(t, c, ep, nil)
	validate := func(sch interface{ Validate(any) error }, what string, line []byte) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s does not match the serve schema: %v\n%.300s", what, err, line)
		}
	}
	for i, params := range []map[string]any{
		{"sessions": []string{a, b}, "steps": []json.RawMessage{ep.steps[0], ep.steps[0]}},
		{"sessions": []string{a, b}, "steps_marshal": base64.StdEncoding.EncodeToString(pyMarshal(t, "["+string(ep.steps[1])+","+string(ep.steps[1])+"]")), "records": true},
		{"sessions": []string{a, b}, "numbers": []int{2, 2}, "names": []string{"shoe.n.01_1"}, "aabb": [][][]float64{{{0, 0, 0, 1, 1, 1}}, {{1, 1, 1, 0, 0, 0}}}, "explain": true, "records": true},
		{"sessions": []string{a, "nope"}, "numbers": []int{3, 3}},
	} {
		req, _ := json.Marshal(map[string]any{"id": i, "method": "group.step", "params": params})
		validate(s, fmt.Sprintf("request %d", i), req)
		c.send(string(req))
		r := c.recv()
		validate(s, fmt.Sprintf("response %d", i), r.raw)
		if r.Error != nil {
			t.Fatalf("request %d: %s", i, r.Error.Message)
		}
		validate(groupSchema, fmt.Sprintf("result %d", i), r.Result)
	}
	c.send(`{"id":"bad","method":"group.step","params":{"sessions":[]}}`)
	validate(s, "error response", c.recv().raw)
	c.finish()
}

// compileSchemaRef compiles the part of a schema at a JSON pointer.
func compileSchemaRef(t *testing.T, name, pointer string) *jsonschema.Schema {
	t.Helper()
	data, err := schemaFor(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".json" + pointer)
	if err != nil {
		t.Fatalf("%s%s: %v", name, pointer, err)
	}
	return s
}
