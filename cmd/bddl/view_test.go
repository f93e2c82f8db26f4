package main

import (
	"context"
	"encoding/json"
	stdhtml "html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openbddl/bddl/view"
)

// viewPageOf writes the page of an episode and returns its text.
func viewPageOf(t *testing.T, args ...string) (string, string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "v.html")
	all := append(append([]string{"view"}, args...), "-o", page)
	r := runBDDL(t, all...)
	r.wantCode(t, all, exitOK)
	return string(readFile(t, page)), page
}

// pageData is the JSON the page draws.
func pageData(t *testing.T, html string) view.Data {
	t.Helper()
	m := regexp.MustCompile(`(?s)const DATA = (.*?);\n\(function`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var d view.Data
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return d
}

// TestViewPage checks that the page of an episode is self-contained and
// holds its objects, every step and the goal's truth at each.
func TestViewPage(t *testing.T) {
	t.Parallel()
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	html, _ := viewPageOf(t, "--activity", "tidying_the_living_room", ep)
	// No resource is fetched: no src or href attribute, no URL but the
	// SVG namespace name.
	for _, m := range regexp.MustCompile(`https?://[^"' )]*`).FindAllString(html, -1) {
		if m != "http://www.w3.org/2000/svg" {
			t.Errorf("the page refers to %s", m)
		}
	}
	if regexp.MustCompile(`\s(src|href)=`).MatchString(html) {
		t.Error("the page loads a resource")
	}
	d := pageData(t, html)
	if len(d.Objects) == 0 || len(d.Frames) < 2 || len(d.Conjuncts) == 0 || d.Report == "" {
		t.Fatalf("page data: %d objects, %d frames, %d conjuncts, report %q", len(d.Objects), len(d.Frames), len(d.Conjuncts), d.Report)
	}
	for _, f := range d.Frames {
		if len(f.Truth) != len(d.Conjuncts)+1 || len(f.Boxes) != len(d.Objects) {
			t.Errorf("frame %d: %d truths, %d boxes", f.Step, len(f.Truth), len(f.Boxes))
		}
	}
	// A sampled scene: one step.
	out := t.TempDir()
	runBDDL(t, "sample", "cleaning_shoes", "-o", out).wantCode(t, nil, exitOK)
	eps, _ := filepath.Glob(filepath.Join(out, "cleaning_shoes", "*.jsonl"))
	if len(eps) != 1 {
		t.Fatalf("sample wrote %v", eps)
	}
	html, _ = viewPageOf(t, eps[0])
	if d := pageData(t, html); len(d.Frames) != 1 || len(d.Objects) == 0 {
		t.Errorf("scene page: %d frames, %d objects", len(d.Frames), len(d.Objects))
	}
}

// TestViewFramesThinned: a long episode is shown at most --frames steps,
// the first and last among them.
func TestViewFramesThinned(t *testing.T) {
	t.Parallel()
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	html, _ := viewPageOf(t, "--activity", "tidying_the_living_room", "--frames", "3", ep)
	d := pageData(t, html)
	if len(d.Frames) != 3 || d.Frames[0].Step != 0 || d.Frames[2].Step != int64(d.Steps-1) {
		t.Errorf("frames %v of %d steps", len(d.Frames), d.Steps)
	}
}

// robolabEpisode converts the RoboLab test run file, whose task objects
// (apple, bowl, mug) are recorded as oriented boxes, and returns the
// first demo's episode.
func robolabEpisode(t *testing.T) string {
	t.Helper()
	td := filepath.Join("..", "..", "episode", "robolab", "testdata")
	out := t.TempDir()
	args := []string{"episode", "convert", filepath.Join(td, "run_0.hdf5"), "--map", filepath.Join(td, "names.yaml"),
		"--activity", filepath.Join(td, "putting_the_apple_in_the_bowl.bddl"), "-o", out}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	return filepath.Join(out, "run_0_demo_0.jsonl")
}

// sampledEpisode samples cleaning_shoes in a knowledge-base scene.
func sampledEpisode(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	runBDDL(t, "sample", "cleaning_shoes", "-o", out).wantCode(t, nil, exitOK)
	eps, _ := filepath.Glob(filepath.Join(out, "cleaning_shoes", "*.jsonl"))
	if len(eps) != 1 {
		t.Fatalf("sample wrote %v", eps)
	}
	return eps[0]
}

// TestViewOrientedBoxes: objects recorded only as oriented boxes are
// drawn from their corners (they were drawn as empty boxes).
func TestViewOrientedBoxes(t *testing.T) {
	t.Parallel()
	html, _ := viewPageOf(t, robolabEpisode(t))
	d := pageData(t, html)
	got := map[string]int{}
	for i, o := range d.Objects {
		got[o.Name] = len(d.Frames[0].Boxes[i])
	}
	for _, name := range []string{"apple.n.01_1", "bowl.n.01_1", "mug.n.04_1"} {
		if got[name] != 24 {
			t.Errorf("%s: box of %d numbers at the first step, want the 8 corners of its obb (objects: %v)", name, got[name], got)
		}
	}
	if got["table.n.02_1"] != 6 {
		t.Errorf("table.n.02_1: box of %d numbers, want its aabb", got["table.n.02_1"])
	}
}

// TestViewRolesLinksFurniture: a sample's page colours objects by role,
// links each literal to the objects it names, draws the furniture of
// the knowledge-base scene it was laid out in, and says what a sample
// promises (:init) rather than FAIL.
func TestViewRolesLinksFurniture(t *testing.T) {
	t.Parallel()
	html, _ := viewPageOf(t, sampledEpisode(t))
	d := pageData(t, html)
	roles := map[string]string{}
	for _, o := range d.Objects {
		roles[o.Name] = o.Role
	}
	want := map[string]string{"agent.n.01_1": view.RoleAgent, "shoe.n.01_1": view.RoleTask, "bed.n.01_1": view.RoleSupport, "sink.n.01_1": view.RoleSupport, "floor.n.01_1": view.RoleSupport}
	for name, role := range want {
		if roles[name] != role {
			t.Errorf("%s: role %q, want %q", name, roles[name], role)
		}
	}
	name := func(i int) string { return d.Objects[i].Name }
	for _, l := range d.Init {
		if strings.Contains(l.Text, "(ontop rag.n.01_1 bed.n.01_1)") {
			if len(l.Objects) != 2 || name(l.Objects[0]) != "bed.n.01_1" || name(l.Objects[1]) != "rag.n.01_1" {
				t.Errorf("init %s links %v", l.Text, l.Objects)
			}
		}
	}
	if len(d.Init) == 0 || len(d.Conjuncts) == 0 {
		t.Fatalf("%d init literals, %d conjuncts", len(d.Init), len(d.Conjuncts))
	}
	// The quantified conjunct names both shoes through its type.
	var shoes []string
	for _, i := range d.Conjuncts[0].Objects {
		shoes = append(shoes, name(i))
	}
	if strings.Join(shoes, " ") != "shoe.n.01_1 shoe.n.01_2" {
		t.Errorf("conjunct %s links %v", d.Conjuncts[0].Text, shoes)
	}
	if len(d.Furniture) == 0 || len(d.Rooms) == 0 {
		t.Errorf("%d pieces of furniture, %d rooms: want the scene's", len(d.Furniture), len(d.Rooms))
	}
	if !d.Sample || d.Verdict != "INIT TRUE" || !strings.Contains(d.Report, "bddl check --init") {
		t.Errorf("sample %v, verdict %q, report %q", d.Sample, d.Verdict, d.Report)
	}
}

// TestViewRefuses: what view cannot draw is an error on stderr, a
// non-zero exit and no page.
func TestViewRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	libero := filepath.Join(dir, "l.jsonl")
	writeFile(t, libero, []byte(`{"format":"libero-episode","version":1,"definition":"t.bddl","problem":"p","language":"x"}`+"\n"+`{"step":0,"bodies":{}}`+"\n"))
	notEpisode := filepath.Join(dir, "n.jsonl")
	writeFile(t, notEpisode, []byte(`{"a":1}`+"\n"))
	empty := filepath.Join(dir, "e.jsonl")
	writeFile(t, empty, nil)
	notJSON := filepath.Join(dir, "j.jsonl")
	writeFile(t, notJSON, []byte("(define (problem x))\n"))
	tests := []struct{ name, path, want string }{
		{"libero", libero, "LIBERO episode records body poses"},
		{"not an episode", notEpisode, `no "bddl_episode" field`},
		{"empty", empty, "the file is empty"},
		{"not json", notJSON, "not an episode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page := filepath.Join(t.TempDir(), "v.html")
			r := runBDDL(t, "view", tt.path, "-o", page)
			if r.code == exitOK || !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, "wrote") {
				t.Errorf("view %s: exit %d, stderr %q; want a failure saying %q", tt.name, r.code, r.stderr, tt.want)
			}
			if _, err := os.Stat(page); err == nil {
				t.Errorf("view %s wrote a page", tt.name)
			}
		})
	}
}

// episodeExtents is each object's extent from above [x0, y0, x1, y1] at
// the first step of an episode file, read straight from its aabb or obb
// fields (the header, then the first step line).
func episodeExtents(t *testing.T, path string) map[string][4]float64 {
	t.Helper()
	out := map[string][4]float64{}
	lines := strings.SplitN(string(readFile(t, path)), "\n", 3)
	for _, line := range lines[:min(2, len(lines))] {
		var rec struct {
			Objects map[string]struct {
				AABB *[6]float64    `json:"aabb"`
				OBB  *[8][3]float64 `json:"obb"`
			} `json:"objects"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		for name, o := range rec.Objects {
			switch {
			case o.OBB != nil:
				e := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
				for _, p := range o.OBB {
					e = [4]float64{min(e[0], p[0]), min(e[1], p[1]), max(e[2], p[0]), max(e[3], p[1])}
				}
				out[name] = e
			case o.AABB != nil:
				out[name] = [4]float64{o.AABB[0], o.AABB[1], o.AABB[3], o.AABB[4]}
			}
		}
	}
	return out
}

// TestViewInChromium opens pages in headless Chromium (Debian's
// package; .ci/run installs it when it can). Each page's self-test moves
// the slider through every step, checks every frame is drawn, that no
// two labels overlap, that hovering a literal lights up its objects and
// that nothing was logged as an error; the test then compares the boxes
// drawn from above, read back from the drawing, with the episode's.
func TestViewInChromium(t *testing.T) {
	chromium := ""
	for _, c := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(c); err == nil {
			chromium = c
			break
		}
	}
	if chromium == "" {
		t.Skip("no headless browser: /usr/bin/chromium is absent (apt-get install chromium)")
	}
	tests := []struct {
		name string
		args []string
		ep   string
	}{
		{"aabb recording", []string{"--activity", "tidying_the_living_room"}, examplePath("tidying_the_living_room", "poses.jsonl")},
		{"obb recording", nil, robolabEpisode(t)},
		{"sample with furniture", nil, sampledEpisode(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, page := viewPageOf(t, append(tt.args, tt.ep)...)
			d := pageData(t, html)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+page+"#selftest")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("chromium: %v", err)
			}
			m := regexp.MustCompile(`<p id="selftest">([^<]*)</p>`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("the page's self-test wrote nothing:\n%.2000s", out)
			}
			var steps []string
			for _, f := range d.Frames {
				steps = append(steps, jsonInt(f.Step))
			}
			got := string(m[1])
			if !strings.HasPrefix(got, "pass ") || !strings.Contains(got, "steps="+strings.Join(steps, ",")) {
				t.Errorf("self-test: %s (want pass through steps %s)", got, strings.Join(steps, ","))
			}
			j := regexp.MustCompile(`(?s)<pre id="selftestjson">(.*?)</pre>`).FindSubmatch(out)
			if j == nil {
				t.Fatal("the self-test wrote no boxes")
			}
			var res struct {
				Errors []string              `json:"errors"`
				Boxes  map[string][4]float64 `json:"boxes"`
				Scale  float64               `json:"scale"`
			}
			if err := json.Unmarshal([]byte(stdhtml.UnescapeString(string(j[1]))), &res); err != nil {
				t.Fatalf("self-test boxes: %v", err)
			}
			if len(res.Errors) > 0 {
				t.Errorf("console errors: %q", res.Errors)
			}
			want := episodeExtents(t, tt.ep)
			if len(res.Boxes) != len(want) {
				t.Errorf("%d boxes drawn, the episode has %d at the first step", len(res.Boxes), len(want))
			}
			tol := 0.02 / res.Scale // points are written to 0.01 px
			for name, w := range want {
				g, ok := res.Boxes[name]
				if !ok {
					t.Errorf("%s: not drawn", name)
					continue
				}
				for k := range 4 {
					if math.Abs(g[k]-w[k]) > tol {
						t.Errorf("%s: drawn from above at %v, the episode says %v", name, g, w)
						break
					}
				}
			}
		})
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
