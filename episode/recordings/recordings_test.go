package recordings

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/recording"
)

const oopsieData = "../oopsie/testdata"

func TestFind(t *testing.T) {
	t.Parallel()
	session := filepath.Join(oopsieData, "session")
	eps, err := Find([]string{session})
	if err != nil || len(eps) == 0 {
		t.Fatalf("Find(%s) = %v, %v; want Oopsie episodes", session, eps, err)
	}
	for _, e := range eps {
		if e.Layout != Oopsie || e.LayoutName() != "oopsie" {
			t.Errorf("Find: %+v is not an Oopsie episode", e)
		}
	}
	if _, err := Find([]string{session}, Dora); err == nil || !strings.Contains(err.Error(), "no Dora-record recording found") {
		t.Errorf("Find(%s, dora) error = %v, want no Dora-record recording found", session, err)
	}
	if _, err := Find([]string{filepath.Join(oopsieData, "robot.yaml")}); err == nil || !strings.Contains(err.Error(), "no Oopsie or Dora-record recording found") {
		t.Errorf("Find(robot.yaml) error = %v", err)
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ep               Episode
		layout, converts string
	}{
		{Episode{Oopsie, "/s/ep_0.h5"}, "oopsie", "ep_0.jsonl"},
		{Episode{Oopsie, "/s/ep_1.hdf5"}, "oopsie", "ep_1.jsonl"},
		{Episode{Dora, "/d/session_1/episode_000000002"}, "dora-record", "session_1_episode_000000002.jsonl"},
	} {
		if got := tc.ep.LayoutName(); got != tc.layout {
			t.Errorf("%+v.LayoutName() = %q, want %q", tc.ep, got, tc.layout)
		}
		if got := tc.ep.ConvertedName(); got != tc.converts {
			t.Errorf("%+v.ConvertedName() = %q, want %q", tc.ep, got, tc.converts)
		}
	}
}

func TestWriteAgreement(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		g    recording.Agreement
		want string
	}{
		{"one episode, kappa undefined", recording.Agreement{A: "bddl", B: "human", Episodes: 1, Matrix: [2][2]int{{1, 0}, {0, 0}}, Raw: 1, Kappa: math.NaN()},
			"bddl vs human: 1 episode\n" +
				"                 human\n" +
				"                 success  failure\n" +
				"  bddl  success        1        0\n" +
				"        failure        0        0\n" +
				"  raw agreement 1.000, Cohen's kappa undefined (a single verdict throughout)\n" +
				"  no disagreement\n\n"},
		{"a disagreement", recording.Agreement{A: "a", B: "b", Episodes: 2, Matrix: [2][2]int{{1, 1}, {0, 0}}, Raw: 0.5, Kappa: 0,
			Disagreements: []recording.Disagreement{{Episode: "ep", ASuccess: true, BSuccess: false, BDesc: "dropped"}}},
			"a vs b: 2 episodes\n" +
				"              b\n" +
				"              success  failure\n" +
				"  a  success        1        1\n" +
				"     failure        0        0\n" +
				"  raw agreement 0.500, Cohen's kappa 0.000\n" +
				"  ep: a success; b failure (\"dropped\")\n\n"},
	} {
		var buf bytes.Buffer
		WriteAgreement(&buf, &tc.g)
		if buf.String() != tc.want {
			t.Errorf("%s: WriteAgreement =\n%s\nwant\n%s", tc.name, buf.String(), tc.want)
		}
	}
}

func TestWriteAnnotated(t *testing.T) {
	t.Parallel()
	ep := Episode{Dora, "/d/s/episode_000000000"}
	a := recording.Annotation{Annotator: "bddl", Success: 1}
	var text, js bytes.Buffer
	WriteAnnotated(&text, false, ep, &a, "/d/s/episode_000000000/bddl_annotation.json", nil)
	if got := text.String(); got != "/d/s/episode_000000000: success; wrote /d/s/episode_000000000/bddl_annotation.json\n" {
		t.Errorf("text = %q", got)
	}
	WriteAnnotated(&js, true, ep, &a, "x", nil)
	if got := js.String(); !strings.Contains(got, `"layout":"dora-record"`) || !strings.Contains(got, `"written":"x"`) || !strings.HasSuffix(got, "}\n") {
		t.Errorf("json = %q", got)
	}
}

// TestConvertEach writes the Oopsie session's episodes into a directory
// and reports each; a file as -o takes the one episode given.
func TestConvertEach(t *testing.T) {
	t.Parallel()
	m, err := recording.LoadMap(filepath.Join(oopsieData, "robot.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	eps, err := Find([]string{filepath.Join(oopsieData, "session")})
	if err != nil {
		t.Fatal(err)
	}
	o := recording.Options{Activity: "putting_the_apple_on_the_table", Map: m, MaxGap: recording.DefaultMaxGap, DeclareSteps: true}
	dir := t.TempDir()
	var out, errw bytes.Buffer
	failed := ConvertEach(eps, o, "putting_the_apple_on_the_table", ConvertAll{Out: dir, Gzip: true, JSON: true, W: &out, Err: &errw})
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(eps) {
		t.Fatalf("%d records for %d episodes:\n%s", len(lines), len(eps), out.String())
	}
	written := 0
	for i, ep := range eps {
		if strings.Contains(lines[i], `"error"`) {
			continue
		}
		written++
		if _, err := os.Stat(filepath.Join(dir, ep.ConvertedName()+".gz")); err != nil {
			t.Errorf("%s: %v", ep.Path, err)
		}
	}
	if written+failed != len(eps) || written == 0 {
		t.Errorf("%d written, %d failed of %d; stderr:\n%s", written, failed, len(eps), errw.String())
	}
	file := filepath.Join(dir, "one.jsonl")
	out.Reset()
	if n := ConvertEach(eps[:1], o, "a", ConvertAll{Out: file, File: true, W: &out, Err: &errw}); n == 0 && !strings.HasPrefix(out.String(), eps[0].Path+": wrote "+file+" (") {
		t.Errorf("text report %q", out.String())
	}
}
