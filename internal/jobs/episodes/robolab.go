package episodes

import (
	"fmt"
	"os"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// ConvertRoboLab writes every demo of the RoboLab run files as an
// episode in the directory o.Out, with the definition beside them; the
// map (mapPath, "" for none) names the instances and may name the
// activity.
func ConvertRoboLab(src *Source, mapPath string, runs []string, o Output) error {
	if o.Out == "" {
		return batch.Usage("no output directory: give -o DIR")
	}
	var m *robolab.Map
	if mapPath != "" {
		var err error
		if m, err = robolab.LoadMap(mapPath); err != nil {
			return batch.Usage("--map %v", err)
		}
		if src.Activity == "" {
			if src.Activity, err = m.ActivityRef(); err != nil {
				return batch.Usage("--map %v", err)
			}
		}
	}
	if src.Activity == "" {
		return batch.Usage("no activity: give --activity, or activity: in the --map file")
	}
	// The header names the activity by its canonical name, not the path
	// it was read from here.
	prog, ref, err := src.CompileNamed()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return batch.Usage("-o %v", err)
	}
	ropts := robolab.Options{Activity: ref, Instances: robolab.InstancesOf(prog), Map: m}
	failed, written := 0, 0
	report := func(name, path string, steps int, err error) {
		if o.JSON {
			rec := map[string]any{"steps": steps}
			if err != nil {
				rec["error"] = err.Error()
			}
			line, _ := episode.ConvertedRecord(path, name, ref, rec)
			fmt.Fprintf(o.Stdout, "%s\n", line)
		} else if err == nil {
			fmt.Fprintf(o.Stdout, "%s: wrote %s (%d steps)\n", name, path, steps)
		}
		if err != nil {
			failed++
			fmt.Fprintf(o.Stderr, "bddl: %v\n", err)
		} else {
			written++
		}
	}
	robolab.ConvertRuns(runs, ropts, o.Out, o.Gzip, report)
	if written > 0 {
		if err := src.WriteDefinition(o.Out, ref, prog); err != nil {
			fmt.Fprintf(o.Stderr, "bddl: writing the definition beside the episodes: %v\n", err)
			failed++
		}
	}
	if !o.JSON {
		demos := "demos"
		if written == 1 {
			demos = "demo"
		}
		fmt.Fprintf(o.Stderr, "converted %d %s, %d failed\n", written, demos, failed)
	}
	if failed > 0 {
		return batch.Findings(nil)
	}
	return nil
}
