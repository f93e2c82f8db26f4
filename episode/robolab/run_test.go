package robolab

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

func ptr[T any](v T) *T { return &v }

// The fixture's four demos (make_fixtures.py): demo_0 succeeds, demo_1
// fails, demo_2 succeeds and is undone before the end, demo_3 succeeds
// while RoboLab's results call it a failure. The apple's centre enters
// the bowl (rotated 30°, half size 0.1 m) at step 22 of its path from
// step 16 to 24; the drawer is closed from step 16; the undone apple
// leaves the bowl's box at step 34.
func TestRunVerdicts(t *testing.T) {
	tests := []struct {
		atEnd bool
		demo  int
		want  Result
		steps int
		ours  *int64
		end   bool
	}{
		{demo: 0, steps: 36, ours: ptr[int64](22), end: true,
			want: Result{RoboLabSuccess: ptr(true), RoboLabSuccessStep: ptr[int64](25), Agreement: ptr(BothSucceed)}},
		{demo: 1, steps: 48, end: false,
			want: Result{RoboLabSuccess: ptr(false), Agreement: ptr(BothFail)}},
		{demo: 2, steps: 48, ours: ptr[int64](22), end: false,
			want: Result{RoboLabSuccess: ptr(true), RoboLabSuccessStep: ptr[int64](25), Agreement: ptr(BothSucceed)}},
		{demo: 3, steps: 40, ours: ptr[int64](22), end: true,
			want: Result{RoboLabSuccess: ptr(false), Agreement: ptr(OnlyBDDL)}},
		{atEnd: true, demo: 2, steps: 48, ours: ptr[int64](22), end: false,
			want: Result{RoboLabSuccess: ptr(true), RoboLabSuccessStep: ptr[int64](25), Agreement: ptr(OnlyRoboLab)}},
	}
	byEnd := map[bool][]*Result{}
	for _, atEnd := range []bool{false, true} {
		byEnd[atEnd] = checkFile(t, "testdata/run_0.hdf5", episode.CheckOptions{AtEnd: atEnd})
		if len(byEnd[atEnd]) != 4 {
			t.Fatalf("%d results, want one per demo (4)", len(byEnd[atEnd]))
		}
	}
	for _, tc := range tests {
		r := byEnd[tc.atEnd][tc.demo]
		name := "testdata/run_0.hdf5#demo_" + string(rune('0'+tc.demo))
		if r.Episode != name {
			t.Errorf("episode %q, want %q", r.Episode, name)
		}
		if r.Error != "" {
			t.Errorf("%s: error %s", name, r.Error)
			continue
		}
		wantSuccess := *tc.want.Agreement == BothSucceed || *tc.want.Agreement == OnlyBDDL
		if r.Success != wantSuccess || r.Steps != tc.steps || r.EpisodeStep != int64(tc.steps-1) || r.HoldsAtEnd != tc.end {
			t.Errorf("%s (at-end %v): success %v steps %d episode_step %d holds at end %v; want %v %d %d %v",
				name, tc.atEnd, r.Success, r.Steps, r.EpisodeStep, r.HoldsAtEnd, wantSuccess, tc.steps, tc.steps-1, tc.end)
		}
		if !eqPtr(r.FirstSuccessStep, tc.ours) {
			t.Errorf("%s: first success step %v, want %v", name, deref(r.FirstSuccessStep), deref(tc.ours))
		}
		if !r.InitOK {
			t.Errorf("%s: :init does not hold at step 0: %v", name, r.InitFailures)
		}
		if r.EnvName != "AppleInBowlTask" || r.EnvID != tc.demo || !eqPtr(r.Run, ptr(0)) || r.DT == nil || math.Abs(*r.DT-1.0/15) > 1e-12 {
			t.Errorf("%s: env_name %q env_id %d run %v dt %v", name, r.EnvName, r.EnvID, deref(r.Run), deref(r.DT))
		}
		if d := r.Duration; d == nil || math.Abs(*d-float64(tc.steps-1)/15) > 1e-9 {
			t.Errorf("%s: duration %v, want (T-1)·dt", name, deref(d))
		}
		if !eqPtr(r.RoboLabSuccess, tc.want.RoboLabSuccess) || !eqPtr(r.RoboLabSuccessStep, tc.want.RoboLabSuccessStep) || *r.Agreement != *tc.want.Agreement {
			t.Errorf("%s (at-end %v): robolab %v at %v, agreement %v; want %v at %v, %v", name, tc.atEnd,
				deref(r.RoboLabSuccess), deref(r.RoboLabSuccessStep), *r.Agreement, *tc.want.RoboLabSuccess, deref(tc.want.RoboLabSuccessStep), *tc.want.Agreement)
		}
		if r.RoboLabEpisode == nil || *r.RoboLabEpisode != tc.demo || r.RoboLabReason == nil || r.RoboLabScore == nil {
			t.Errorf("%s: RoboLab's line not attached: %+v", name, r)
		}
	}
	// The result line keeps RoboLab's field names.
	line, err := json.Marshal(byEnd[false][0])
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(line, &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"env_name", "episode", "env_id", "run", "success", "score", "reason", "episode_step", "duration", "dt",
		"first_success_step", "robolab_success", "robolab_success_step", "agreement"} {
		if _, ok := fields[f]; !ok {
			t.Errorf("result line lacks %q: %s", f, line)
		}
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestStreamFields reads a demo's episode back as values: every field
// comes from the right dataset, in the right unit and order.
func TestStreamFields(t *testing.T) {
	prog := program(t)
	r, err := Open("testdata/run_0.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Stream(r.Demos()[0], options(t, prog, testMap(t)))
	if err != nil {
		t.Fatal(err)
	}
	h, steps, err := episode.ReadAll(s, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if h.Activity != "putting_the_apple_in_the_bowl" || math.Abs(h.DT-1.0/15) > 1e-12 || len(steps) != 36 {
		t.Fatalf("header %+v, %d steps", h, len(steps))
	}
	var meta struct {
		RoboLab struct {
			File, Demo, EnvName string
			EnvID, Run          int
		} `json:"robolab"`
	}
	if err := json.Unmarshal(h.Meta, &meta); err != nil || meta.RoboLab.File != "run_0.hdf5" || meta.RoboLab.Demo != "demo_0" {
		t.Errorf("meta %s (%v)", h.Meta, err)
	}
	if tbl := h.Objects["table.n.02_1"]; tbl == nil || tbl.AABB.Max[2] != 0.75 || tbl.Room != "kitchen_0" {
		t.Errorf("static table %+v", tbl)
	}
	first := steps[0]
	if first.Step != 0 || len(first.Objects) != 5 {
		t.Fatalf("step 0: %+v", first)
	}
	// bbox_mm/bowl at step 0, as h5py reads it: corner 0 (613, 63, 750) mm,
	// corner 5 (787, 163, 850) mm.
	bowl := first.Objects["bowl.n.01_1"]
	if bowl.OBB[0] != [3]float64{0.613, 0.063, 0.75} || bowl.OBB[5] != [3]float64{0.787, 0.163, 0.85} {
		t.Errorf("bowl corners %v", bowl.OBB)
	}
	// root_pose w, x, y, z = (cos 15°, 0, 0, sin 15°) becomes x, y, z, w.
	c, sn := float64(float32(math.Cos(math.Pi/12))), float64(float32(math.Sin(math.Pi/12)))
	if bowl.Pos != [3]float64{float64(float32(0.65)), float64(float32(0.2)), float64(float32(0.8))} || bowl.Quat != [4]float64{0, 0, sn, c} {
		t.Errorf("bowl pose %v %v", bowl.Pos, bowl.Quat)
	}
	cab := first.Objects["cabinet.n.01_1"]
	if len(cab.Joints) != 1 || cab.Joints[0].Name != "drawer" || cab.Joints[0].Q != float64(float32(0.3)) || cab.Joints[0].Hi != 0.4 {
		t.Errorf("cabinet joints %+v", cab.Joints)
	}
	if agent := first.Objects["agent.n.01_1"]; agent == nil || agent.Has(predicates.FieldJoints) || agent.Quat != [4]float64{0, 0, 0, 1} {
		t.Errorf("robot as agent: %+v", agent)
	}
	// Only what changes is written: the bowl never moves; at step 12 the
	// drawer is at 0.2; at step 20 the apple is on its way, corner 0 at
	// (515, -35, 753) mm.
	for _, st := range steps[1:] {
		if _, ok := st.Objects["bowl.n.01_1"]; ok {
			t.Errorf("step %d rewrites the bowl, which never moves", st.Step)
		}
	}
	if j := steps[12].Objects["cabinet.n.01_1"]; j == nil || j.Joints[0].Q != float64(float32(0.2)) {
		t.Errorf("step 12 cabinet %+v", j)
	}
	apple := steps[20].Objects["apple.n.01_1"]
	if apple == nil || apple.OBB[0] != [3]float64{0.515, -0.035, 0.753} || apple.Pos[0] != float64(float32(0.55)) {
		t.Errorf("step 20 apple %+v", apple)
	}
}

func TestNames(t *testing.T) {
	prog := program(t)
	m := testMap(t)
	tests := []struct {
		name, file string
		m          *Map
		yaml       string // a map given as text, instead of m
		wantErr    string
		wantWarn   string
	}{
		{name: "no map: every object unmapped", file: "testdata/run_0.hdf5",
			wantErr: "data/demo_0/states: apple, bowl, cabinet, mug, robot are not instances of putting_the_apple_in_the_bowl: give a --map file"},
		{name: "no map: instance names used as they are", file: "testdata/direct.hdf5",
			wantErr: "data/demo_0/states: robot is not an instance of putting_the_apple_in_the_bowl"},
		{name: "map ignoring the robot", file: "testdata/direct.hdf5", yaml: "names: {robot: null}"},
		{name: "unmapped objects ignored with a map", file: "testdata/direct.hdf5", yaml: "names: {}",
			wantWarn: "ignored, neither in map.yaml nor instances of putting_the_apple_in_the_bowl: robot"},
		{name: "mapped to a non-instance", file: "testdata/run_0.hdf5", yaml: "names: {apple: pear.n.01_1}",
			wantErr: "map.yaml: names.apple: pear.n.01_1 is not an instance of putting_the_apple_in_the_bowl"},
		{name: "two objects, one instance", file: "testdata/direct.hdf5", yaml: "names: {robot: apple.n.01_1}",
			wantErr: "are both apple.n.01_1"},
		{name: "static non-instance", file: "testdata/run_0.hdf5", yaml: "names: {apple: apple.n.01_1}\nstatic: {sofa.n.01_1: {aabb: [0, 0, 0, 1, 1, 1]}}",
			wantErr: "map.yaml: static: sofa.n.01_1 is not an instance of putting_the_apple_in_the_bowl"},
		{name: "joint count", file: "testdata/run_0.hdf5",
			yaml:    "names: {apple: apple.n.01_1, bowl: bowl.n.01_1, mug: mug.n.04_1, robot: null, cabinet: cabinet.n.01_1}\nstatic: {cabinet.n.01_1: {joints: {a: {q: 0, lo: 0, hi: 1}, b: {q: 0, lo: 0, hi: 1}}}}",
			wantErr: "data/demo_0/states/articulation/cabinet/joint_position: 1 joints, but the map's static entry of cabinet.n.01_1 names 2"},
		{name: "the fixtures' map", file: "testdata/run_0.hdf5", m: m},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mp := tc.m
			if tc.yaml != "" {
				var err error
				if mp, err = ParseMap("map.yaml", []byte(tc.yaml)); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Open(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s, err := r.Stream(r.Demos()[0], options(t, prog, mp))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.file) && !strings.HasPrefix(err.Error(), "map.yaml") {
					t.Errorf("error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, s); err != nil || s.Err() != nil {
				t.Fatal(err, s.Err())
			}
			warns := strings.Join(s.Warnings(), "\n")
			if tc.wantWarn != "" && !strings.Contains(warns, tc.wantWarn) || tc.wantWarn == "" && warns != "" {
				t.Errorf("warnings %q, want %q", warns, tc.wantWarn)
			}
		})
	}
}

// TestBadInput: every fault of bad.hdf5 is an error naming the file, the
// dataset and the step, never a success; the steps before the fault are
// checked.
func TestBadInput(t *testing.T) {
	results := checkFile(t, "testdata/bad.hdf5", episode.CheckOptions{})
	tests := []struct {
		want  string
		steps int
	}{
		{"testdata/bad.hdf5: data/demo_0/states/rigid_object/apple/root_pose: step 7: position y is NaN", 7},
		{"testdata/bad.hdf5: data/demo_1/bbox/bbox_mm/bowl: step 9: corner 5 z is NaN", 9},
		{"testdata/bad.hdf5: data/demo_2/bbox/bbox_mm/mug: missing dataset", 0},
		{"testdata/bad.hdf5: data/demo_3/bbox/bbox_mm/apple: 18 steps, but the demo has 20 (num_samples)", 0},
		{"testdata/bad.hdf5: data/demo_4/states/rigid_object: missing group", 0},
		{"testdata/bad.hdf5: data/demo_5/states/rigid_object/bowl/root_pose: shape [20 × 6], expected [T × 7]", 0},
		{"testdata/bad.hdf5: data/demo_6/bbox/bbox_mm/mug: step 3: oriented box degenerate", 3},
	}
	if len(results) != len(tests) {
		t.Fatalf("%d results, want %d", len(results), len(tests))
	}
	for i, tc := range tests {
		r := results[i]
		if r.Success || !strings.HasPrefix(r.Error, tc.want) || r.Steps != tc.steps {
			t.Errorf("demo_%d: success %v, %d steps, error %q; want %d steps, error %q", i, r.Success, r.Steps, r.Error, tc.steps, tc.want)
		}
		if tc.steps > 0 && !strings.Contains(r.Reason, "over the ") {
			t.Errorf("demo_%d: reason %q does not say what the steps read showed", i, r.Reason)
		}
	}
}

// TestTruncated cuts the run file at many points: no cut is ever a
// success or a panic, and every error names the file and says the file
// is truncated.
func TestTruncated(t *testing.T) {
	data, err := os.ReadFile("testdata/run_0.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	stride := 2003
	if testing.Short() {
		stride = 10007
	}
	dir := t.TempDir()
	partial := 0
	for n := 0; n < len(data); n += stride {
		p := copyFile(t, "testdata/run_0.hdf5", dir, n)
		for _, r := range checkFile(t, p, episode.CheckOptions{}) {
			if r.Success || r.Error == "" {
				t.Fatalf("cut at %d: %s: success %v error %q", n, r.Episode, r.Success, r.Error)
			}
			if !strings.HasPrefix(r.Error, p) {
				t.Fatalf("cut at %d: error %q does not name the file", n, r.Error)
			}
			if n > 0 && !strings.Contains(r.Error, "truncated") {
				t.Fatalf("cut at %d: error %q does not say truncated", n, r.Error)
			}
			if strings.Count(r.Error, "failed") > 1 {
				t.Fatalf("cut at %d: error %q is the library's chain of failures", n, r.Error)
			}
			if r.Steps > 0 {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Error("no cut left any step readable: the readable steps before a cut are not checked")
	}
}

// TestCrashed: a run that died while recording leaves a whole file as of
// its last flush; the open demo is checked over the steps it holds and
// reported truncated, never a success.
func TestCrashed(t *testing.T) {
	rs := checkFile(t, "testdata/crashed.hdf5", episode.CheckOptions{})
	if len(rs) != 2 {
		t.Fatalf("%d results", len(rs))
	}
	if !rs[0].Success || rs[0].Error != "" {
		t.Errorf("demo_0 (finished): %+v", rs[0].Result)
	}
	r := rs[1]
	if r.Success || r.Steps != 32 || !eqPtr(r.FirstSuccessStep, ptr[int64](22)) ||
		!strings.Contains(r.Error, "testdata/crashed.hdf5: data/demo_1: truncated: RoboLab never finished demo_1") ||
		!strings.Contains(r.Reason, "over the 32 steps read: goal satisfied at step 22") {
		t.Errorf("demo_1 (open): success %v steps %d first %v error %q reason %q", r.Success, r.Steps, deref(r.FirstSuccessStep), r.Error, r.Reason)
	}
}

// TestLatestFormat: a file of h5py's libver="latest" (superblock 3,
// version 2 object headers, link messages, new chunk indexes) reads; it
// was refused until the fork parsed a version 2 header chunk's gap
// (third_party/hdf5/PATCHES.md). testdata/layouts has the other layouts.
func TestLatestFormat(t *testing.T) {
	r, err := Open("testdata/latest.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if d := r.Demos(); len(d) != 1 || d[0].Name != "demo_0" || r.EnvName != "AppleInBowlTask" {
		t.Fatalf("demos %+v, env %q", d, r.EnvName)
	}
	res := checkFile(t, "testdata/latest.hdf5", episode.CheckOptions{})
	if len(res) != 1 || !res[0].Success || res[0].Error != "" || res[0].Steps != 30 {
		t.Errorf("result %+v", res[0].Result)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "run_0.hdf5")
	if err := os.WriteFile(text, []byte("not hdf5"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{dir, "not a regular file"},
		{text, "cannot read it as HDF5"},
		{filepath.Join(dir, "missing.hdf5"), "no such file"},
	} {
		if _, err := Open(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
}

// TestDT: dt is sim.dt × decimation of env_cfg.json beside the file;
// without it, dt is unknown and the result says null.
func TestDT(t *testing.T) {
	dir := t.TempDir()
	p := copyFile(t, "testdata/direct.hdf5", dir, -1)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.DT != 0 || r.EnvName != "AppleInBowlTask" || r.HasIndex {
		t.Errorf("without env_cfg.json: dt %v env %q index %v", r.DT, r.EnvName, r.HasIndex)
	}
	// demo_0 has its own dt attribute; demo_1 has none.
	if d := r.Demos(); d[0].DT != 0.05 || d[1].DT != 0 {
		t.Errorf("demo dt %v and %v, want 0.05 (its attribute) and 0 (unknown)", d[0].DT, d[1].DT)
	}
	r.Close()
	if err := os.WriteFile(filepath.Join(dir, "env_cfg.json"), []byte(`{"sim": {"dt": 0.005}, "decimation": 4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err = Open(p); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if math.Abs(r.DT-0.02) > 1e-15 || !strings.HasSuffix(r.DTSource, "env_cfg.json") {
		t.Errorf("dt %v from %q, want 0.02 from env_cfg.json", r.DT, r.DTSource)
	}
	if d := r.Demos(); d[0].DT != 0.05 || d[1].DT != r.DT {
		t.Errorf("demo dt %v and %v, want 0.05 (its own) and the run's", d[0].DT, d[1].DT)
	}
	// The result line and the episode's header carry the demo's dt.
	res := CheckRun(context.Background(), program(t), p, options(t, program(t), testMap(t)), episode.CheckOptions{}, nil)
	if res[0].DT == nil || *res[0].DT != 0.05 || res[1].DT == nil || *res[1].DT != r.DT {
		t.Errorf("result dt %v, %v", deref(res[0].DT), deref(res[1].DT))
	}
}

func TestDeclaredEOF(t *testing.T) {
	for _, name := range []string{"run_0.hdf5", "latest.hdf5"} {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := f.Stat()
		eof, ok := declaredEOF(f, info.Size())
		f.Close()
		if !ok || eof != uint64(info.Size()) {
			t.Errorf("%s: declared end %d (%v), file size %d", name, eof, ok, info.Size())
		}
	}
}

// TestImagesNotRead: run_0.hdf5's demos each have a 720×1280 camera of
// 36–48 frames (130–180 MB were it read; nothing stored). Checking the
// file never opens an obs/ dataset and allocates far less than one.
func TestImagesNotRead(t *testing.T) {
	var touched []string
	testReadHook = func(path string) {
		if strings.Contains(path, "/obs/") {
			touched = append(touched, path)
		}
	}
	defer func() { testReadHook = nil }()
	prog := program(t)
	opts := options(t, prog, testMap(t))
	var before, after runtimeStats
	before.read()
	res := CheckRun(context.Background(), prog, "testdata/run_0.hdf5", opts, episode.CheckOptions{}, nil)
	after.read()
	if len(res) != 4 || res[0].Error != "" {
		t.Fatalf("results %v", res)
	}
	if len(touched) > 0 {
		t.Errorf("image datasets read: %v", touched)
	}
	if alloc := after.total - before.total; alloc > 64<<20 {
		t.Errorf("checking allocated %d MB: the images were read", alloc>>20)
	}
}

// TestCorrupted flips bytes of a run file: never a panic; an error names
// the file.
func TestCorrupted(t *testing.T) {
	data, err := os.ReadFile("testdata/direct.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	n := 150
	if testing.Short() {
		n = 30
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "run_0.hdf5")
	seed := uint64(1)
	for i := range n {
		bad := append([]byte(nil), data...)
		for range 1 + i%4 {
			seed = seed*6364136223846793005 + 1442695040888963407
			bad[int(seed>>33)%len(bad)] ^= byte(seed>>20) | 1
		}
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, r := range checkFile(t, p, episode.CheckOptions{}) {
			if r.Error != "" && !strings.HasPrefix(r.Error, p) {
				t.Fatalf("flip %d: error %q does not name the file", i, r.Error)
			}
		}
	}
}

// TestVariants: datasets written without chunks (h5py's default), and
// corners in USD's GetCorner order (faces not in cyclic order), give the
// verdicts of the "undone" demo as run_0.hdf5 records it.
func TestVariants(t *testing.T) {
	for _, file := range []string{"testdata/contiguous.hdf5", "testdata/corners_bits.hdf5"} {
		rs := checkFile(t, file, episode.CheckOptions{})
		if len(rs) != 1 {
			t.Fatalf("%s: %d results", file, len(rs))
		}
		r := rs[0]
		if r.Error != "" || !r.Success || r.Steps != 48 || !eqPtr(r.FirstSuccessStep, ptr[int64](22)) || r.HoldsAtEnd {
			t.Errorf("%s: success %v steps %d first %v at end %v error %q", file, r.Success, r.Steps, deref(r.FirstSuccessStep), r.HoldsAtEnd, r.Error)
		}
	}
}

func TestStreamProgress(t *testing.T) {
	prog := program(t)
	r, err := Open("testdata/run_0.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Stream(r.Demos()[1], options(t, prog, testMap(t)))
	if err != nil {
		t.Fatal(err)
	}
	calls, last := 0, 0
	s.Progress = func(done, steps int) {
		if done != last+1 || steps != 48 {
			t.Errorf("progress %d of %d after %d", done, steps, last)
		}
		calls, last = calls+1, done
	}
	if _, err := io.Copy(io.Discard, s); err != nil || s.Err() != nil {
		t.Fatal(err, s.Err())
	}
	if calls != 48 {
		t.Errorf("%d progress calls, want one per step (48)", calls)
	}
}
