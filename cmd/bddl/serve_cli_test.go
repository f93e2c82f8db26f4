package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/serve"
)

// The server's answers through the bddl command's host agree with the
// commands: the package serve tests the protocol itself.

// TestServeSessionLifecycle: init, run, bad steps, close.
func TestServeSessionLifecycle(t *testing.T) {
	t.Parallel()
	ep := "../../activities/examples/cleaning_shoes/episodes/success.jsonl"
	lines := episodeLines(t, ep)
	var h map[string]any
	if err := json.Unmarshal(lines[0], &h); err != nil {
		t.Fatal(err)
	}
	delete(h, "steps") // steps are sent after the last
	lines[0], _ = json.Marshal(h)
	c := startServe(t, serve.DefaultMaxLine, "")
	sid := openSession(t, c, map[string]any{"header": json.RawMessage(lines[0])})
	var ini struct {
		InitOK       bool              `json:"init_ok"`
		Init         string            `json:"init"`
		InitFailures []json.RawMessage `json:"init_failures"`
	}
	if err := json.Unmarshal(c.ok("session.init", map[string]any{"session": sid, "step": json.RawMessage(lines[1])}), &ini); err != nil {
		t.Fatal(err)
	}
	var steps []json.RawMessage
	for _, l := range lines[2:] {
		steps = append(steps, l)
	}
	var run struct {
		Result map[string]any `json:"result"`
		Goals  []string       `json:"goals"`
		Steps  int            `json:"steps"`
	}
	if err := json.Unmarshal(c.ok("session.run", map[string]any{"session": sid, "steps": steps, "goals": true, "explain": true}), &run); err != nil {
		t.Fatal(err)
	}
	res := runBDDL(t, "check", "--format", "json", "--episode", ep)
	want := comparable(t, []byte(res.stdout))
	delete(run.Result, "episode")
	if diff := cmp.Diff(want, run.Result); diff != "" {
		t.Errorf("session.init + session.run differ from check:\n%s", diff)
	}
	if run.Steps != len(steps) || len(run.Goals) != len(steps) || run.Goals[len(steps)-1] != want["goal_at_end"] {
		t.Errorf("run: %d steps, goals %v", run.Steps, run.Goals)
	}
	if ini.InitOK != want["init_ok"].(bool) || ini.Init != want["init"] {
		t.Errorf("init = %v %s, check says %v %v", ini.InitOK, ini.Init, want["init_ok"], want["init"])
	}
	// A step that does not increase is a bad step with its position; the
	// session is then stopped, as check stops the episode.
	r := c.call("session.step", map[string]any{"session": sid, "step": map[string]any{"step": 0}})
	if r.Error == nil || r.Error.Code != codeBadStep || r.Error.Field != "step" || r.Error.Step == nil || r.Error.Line == 0 {
		t.Errorf("non-increasing step: %+v", r.Error)
	}
	// run reports the index of the failing step.
	sid2 := openSession(t, c, map[string]any{"header": json.RawMessage(lines[0]), "lenient": true})
	bad := []json.RawMessage{json.RawMessage(`{"step": 0}`), json.RawMessage(`{"step": 1, "objects": {"no_such.n.01_1": {}}}`)}
	r = c.call("session.run", map[string]any{"session": sid2, "steps": bad})
	if r.Error == nil || r.Error.Index == nil || *r.Error.Index != 1 {
		t.Errorf("run with a bad step: %+v", r.Error)
	}
	// Lenient: the session goes on and counts the skipped step.
	var rec map[string]any
	if err := json.Unmarshal(c.ok("session.step", map[string]any{"session": sid2, "step": json.RawMessage(`{"step": 2}`)}), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["skipped_steps"] != 1.0 || rec["success"] != false {
		t.Errorf("lenient session after a bad step: %v", rec)
	}
	c.ok("session.close", map[string]any{"session": sid})
	if r := c.call("session.close", map[string]any{"session": sid}); r.Error == nil || r.Error.Code != codeUnknownSession {
		t.Errorf("second close: %+v", r.Error)
	}
	if r := c.call("session.step", map[string]any{"session": sid, "step": map[string]any{"step": 9}}); r.Error == nil || r.Error.Code != codeUnknownSession {
		t.Errorf("step after close: %+v", r.Error)
	}
	c.finish()
}

// TestServeMethodsMatchCLI compares validate, explain, kb.show, check
// and sample with their commands' --format json.
func TestServeMethodsMatchCLI(t *testing.T) {
	t.Parallel()
	c := startServe(t, serve.DefaultMaxLine, "")
	def := "../../activities/examples/" + exampleActivity + "/problem0.bddl"
	ep := "../../activities/examples/" + exampleActivity + "/episodes/poses.jsonl"
	jsonLinesOf := func(s string) []any {
		var out []any
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			if l == "" {
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			out = append(out, v)
		}
		return out
	}
	asAny := func(b []byte) any {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	// validate: a definition with findings.
	bad := bytes.Replace(readFile(t, def), []byte("(ontop hardback.n.01_1 floor.n.01_1)"), []byte("(ontop hardback.n.01_1 flor.n.01_1)"), 1)
	badPath := filepath.Join(t.TempDir(), "problem0.bddl")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Findings []any `json:"findings"`
		Errors   int   `json:"errors"`
	}
	if err := json.Unmarshal(c.ok("validate", map[string]any{"path": badPath}), &v); err != nil {
		t.Fatal(err)
	}
	cli := runBDDL(t, "validate", "--format", "json", badPath)
	// The CLI's lines carry "record" to tell findings from scene records
	// in one stream; serve's findings sit in their own array.
	cliLines := jsonLinesOf(cli.stdout)
	for _, l := range cliLines {
		if m, ok := l.(map[string]any); ok {
			if m["record"] != "finding" {
				t.Errorf("validate --format json line without record finding: %v", m)
			}
			delete(m, "record")
		}
	}
	if diff := cmp.Diff(cliLines, v.Findings); diff != "" || v.Errors == 0 {
		t.Errorf("validate differs from bddl validate --format json (%d errors):\n%s", v.Errors, diff)
	}
	// The same text, given as text with the same name.
	var v2 struct{ Findings []any }
	_ = json.Unmarshal(c.ok("validate", map[string]any{"text": string(bad), "name": badPath}), &v2)
	if diff := cmp.Diff(v.Findings, v2.Findings); diff != "" {
		t.Errorf("validate by text differs from by path:\n%s", diff)
	}

	cli = runBDDL(t, "explain", "--format", "json", def)
	if diff := cmp.Diff(jsonLinesOf(cli.stdout)[0], asAny(c.ok("explain", map[string]any{"path": def}))); diff != "" {
		t.Errorf("explain differs:\n%s", diff)
	}

	cli = runBDDL(t, "kb", "show", "--format", "json", "apple.n.01", "sink.n.01")
	var ks struct{ Synsets []any }
	_ = json.Unmarshal(c.ok("kb.show", map[string]any{"synsets": []string{"apple.n.01", "sink.n.01"}}), &ks)
	if diff := cmp.Diff(jsonLinesOf(cli.stdout), ks.Synsets); diff != "" {
		t.Errorf("kb.show differs:\n%s", diff)
	}

	// check: by path, and inline.
	cli = runBDDL(t, "check", "--format", "json", "--transitions", "--episode", ep)
	var ck struct{ Records []any }
	_ = json.Unmarshal(c.ok("check", map[string]any{"episode": ep, "transitions": true}), &ck)
	if diff := cmp.Diff(jsonLinesOf(cli.stdout), ck.Records); diff != "" {
		t.Errorf("check differs:\n%s", diff)
	}
	var lines []json.RawMessage
	for _, l := range episodeLines(t, ep) {
		lines = append(lines, l)
	}
	_ = json.Unmarshal(c.ok("check", map[string]any{"lines": lines, "name": ep, "transitions": true}), &ck)
	if diff := cmp.Diff(jsonLinesOf(cli.stdout), ck.Records); diff != "" {
		t.Errorf("check of inline lines differs:\n%s", diff)
	}

	// sample: in memory, the lines of the file bddl sample writes.
	dir := t.TempDir()
	cli = runBDDL(t, "sample", exampleActivity, "--seed", "7", "-n", "2", "-o", dir, "--format", "json")
	var sm struct {
		Configurations []struct {
			File    string            `json:"file"`
			Status  string            `json:"status"`
			Episode []json.RawMessage `json:"episode"`
		}
	}
	_ = json.Unmarshal(c.ok("sample", map[string]any{"activity": exampleActivity, "seed": 7, "n": 2}), &sm)
	recs := jsonLinesOf(cli.stdout)
	if len(sm.Configurations) != 2 || len(recs) != 2 {
		t.Fatalf("sample: %d configurations, bddl sample %d", len(sm.Configurations), len(recs))
	}
	for i, conf := range sm.Configurations {
		file := recs[i].(map[string]any)["file"].(string)
		var got bytes.Buffer
		for _, l := range conf.Episode {
			got.Write(l)
			got.WriteByte('\n')
		}
		if want := readFile(t, file); !bytes.Equal(want, got.Bytes()) || conf.Status != "ok" {
			t.Errorf("sample %d differs from %s:\n%s", i, file, cmp.Diff(string(want), got.String()))
		}
	}
	// With an output directory, the files are written.
	out := t.TempDir()
	_ = json.Unmarshal(c.ok("sample", map[string]any{"activity": exampleActivity, "seed": 7, "n": 1, "output": out}), &sm)
	if f := sm.Configurations[0].File; f == "" || !bytes.Equal(readFile(t, f), readFile(t, recs[0].(map[string]any)["file"].(string))) {
		t.Errorf("sample to %s wrote %q", out, f)
	}
	c.finish()
}

// TestServeSpinFlag: --spin out of range is misuse.
func TestServeSpinFlag(t *testing.T) {
	for _, v := range []string{"-1us", "2s"} {
		args := []string{"serve", "--spin", v}
		runBDDL(t, args...).wantCode(t, args, exitMisuse)
	}
}
