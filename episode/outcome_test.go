package episode

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestOutcomeMatchesResult: after every step of synthetic recordings of
// every example activity, under check's option sets, Outcome gives what
// Result(false) gives; a stopped recording has none.
func TestOutcomeMatchesResult(t *testing.T) {
	t.Parallel()
	base := kb.Default()
	opts := []CheckOptions{{}, {Hold: 2, AtEnd: true}, {Lenient: true}}
	successes := 0
	for _, a := range activities.Examples().Activities {
		prog, err := predicates.Compile(a.Problem, base, predicates.Options{})
		if err != nil {
			continue
		}
		for _, kind := range []SynthKind{SynthSymbolic, SynthPoses} {
			var buf bytes.Buffer
			if err := Synthesize(&buf, prog, a.Name, kind, 40, 5); err != nil {
				t.Fatal(err)
			}
			header, rest, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
			for _, o := range opts {
				name := fmt.Sprintf("%s/%v/%+v", a.Name, kind, o)
				r, err := NewReader(bytes.NewReader(append(append([]byte(nil), header...), '\n')), "o.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				st, err := NewStepper(prog, r, o)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := st.Outcome(); ok {
					t.Errorf("%s: an outcome before any step", name)
				}
				for k, line := range bytes.Split(bytes.TrimSpace(rest), []byte("\n")) {
					if _, err := st.Feed(line); err != nil {
						t.Fatalf("%s step %d: %v", name, k, err)
					}
					got, ok := st.Outcome()
					res := st.Result(false)
					want := Outcome{Success: res.Success, Goal: res.GoalAtEnd, Score: res.Score, ChallengeScore: res.ChallengeScore, Step: res.EpisodeStep}
					if !ok || got != want {
						t.Fatalf("%s step %d: Outcome %+v (ok %v), Result %+v", name, k, got, ok, want)
					}
					if got.Success {
						successes++
					}
				}
				// A bad step: skipped and counted in lenient mode (the
				// outcome goes on, no longer a success), else it stops
				// the recording (no outcome; Result reports the error);
				// a step going back stops both.
				for _, bad := range []string{`{"step":1000,"t":"x"}`, `{"step":0}`} {
					if _, err := st.Feed([]byte(bad)); err == nil {
						t.Fatalf("%s: %s accepted", name, bad)
					}
					got, ok := st.Outcome()
					res := st.Result(false)
					if ok != (res.Error == "") {
						t.Fatalf("%s after %s: Outcome ok %v, Result error %q", name, bad, ok, res.Error)
					}
					want := Outcome{Success: res.Success, Goal: res.GoalAtEnd, Score: res.Score, ChallengeScore: res.ChallengeScore, Step: res.EpisodeStep}
					if ok && got != want {
						t.Fatalf("%s after %s: Outcome %+v, Result %+v", name, bad, got, want)
					}
				}
			}
		}
	}
	if successes == 0 {
		t.Errorf("no step succeeded: the success column is not exercised")
	}
}
