package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

type episodeConvertOptions struct {
	episodeWriteOptions
	mapPath string
	dir     string
	gzip    bool
	format  string
}

func newEpisodeConvertCmd(g *globalOptions) *cobra.Command {
	opts := &episodeConvertOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}}
	cmd := &cobra.Command{
		Use:   "convert RUN.hdf5... --map FILE -o DIR",
		Short: "Write the demos of RoboLab run files as episode files",
		Long: `Convert writes every data/demo_<k> of RoboLab run files (run_<i>.hdf5) as a
JSON Lines episode, DIR/run_<i>_demo_<k>.jsonl (.jsonl.gz with --gzip), for
users who want to keep or edit them: what 'bddl check --episode run_0.hdf5'
reads directly. --map names the BDDL instance of each RoboLab object and the
static objects RoboLab does not record (see docs/robolab.md);
the activity is --activity, else the map's activity:. The header declares
the number of steps.

A demo that cannot be read in full (a missing dataset, a shape that does
not match its steps, NaN, a file cut short) is reported with the file,
dataset and step, and no file is written for it. An existing file is
replaced atomically, keeping its mode.

The exit status is 0 when every demo was written, 1 when one was not, 2 on
misuse.`,
		Example: `  bddl episode convert output/AppleInBowlTask/run_0.hdf5 --map names.yaml -o episodes/
  bddl check --activity my_task.bddl --episode 'episodes/*.jsonl'`,
		Args: minArgs(1, "RoboLab run files (*.hdf5) or directories of them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEpisodeConvert(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.dir, "output", "o", "", "the directory to write the episodes to (created if missing)")
	f.StringVar(&opts.mapPath, "map", "", "a YAML map of RoboLab object names to BDDL instances, and static objects")
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.BoolVar(&opts.gzip, "gzip", false, "write .jsonl.gz files")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per demo, JSON Lines)")
	return cmd
}

func runEpisodeConvert(opts *episodeConvertOptions, runs []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if opts.dir == "" {
		return misuse("no output directory: give -o DIR")
	}
	var m *robolab.Map
	if opts.mapPath != "" {
		var err error
		if m, err = robolab.LoadMap(opts.mapPath); err != nil {
			return misuse("--map %v", err)
		}
		if opts.activity == "" {
			if opts.activity, err = m.ActivityRef(); err != nil {
				return misuse("--map %v", err)
			}
		}
	}
	if opts.activity == "" {
		return misuse("no activity: give --activity, or activity: in the --map file")
	}
	prog, _, err := opts.compileActivity()
	if err != nil {
		return err
	}
	// The header names the activity by its canonical name, not the path
	// it was read from here; a copy of the definition beside the episodes
	// lets 'bddl check --episode DIR' find it (batch.Resolver).
	ref := activities.CanonicalName(pathOf(opts.activity), prog.Problem())
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return misuse("-o %v", err)
	}
	ropts := robolab.Options{Activity: ref, Instances: robolab.InstancesOf(prog), Map: m}
	w := opts.streams.out
	failed, written := 0, 0
	report := func(name, path string, steps int, err error) {
		if opts.format == "json" {
			rec := map[string]any{"steps": steps}
			if err != nil {
				rec["error"] = err.Error()
			}
			line, _ := episode.ConvertedRecord(path, name, ref, rec)
			fmt.Fprintf(w, "%s\n", line)
		} else if err == nil {
			fmt.Fprintf(w, "%s: wrote %s (%d steps)\n", name, path, steps)
		}
		if err != nil {
			failed++
			fmt.Fprintf(opts.err, "bddl: %v\n", err)
		} else {
			written++
		}
	}
	robolab.ConvertRuns(runs, ropts, opts.dir, opts.gzip, report)
	if written > 0 {
		def := filepath.Join(opts.dir, batch.DefinitionFile(ref))
		if err := fsutil.WriteFileAtomic(def, definitionCopy(pathOf(opts.activity), bddl.FormatProblem(prog.Problem()))); err != nil {
			fmt.Fprintf(opts.err, "bddl: writing the definition beside the episodes: %v\n", err)
			failed++
		}
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.err, "converted %d %s, %d failed\n", written, plural(written, "demo", "demos"), failed)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}
