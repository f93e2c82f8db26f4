package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/serve"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// episodeLines reads an episode file (gzip or not) as its non-blank lines.
func episodeLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data := readFile(t, path)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, bytes.TrimRight(l, "\r"))
		}
	}
	return out
}

// comparable drops the episode's name (a temporary file for check) from
// a record.
func comparable(t *testing.T, rec []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec, &m); err != nil {
		t.Fatalf("record %s: %v", rec, err)
	}
	delete(m, "episode")
	return m
}

// sessionCase is an episode stepped through a session and checked by
// bddl check, ended at each step compared.
type sessionCase struct {
	name     string
	episode  string         // path
	activity string         // --activity / params.activity; "" the header's
	flags    []string       // of bddl check
	params   map[string]any // the same options for session.open
	kb       string
	every    bool // compare at every step, not a sample of them
}

// compareSession steps through the episode in a session and compares
// every sampled step's result with bddl check --format json on the
// episode cut after that step.
func compareSession(t *testing.T, c *serveClient, tc sessionCase) {
	t.Helper()
	lines := episodeLines(t, tc.episode)
	header, steps := lines[0], lines[1:]
	if len(steps) == 0 {
		t.Fatalf("%s: no steps", tc.episode)
	}
	// A cut episode must not declare the full length.
	var h map[string]json.RawMessage
	if err := json.Unmarshal(header, &h); err != nil {
		t.Fatal(err)
	}
	delete(h, "steps")
	header, _ = json.Marshal(h)
	params := map[string]any{"header": json.RawMessage(header), "name": "cut.jsonl"}
	for k, v := range tc.params {
		params[k] = v
	}
	if tc.activity != "" {
		params["activity"] = tc.activity
	}
	var opened struct{ Session string }
	if err := json.Unmarshal(c.ok("session.open", params), &opened); err != nil {
		t.Fatal(err)
	}
	compare := map[int]bool{}
	n := len(steps)
	for _, k := range []int{1, 2, 3, n / 4, n / 2, 3 * n / 4, n - 1, n} {
		if k >= 1 {
			compare[k] = true
		}
	}
	dir := t.TempDir()
	for k := 1; k <= n; k++ {
		r := c.call("session.step", map[string]any{"session": opened.Session, "step": json.RawMessage(steps[k-1]), "explain": true})
		if !tc.every && !compare[k] {
			continue
		}
		cut := filepath.Join(dir, "cut.jsonl")
		var buf bytes.Buffer
		buf.Write(header)
		buf.WriteByte('\n')
		for _, l := range steps[:k] {
			buf.Write(l)
			buf.WriteByte('\n')
		}
		if err := os.WriteFile(cut, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{}
		if tc.kb != "" {
			args = append(args, "--kb", tc.kb)
		}
		args = append(args, "check", "--format", "json", "--no-progress", "--episode", cut)
		if tc.activity != "" {
			args = append(args, "--activity", tc.activity)
		}
		args = append(args, tc.flags...)
		res := runBDDL(t, args...)
		if res.code == exitMisuse {
			t.Fatalf("bddl %s: exit 2: %s", strings.Join(args, " "), res.stderr)
		}
		if r.Error != nil {
			// A step the session refuses is one check stops at: its
			// record is an error naming the same line.
			want := comparable(t, []byte(res.stdout))
			if want["error"] == nil || !strings.Contains(want["error"].(string), r.Error.Message) {
				t.Errorf("%s step %d: session error %q; check says %v", tc.name, k, r.Error.Message, want["error"])
			}
			return
		}
		got, want := comparable(t, r.Result), comparable(t, []byte(res.stdout))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: after step %d of %d, session.step differs from bddl check (-check +session):\n%s", tc.name, k, n, diff)
		}
	}
	c.ok("session.close", map[string]any{"session": opened.Session})
}

// TestServeSessionMatchesCheck steps through every example episode in a
// session, with check's options, and compares each step's result with
// the record bddl check --format json gives for the episode ended there.
func TestServeSessionMatchesCheck(t *testing.T) {
	t.Parallel()
	eps, err := filepath.Glob("../../activities/examples/*/episodes/*.jsonl*")
	if err != nil || len(eps) == 0 {
		t.Fatalf("no example episodes: %v", err)
	}
	var cases []sessionCase
	for _, ep := range eps {
		name := filepath.Base(filepath.Dir(filepath.Dir(ep))) + "/" + filepath.Base(ep)
		cases = append(cases,
			sessionCase{name: name, episode: ep, every: true},
			sessionCase{name: name + " strict hold", episode: ep, flags: []string{"--negation", "strict", "--hold", "2", "--at-end"},
				params: map[string]any{"negation": "strict", "hold": 2, "at_end": true}},
			sessionCase{name: name + " transitions per-step", episode: ep, flags: []string{"--transitions", "--per-step"},
				params: map[string]any{"transitions": true, "per_step": true}},
			sessionCase{name: name + " lenient geometry", episode: ep, flags: []string{"--lenient", "--touch-tolerance", "0.05", "--goal-formulas", "all"},
				params: map[string]any{"lenient": true, "geometry": map[string]any{"touch_tolerance": 0.05}, "goal_formulas": "all"}},
		)
	}
	// A path as the activity.
	cases = append(cases, sessionCase{name: "activity by path", episode: "../../activities/examples/cleaning_shoes/episodes/success.jsonl",
		activity: "../../activities/examples/cleaning_shoes/problem0.bddl", every: true})
	c := startServe(t, serve.DefaultMaxLine, "")
	for _, tc := range cases {
		compareSession(t, c, tc)
	}
	c.finish()
}

// TestServeSessionMatchesCheckCorpus does the same on BEHAVIOR-1K
// activities (a deterministic sample of the corpus), with synthetic
// recordings of both kinds: symbolic, and poses decided by geometry.
func TestServeSessionMatchesCheckCorpus(t *testing.T) {
	t.Parallel()
	kbDir := corpus.KBDir(t)
	files := corpus.ActivityFiles(t)
	base, err := kb.FromEnv(kbDir)
	if err != nil {
		t.Fatal(err)
	}
	res := batch.NewResolver(base, predicates.Options{})
	res.SetParse(bddl.Options{Mode: bddl.Reference}, nil)
	c := startServe(t, serve.DefaultMaxLine, kbDir)
	dir := t.TempDir()
	stride := max(len(files)/12, 1)
	n := 0
	for i := 0; i < len(files); i += stride {
		path := files[i]
		act, err := res.ActivityText(path, readFile(t, path))
		if err != nil {
			continue // definitions that do not load are validate's business
		}
		prog, err := res.Program(act, nil)
		if err != nil {
			continue
		}
		for _, kind := range []episode.SynthKind{episode.SynthSymbolic, episode.SynthPoses} {
			ep := filepath.Join(dir, "ep.jsonl")
			var buf bytes.Buffer
			if err := episode.Synthesize(&buf, prog, act.Name, kind, 12, uint64(i)); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if err := os.WriteFile(ep, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(path)
			compareSession(t, c, sessionCase{name: corpus.Rel(t, path), episode: ep, activity: abs, kb: kbDir,
				flags: []string{"--transitions"}, params: map[string]any{"transitions": true}})
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d corpus episodes compared", n)
	}
	c.finish()
}
