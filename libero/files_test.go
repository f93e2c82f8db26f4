package libero

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSampleDefinitionsThenCheckFile samples a definition into files and
// checks them back: :init holds on the sampled step, under the place the
// definition had below its argument, plain and gzip-compressed.
func TestSampleDefinitionsThenCheckFile(t *testing.T) {
	path := filepath.Join("testdata", "in_placements.bddl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var recs []SampleRecord
	sampled, done, failed, err := SampleDefinitions([]Definition{{Path: path, Rel: filepath.Join("suite", "in_placements.bddl"), Src: src}},
		SampleFiles{Out: out, Seed: 3, Count: 2}, func(r SampleRecord, err error) error {
			if err != nil {
				t.Errorf("seed %d: %v", r.Seed, err)
			}
			recs = append(recs, r)
			return nil
		})
	if err != nil || failed || sampled != 2 || done != 2 {
		t.Fatalf("SampleDefinitions = %d, %d, %v, %v; want 2, 2, false, nil", sampled, done, failed, err)
	}
	want := filepath.Join(out, "suite", "in_placements-4.jsonl")
	if recs[1].File != want || recs[1].Activity != "in_placements" || recs[1].Index != 1 || recs[1].Status != "ok" {
		t.Errorf("second record = %+v, want file %s", recs[1], want)
	}
	if !IsEpisodeFile(want) {
		t.Errorf("IsEpisodeFile(%s) = false", want)
	}
	if IsEpisodeFile(path) {
		t.Errorf("IsEpisodeFile(%s) = true for a definition", path)
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(out, "in_placements-4.jsonl.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{want, gz} {
		r, err := CheckFile(ep, FileCheck{})
		if err != nil {
			t.Fatalf("CheckFile(%s): %v", ep, err)
		}
		if r.Init != True || r.Activity != "in_placements" || r.Episode != ep || r.InitLiterals == 0 {
			t.Errorf("CheckFile(%s) = init %v, activity %q, episode %q, %d init literals", ep, r.Init, r.Activity, r.Episode, r.InitLiterals)
		}
		if v := Verdict(r); v != "FAIL" && v != "SUCCESS" && v != "UNDETERMINED" {
			t.Errorf("Verdict = %q", v)
		}
		var text, line bytes.Buffer
		WriteText(&text, r)
		WriteLine(&line, r)
		if !strings.HasPrefix(text.String(), Verdict(r)+"  "+ep+"\n  activity     in_placements\n") {
			t.Errorf("WriteText:\n%s", text.String())
		}
		if !strings.Contains(line.String(), " "+ep+": ") || strings.Count(line.String(), "\n") != 1 {
			t.Errorf("WriteLine: %q", line.String())
		}
	}
	if _, err := CheckFile(path, FileCheck{}); err == nil {
		t.Errorf("CheckFile(a definition) = nil error")
	}
}

func TestVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		r    Report
		want string
	}{
		{"success", Report{Success: true}, "SUCCESS"},
		{"undetermined", Report{GoalAtEnd: Unknown}, "UNDETERMINED"},
		{"undetermined with a false literal", Report{GoalAtEnd: Unknown, Unsatisfied: []Literal{{}}}, "FAIL"},
		{"false", Report{GoalAtEnd: False}, "FAIL"},
	} {
		if got := Verdict(tc.r); got != tc.want {
			t.Errorf("%s: Verdict = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTaskName(t *testing.T) {
	t.Parallel()
	if got := TaskName("/x/libero_10/KITCHEN_SCENE3_turn_on_the_stove.bddl"); got != "KITCHEN_SCENE3_turn_on_the_stove" {
		t.Errorf("TaskName = %q", got)
	}
}
