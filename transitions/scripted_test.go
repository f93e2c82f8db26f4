package transitions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// scriptedMeta is the header meta of a hand-written episode of
// testdata/scripted: the definition it is checked against, the knowledge
// base (the BEHAVIOR-1K one unless a YAML file of the directory is named),
// the reference's expected outcome in words and where in the reference
// source it comes from, and what the test asserts: every rule firing, in
// order; atoms after the rules of a step; and the verdict.
type scriptedMeta struct {
	Definition string          `json:"definition"`
	KB         string          `json:"kb"`
	Reference  string          `json:"reference"`
	Expect     string          `json:"expect"`
	Firings    []string        `json:"firings"`
	Atoms      []scriptedAtom  `json:"atoms"`
	Success    *bool           `json:"success"`
	GoalAtEnd  string          `json:"goal_at_end"`
	Options    scriptedOptions `json:"options"`
	// Consumed lists, by firing line, what the firing consumed.
	Consumed map[string][]string `json:"consumed"`
	// AnonymousDropped is Engine.AnonymousDropped at the end.
	AnonymousDropped int `json:"anonymous_dropped"`
}

type scriptedAtom struct {
	Step  int64    `json:"step"`
	Atom  []string `json:"atom"`
	Value string   `json:"value"`
}

type scriptedOptions struct {
	SameStep    bool            `json:"same_step"`
	GPUDynamics bool            `json:"gpu_dynamics"`
	FixedBase   map[string]bool `json:"fixed_base"`
	MaxAnon     int             `json:"max_anonymous"`
}

// firingLine is a firing as the scripted episodes list it:
// "STEP FAMILY/RULE CONTAINER -> PRODUCED...".
func firingLine(p *predicates.Program, step int64, f Firing) string {
	r := FiringRecord(p, step, f)
	return fmt.Sprintf("%d %s/%s %s -> %s", step, f.Family, f.Rule, r.Container, strings.Join(r.Produced, " "))
}

// TestScripted runs the hand-written episodes of testdata/scripted, each
// recorded as the simulator would with rules off, and checks the rules'
// firings, states and verdict against what the reference's rules give
// (each episode names the source it follows). They exercise the rules'
// conditions one at a time; none was built by Sample.
func TestScripted(t *testing.T) {
	dir := filepath.Join("testdata", "scripted")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripted episodes in %s: %v", dir, err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".jsonl"), func(t *testing.T) { runScripted(t, dir, path) })
	}
}

func runScripted(t *testing.T, dir, path string) {
	rd, err := episode.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var m scriptedMeta
	if err := json.Unmarshal(rd.Header().Meta, &m); err != nil {
		t.Fatalf("%s: meta: %v", path, err)
	}
	if m.Definition == "" || m.Reference == "" || m.Expect == "" {
		t.Fatalf("%s: meta needs definition, reference and expect", path)
	}
	var base *kb.Base
	if m.KB != "" {
		src, err := os.ReadFile(filepath.Join(dir, m.KB))
		if err != nil {
			t.Fatal(err)
		}
		if base, err = kb.LoadYAML(m.KB, src); err != nil {
			t.Fatal(err)
		}
	} else {
		base = behavior1k(t)
	}
	src, err := os.ReadFile(filepath.Join(dir, m.Definition))
	if err != nil {
		t.Fatal(err)
	}
	prob, diags := bddl.ParseProblem(m.Definition, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, base, predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	engOpts := Options{SameStep: m.Options.SameStep, GPUDynamics: m.Options.GPUDynamics,
		FixedBase: m.Options.FixedBase, MaxAnonymous: m.Options.MaxAnon}
	eng, err := CompileWith(prog, base, engOpts)
	if err != nil {
		t.Fatal(err)
	}
	eng.SetDT(rd.Header().DT)
	var got []string
	checked, consumedSeen := 0, 0
	var prev *episode.StepInfo
	opts := episode.CheckOptions{AfterStep: func(s *predicates.State, info episode.StepInfo) error {
		// As EpisodeChecker.Check: skipped simulator steps count.
		if prev != nil {
			eng.SetElapsed(ElapsedSteps(prev.Step, info.Step, prev.T, info.T, prev.HasT && info.HasT, rd.Header().DT))
		} else {
			prev = new(episode.StepInfo)
		}
		*prev = info
		for _, f := range eng.Step(s).Firings {
			line := firingLine(prog, info.Step, f)
			got = append(got, line)
			if want, ok := m.Consumed[line]; ok {
				consumedSeen++
				if r := FiringRecord(prog, info.Step, f); !slices.Equal(r.Consumed, want) {
					t.Errorf("%s consumed %q, want %q (%s)", line, r.Consumed, want, m.Expect)
				}
			}
		}
		for _, a := range m.Atoms {
			if a.Step != info.Step {
				continue
			}
			checked++
			pred, ok := predicates.PredByName(a.Atom[0])
			if !ok {
				t.Fatalf("unknown predicate in %v", a.Atom)
			}
			ids := [2]ObjectID{NoObject, NoObject}
			for k, name := range a.Atom[1:] {
				if ids[k], ok = prog.ObjectID(name); !ok {
					t.Fatalf("unknown object in %v", a.Atom)
				}
			}
			if v := prog.Atom(s, pred, ids[0], ids[1]).String(); v != a.Value {
				t.Errorf("step %d: %v is %s, want %s (%s)", info.Step, a.Atom, v, a.Value, m.Expect)
			}
		}
		return nil
	}}
	res := episode.Check(context.Background(), prog, rd, opts)
	if res.Error != "" {
		t.Fatalf("check: %s", res.Error)
	}
	if consumedSeen != len(m.Consumed) {
		t.Errorf("%d of %d consumed checks ran (a firing is missing)", consumedSeen, len(m.Consumed))
	}
	if n := eng.AnonymousDropped(); n != m.AnonymousDropped {
		t.Errorf("%d outputs dropped for the anonymous bound, want %d (%s)", n, m.AnonymousDropped, m.Expect)
	}
	if checked != len(m.Atoms) {
		t.Errorf("%d of %d atom checks ran (a step is missing)", checked, len(m.Atoms))
	}
	if !slices.Equal(got, m.Firings) {
		t.Errorf("firings\n  got  %q\n  want %q\nreference: %s: %s", got, m.Firings, m.Reference, m.Expect)
	}
	if m.GoalAtEnd != "" && res.GoalAtEnd.String() != m.GoalAtEnd {
		t.Errorf("goal at the end %s, want %s (%s): %s", res.GoalAtEnd, m.GoalAtEnd, m.Expect, res.Reason)
	}
	// The checker `check --transitions` runs: the same firings, and a
	// warning when outputs were dropped for the anonymous bound.
	rd2, err := episode.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd2.Close()
	res2 := NewEpisodeCheckerWith(base, engOpts).Check(context.Background(), prog, rd2, episode.CheckOptions{})
	if len(res2.Firings) != len(got) {
		t.Errorf("EpisodeChecker: %d firings, Step: %d", len(res2.Firings), len(got))
	}
	warned := slices.ContainsFunc(res2.Warnings, func(w string) bool { return strings.Contains(w, "max-anonymous") })
	if warned != (m.AnonymousDropped > 0) {
		t.Errorf("EpisodeChecker warnings %q: want a max-anonymous warning %v", res2.Warnings, m.AnonymousDropped > 0)
	}
	if m.Success != nil && res.Success != *m.Success {
		t.Errorf("success %v, want %v (%s): %s", res.Success, *m.Success, m.Expect, res.Reason)
	}
}
