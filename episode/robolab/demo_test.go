package robolab

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

// TestOpenDemo: a demo opened as an episode stream and completed with
// Result gives what CheckRun gives, its bytes are counted, and a demo
// that cannot be read is an error result.
func TestOpenDemo(t *testing.T) {
	prog := program(t)
	opts := options(t, prog, testMap(t))
	direct := CheckRun(context.Background(), prog, "testdata/run_0.hdf5", opts, episode.CheckOptions{}, nil)
	names, err := DemoNames("testdata/run_0.hdf5")
	if err != nil || len(names) != len(direct) {
		t.Fatalf("DemoNames: %v, %v", names, err)
	}
	for i, name := range names {
		counted := 0
		e, src, err := OpenDemo("testdata/run_0.hdf5", name, opts, func(n int) { counted += n })
		if err != nil {
			t.Fatal(err)
		}
		rd, err := episode.NewReader(src, name)
		if err != nil {
			t.Fatal(err)
		}
		res := e.Result(episode.Check(context.Background(), prog, rd, episode.CheckOptions{}))
		e.Run.Close()
		if res.Success != direct[i].Success || res.Steps != direct[i].Steps || res.EnvID != direct[i].EnvID {
			t.Errorf("%s: %v %d steps env %d; CheckRun: %v %d env %d", name, res.Success, res.Steps, res.EnvID,
				direct[i].Success, direct[i].Steps, direct[i].EnvID)
		}
		if counted == 0 {
			t.Errorf("%s: no bytes counted", name)
		}
	}
	if _, _, err := OpenDemo("testdata/run_0.hdf5", "demo_99", opts, nil); err == nil || !strings.Contains(err.Error(), "no data/demo_99") {
		t.Errorf("missing demo: %v", err)
	}
	e, src, err := OpenDemo("testdata/bad.hdf5", "demo_0", opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Run.Close()
	rd, err := episode.NewReader(src, "bad")
	if err != nil {
		t.Fatal(err)
	}
	if res := e.Result(episode.Check(context.Background(), prog, rd, episode.CheckOptions{})); res.Success || res.Error == "" {
		t.Errorf("bad demo: success %v error %q", res.Success, res.Error)
	}
}

func TestVerdictCache(t *testing.T) {
	c := NewVerdictCache(nil)
	rs, err := c.For("testdata/run_0.hdf5")
	if err != nil || rs == nil || rs.File != filepath.Join("testdata", ResultsFileName) {
		t.Fatalf("beside the run file: %v, %v", rs, err)
	}
	if again, _ := c.For("testdata/bad.hdf5"); again != rs {
		t.Error("the results file was read twice")
	}
	if note := c.NoVerdictNote(); !strings.Contains(note, rs.File+" has no line") {
		t.Errorf("note %q", note)
	}
	none := NewVerdictCache(nil)
	if rs, err := none.For(filepath.Join(t.TempDir(), "run_0.hdf5")); rs != nil || err != nil {
		t.Errorf("no results file: %v, %v", rs, err)
	}
	if note := none.NoVerdictNote(); !strings.Contains(note, "give --robolab-results FILE") {
		t.Errorf("note %q", note)
	}
	fixed := &Results{File: "given.jsonl"}
	if rs, _ := NewVerdictCache(fixed).For("testdata/run_0.hdf5"); rs != fixed {
		t.Error("--robolab-results not used")
	}
}

func TestConvertRuns(t *testing.T) {
	prog := program(t)
	dir := t.TempDir()
	var wrote, failed []string
	ConvertRuns([]string{"testdata/run_0.hdf5", "testdata/nosuch.hdf5"}, options(t, prog, testMap(t)), dir, false,
		func(name, path string, steps int, err error) {
			if err != nil {
				failed = append(failed, name)
			} else {
				wrote = append(wrote, filepath.Base(path))
			}
		})
	if len(wrote) != 4 || wrote[0] != "run_0_demo_0.jsonl" || len(failed) != 1 || failed[0] != "testdata/nosuch.hdf5" {
		t.Errorf("wrote %v, failed %v", wrote, failed)
	}
}
