package dora

import (
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/dora/doratest"
)

func writeEpisode(t *testing.T, s doratest.Spec) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "session", "episode_000000000")
	if err := doratest.Write(dir, s); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readAll(t *testing.T, e *Episode, stream string) []Sample {
	t.Helper()
	sf, err := e.Open(stream)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	r := sf.Reader(false)
	var out []Sample
	for {
		s, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		c := *s
		c.Values = slices.Clone(s.Values)
		c.Names = slices.Clone(s.Names)
		out = append(out, c)
	}
}

func TestReaderFields(t *testing.T) {
	t.Parallel()
	dir := writeEpisode(t, doratest.Spec{Start: 1700000000, Duration: 2, RowGroup: 16,
		Base:     func(t float64) (float64, float64, float64) { return t - 1700000000, 2, 0.5 },
		Metadata: map[string]any{"robot": "g1", "fps": 60}})
	e, err := OpenEpisode(dir)
	if err != nil {
		t.Fatal(err)
	}
	var md map[string]any
	if err := json.Unmarshal(e.Metadata, &md); err != nil || md["robot"] != "g1" {
		t.Fatalf("metadata %s", e.Metadata)
	}
	wantStreams := []string{"action", "action.base", "observation.base_state", "observation.images.camera_top", "observation.state"}
	if !slices.Equal(e.Streams, wantStreams) {
		t.Fatalf("streams %v, want %v", e.Streams, wantStreams)
	}
	state := readAll(t, e, "observation.state")
	if len(state) != 121 || len(state[0].Names) != 29 || state[0].Names[28] != "left_gripper" {
		t.Fatalf("observation.state: %d rows, names %v", len(state), state[0].Names)
	}
	if state[1].T != 1700000000+1.0/60 && math.Abs(state[1].T-(1700000000+1.0/60)) > 1e-6 {
		t.Fatalf("row 1 time %v", state[1].T)
	}
	if math.Abs(state[5].Values[3]-math.Sin(state[5].T+3)) > 1e-6 {
		t.Fatalf("row 5 value 3 = %v", state[5].Values[3])
	}
	action := readAll(t, e, "action")
	if len(action) != 201 || len(action[0].Names) != 31 {
		t.Fatalf("action: %d rows of %d names", len(action), len(action[0].Names))
	}
	ab := readAll(t, e, "action.base")
	if len(ab) != 201 || len(ab[10].Values) != 6 || math.Abs(ab[10].Values[5]-0.1) > 1e-6 {
		t.Fatalf("action.base: %d rows, row 10 %v", len(ab), ab[10].Values)
	}
	bs := readAll(t, e, "observation.base_state")
	if len(bs) != 121 || len(bs[0].Values) != BaseStateWidth {
		t.Fatalf("base_state: %d rows of %d values", len(bs), len(bs[0].Values))
	}
	v := bs[60].Values
	want := []float64{1, 2, 0.7, 0, 0, math.Sin(0.25), math.Cos(0.25), 0, 0, 0.5, 0, 0, 9.81, 0, 0, 0}
	for i := range want {
		if math.Abs(v[i]-want[i]) > 1e-6 {
			t.Fatalf("base_state row 60 = %v, want %v", v, want)
		}
	}
	if _, err := e.Open("observation.images.camera_top"); err == nil {
		t.Fatal("an image stream was opened")
	}
}

func TestReaderErrors(t *testing.T) {
	t.Parallel()
	dir := writeEpisode(t, doratest.Spec{Start: 10, Duration: 1})
	e, err := OpenEpisode(dir)
	if err != nil {
		t.Fatal(err)
	}
	// the image stand-in is not Parquet
	if _, err := OpenStream(filepath.Join(dir, "observation.images.camera_top.parquet"), "x"); err == nil || !strings.Contains(err.Error(), "cannot read it as Parquet") {
		t.Fatalf("not Parquet: %v", err)
	}
	if _, err := OpenStream(filepath.Join(dir, "action.parquet"), "observation.state"); err == nil || !strings.Contains(err.Error(), "missing data column") {
		t.Fatalf("wrong column: %v", err)
	}
	if _, err := e.Open("observation.velocity"); err == nil {
		t.Fatal("a missing stream opened")
	}
}
