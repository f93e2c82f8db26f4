package robotcheck

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/recordings"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

const (
	roboLabData = "../../../episode/robolab/testdata"
	oopsieData  = "../../../episode/oopsie/testdata"
)

func input(path string) batch.Input {
	return batch.Input{Path: path, Arg: path, Rel: filepath.Base(path)}
}

func TestLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(oopsieData, "session", "ep_single.h5"), recordings.Oopsie},
		{filepath.Join(roboLabData, "run_0.hdf5"), ""},
		{filepath.Join("session_1", "episode_000000000", "metadata.json"), recordings.Dora},
		{"episode.jsonl", ""},
	} {
		if got := Layout(tc.path); got != tc.want {
			t.Errorf("Layout(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if !HasRecordings([]batch.Input{input("a.jsonl"), input(filepath.Join(oopsieData, "session", "ep_single.h5"))}) {
		t.Error("HasRecordings: an Oopsie file not seen")
	}
	if HasRecordings([]batch.Input{input("a.jsonl"), input(filepath.Join(roboLabData, "run_0.hdf5"))}) {
		t.Error("HasRecordings: a RoboLab run file taken for a recording")
	}
}

// TestSetupMisuse: the errors check reports as misuse (exit 2), with the
// activity taken from the map when --activity is not given.
func TestSetupMisuse(t *testing.T) {
	t.Parallel()
	run := input(filepath.Join(roboLabData, "run_0.hdf5"))
	oopsie := input(filepath.Join(oopsieData, "session", "ep_single.h5"))
	jsonl := input("a.jsonl")
	for _, tc := range []struct {
		name string
		rl   *RoboLab
		rc   *Recordings
		in   []batch.Input
		want string
	}{
		{"--map without a run file", &RoboLab{MapPath: "m.yaml"}, nil, []batch.Input{jsonl}, "--map and --robolab-results are for RoboLab run files"},
		{"run file without an activity", &RoboLab{}, nil, []batch.Input{run}, "RoboLab run files name no BDDL activity"},
		{"bad map", &RoboLab{MapPath: filepath.Join(roboLabData, "nothing.yaml")}, nil, []batch.Input{run}, "--map "},
		{"--rate without recordings", nil, &Recordings{Rate: 2, MaxGap: 1}, []batch.Input{jsonl}, "--objects and --rate are for Oopsie"},
		{"--max-gap 0", nil, &Recordings{}, []batch.Input{oopsie}, "--max-gap above 0"},
		{"recordings and a run file", nil, &Recordings{MaxGap: 1}, []batch.Input{oopsie, run}, "cannot be checked in one run"},
		{"--objects for two", nil, &Recordings{MaxGap: 1, Objects: "t.jsonl"}, []batch.Input{oopsie, oopsie}, "--objects names the track of a single recording; there are 2"},
		{"recordings without an activity", nil, &Recordings{MaxGap: 1}, []batch.Input{oopsie}, "recordings name no BDDL activity"},
	} {
		activity := ""
		var err error
		if tc.rl != nil {
			_, err = tc.rl.Setup(&activity, &bytes.Buffer{}, tc.in)
		} else {
			_, err = tc.rc.Setup(&activity, tc.in)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Setup error = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestSetupActivityFromMap: the map's activity acts as --activity, and
// RoboLab's results file found by walking is dropped with a note.
func TestSetupActivityFromMap(t *testing.T) {
	t.Parallel()
	run := input(filepath.Join(roboLabData, "run_0.hdf5"))
	results := batch.Input{Path: filepath.Join(roboLabData, "episode_results.jsonl"), Arg: roboLabData}
	rl := &RoboLab{MapPath: filepath.Join(roboLabData, "names.yaml")}
	activity := ""
	var notes bytes.Buffer
	kept, err := rl.Setup(&activity, &notes, []batch.Input{run, results})
	if err != nil {
		t.Fatal(err)
	}
	if activity == "" || len(kept) != 1 || kept[0].Path != run.Path {
		t.Errorf("Setup = %v, activity %q; want the run file and the map's activity", kept, activity)
	}
	if !strings.Contains(notes.String(), "is RoboLab's results file, not an episode") {
		t.Errorf("notes: %q", notes.String())
	}
	var w, errw bytes.Buffer
	if err := rl.Report(&w, &errw, nil); err != nil || w.Len() != 0 || !strings.HasPrefix(errw.String(), "bddl: note:") {
		t.Errorf("Report with nothing judged: %q, %q, %v", w.String(), errw.String(), err)
	}
}
