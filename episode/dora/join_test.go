package dora

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora/doratest"
	"github.com/openbddl/bddl/episode/recording"
)

func joinEpisode(t *testing.T, dir string, o recording.Options) ([]*episode.Step, error) {
	t.Helper()
	e, err := OpenEpisode(dir)
	if err != nil {
		return nil, err
	}
	s, err := e.Join(o)
	if err != nil {
		return nil, err
	}
	_, steps, err := episode.ReadAll(s, dir)
	if err != nil {
		t.Fatal(err)
	}
	return steps, s.Err()
}

func TestJoin(t *testing.T) {
	t.Parallel()
	m, err := recording.ParseMap("m.yaml", []byte("agent:\n  gripper: observation.state:left_gripper\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		spec  doratest.Spec
		map_  *recording.Map
		track string
		steps int
		want  string
	}{
		{name: "base only", spec: doratest.Spec{Start: 100, Duration: 2}, steps: 121},
		{name: "base and track", spec: doratest.Spec{Start: 100, Duration: 2}, track: "{\"t\": 100}\n{\"t\": 100.25}\n{\"t\": 100.5}\n", steps: 3},
		{name: "gripper from the map", spec: doratest.Spec{Start: 100, Duration: 1, Gripper: func(t float64) float64 { return t - 100 }}, map_: m, steps: 61},
		{name: "gap", spec: doratest.Spec{Start: 100, Duration: 3, GapFrom: 101, GapTo: 102}, want: "observation.base_state: sample 61: a gap of"},
		{name: "backwards", spec: doratest.Spec{Start: 100, Duration: 1, BackAt: 30}, want: "observation.base_state: sample 30: timestamp 99.5 is before"},
		{name: "missing base", spec: doratest.Spec{Start: 100, Duration: 1, Omit: []string{"observation.base_state"}}, want: "nothing to join"},
		{name: "missing gripper stream", spec: doratest.Spec{Start: 100, Duration: 1, Omit: []string{"observation.state"}}, map_: m, want: "no observation.state stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeEpisode(t, tc.spec)
			if tc.track != "" {
				if err := os.WriteFile(dir+recording.TrackSuffix, []byte(tc.track), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			steps, err := joinEpisode(t, dir, recording.Options{Activity: "a", Map: tc.map_})
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != tc.steps {
				t.Fatalf("%d steps, want %d", len(steps), tc.steps)
			}
		})
	}
}

func TestTruncatedStream(t *testing.T) {
	t.Parallel()
	dir := writeEpisode(t, doratest.Spec{Start: 100, Duration: 1})
	p := filepath.Join(dir, "observation.base_state.parquet")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := joinEpisode(t, dir, recording.Options{Activity: "a"}); err == nil || !strings.Contains(err.Error(), "cannot read it as Parquet") {
		t.Fatalf("truncated file: %v", err)
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, ep := range []string{"s1/episode_000000000", "s1/episode_000000001", "s2/episode_000000000"} {
		if err := doratest.Write(filepath.Join(root, ep), doratest.Spec{Start: 1, Duration: 0.1}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find([]string{filepath.Join(root, "s1"), filepath.Join(root, "s2/episode_000000000/metadata.json"), filepath.Join(root, "s1/episode_000000001")})
	if err != nil || len(got) != 3 {
		t.Fatalf("Find = %v, %v", got, err)
	}
	if _, err := Find([]string{filepath.Join(root, "s1/episode_000000000/action.parquet")}); err == nil {
		t.Fatal("a stream file was taken for an episode")
	}
}
