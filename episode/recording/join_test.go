package recording

import (
	"math"
	"strings"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

func constBase(x, y, yaw float64) func(int) []float64 {
	return func(int) []float64 { return []float64{x, y, yaw} }
}

func TestJoinRates(t *testing.T) {
	t.Parallel()
	agent := DefaultAgentConfig()
	// base at 60 Hz for 2 s, gripper at 10 Hz for 2 s, both from t=1000
	base := regular("base", 1000, 60, 121, func(i int) []float64 { return []float64{float64(i), 0, 0} })
	grip := regular("grip", 1000, 10, 21, func(i int) []float64 { return []float64{float64(i % 2)} })
	for _, tc := range []struct {
		name  string
		rate  float64
		steps int
		dt    float64
	}{
		{"slowest", 0, 21, 0.1},
		{"given", 4, 9, 0.25},
		{"faster than every stream", 60, 121, 1.0 / 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, steps, err := joinAll(t, JoinOptions{Name: "e", Activity: "a", Rate: tc.rate, Agent: &agent, Base: base, Gripper: grip})
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != tc.steps || math.Abs(h.DT-tc.dt) > 1e-12 {
				t.Fatalf("%d steps, dt %v; want %d, %v", len(steps), h.DT, tc.steps, tc.dt)
			}
			// each step takes the latest base sample at or before it
			for k, st := range steps {
				ts := float64(k) / (1 / h.DT)
				want := math.Floor(ts*60 + 1e-9)
				if o := st.Objects[DefaultAgent]; o != nil && o.Has(predicates.FieldPosition) && o.Pos[0] != want {
					t.Fatalf("step %d (t %v): base x %v, want %v", k, st.T, o.Pos[0], want)
				}
			}
		})
	}
}

func TestJoinSpan(t *testing.T) {
	t.Parallel()
	agent := DefaultAgentConfig()
	// base from 10.5 to 12 s, track from 10.2 to 13: the join covers 10.5–12,
	// its first step taking the track samples at 10.2 and 10.5
	base := regular("base", 10.5, 10, 16, constBase(0, 0, 0))
	track := `{"t": 10.2, "objects": {"apple.n.01_1": {"pos": [1, 1, 1]}}}
{"t": 10.5, "objects": {"apple.n.01_1": {"pos": [2, 2, 2]}}}
{"t": 10.9, "objects": {"apple.n.01_1": {"pos": [3, 3, 3]}}}
{"t": 11.3}
{"t": 11.7}
{"t": 12.1}
{"t": 13}
`
	_, steps, err := joinAll(t, JoinOptions{Name: "e", Activity: "a", Rate: 2, Agent: &agent, Base: base, OpenTrack: trackOf(track), MaxGap: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 4 { // 10.5, 11, 11.5, 12
		t.Fatalf("%d steps, want 4", len(steps))
	}
	if p := steps[0].Objects["apple.n.01_1"].Pos; p != [3]float64{2, 2, 2} {
		t.Errorf("step 0 apple at %v, want the sample at 10.5 (2, 2, 2)", p)
	}
	if p := steps[1].Objects["apple.n.01_1"].Pos; p != [3]float64{3, 3, 3} {
		t.Errorf("step 1 apple at %v, want the sample at 10.9", p)
	}
	if steps[3].T != 1.5 {
		t.Errorf("last step t = %v, want 1.5", steps[3].T)
	}
}

func TestJoinErrors(t *testing.T) {
	t.Parallel()
	agent := DefaultAgentConfig()
	gappy := regular("base", 0, 10, 30, constBase(0, 0, 0))
	for i := 15; i < 30; i++ {
		gappy.t[i] += 2 // no sample between 1.4 and 3.5
	}
	backwards := regular("base", 0, 10, 30, constBase(0, 0, 0))
	backwards.t[7] = 0.1
	late := regular("grip", 100, 10, 30, func(int) []float64 { return []float64{0} })
	for _, tc := range []struct {
		name string
		o    JoinOptions
		want string // in Join's error, else the stream's
	}{
		{"gap", JoinOptions{Base: gappy}, "base: sample 15: a gap of 2.100 s between 1.4 and 3.5 is longer than the bound of 0.5 s"},
		{"gap within bound", JoinOptions{Base: gappy, MaxGap: 3}, ""},
		{"out of order", JoinOptions{Base: backwards}, "base: sample 7: timestamp 0.1 is before the previous sample's 0.6"},
		{"no overlap", JoinOptions{Base: regular("base", 0, 10, 30, constBase(0, 0, 0)), Gripper: late}, "do not overlap"},
		{"nothing", JoinOptions{}, "nothing to join"},
		{"track gap", JoinOptions{Base: regular("base", 0, 10, 30, constBase(0, 0, 0)), OpenTrack: trackOf("{\"t\": 0}\n{\"t\": 0.2}\n{\"t\": 2.5}\n")}, "a gap of 2.300 s between 0.2 and 2.5"},
		{"track backwards", JoinOptions{Base: regular("base", 0, 10, 30, constBase(0, 0, 0)), OpenTrack: trackOf("{\"t\": 1}\n{\"t\": 0.5}\n")}, ":2: t: 0.5 is before"},
		{"not an instance", JoinOptions{Base: regular("base", 0, 10, 30, constBase(0, 0, 0)), Instances: []string{"agent.n.01_1"},
			OpenTrack: trackOf("{\"t\": 0, \"objects\": {\"pear\": {\"pos\": [0, 0, 0]}}}\n{\"t\": 2.9}\n"), MaxGap: 5}, "t.objects.jsonl:1: objects.pear: pear is not an instance of a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.o
			o.Name, o.Activity, o.Agent = "e", "a", &agent
			_, _, err := joinAll(t, o)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
